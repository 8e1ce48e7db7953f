import * as z from 'zod/mini';
import type { Deps } from '../storage/client';
import { newAuditEntry, type ActingMemberId, type AuditAction } from '../storage/audit-log';
import type { WorkspaceSettings, WorkspaceSettingsChange } from '../domain/model';
import { isKnownTimeZone } from '../domain/time-zone';
import { isRetentionMonths, retentionMonthsRange } from '../domain/retention';
import { messages } from '../messages';
import { checkedId } from './admin-input';
import { editConfig } from './config-edits';
import { workspaceView, type WorkspaceView } from './workspace-view';

/*
 * The workspace's own settings (docs/api.md#workspaces): `PATCH /workspaces/{w}` and `workspace set --time-zone`,
 * `--retention-months`, one conditional edit of the configuration item with one audit entry per setting changed in the
 * same transaction (lib/settings/config-edits.ts).
 */

const timeZone = z.string(messages.rules.timeZone).check(z.refine(isKnownTimeZone, messages.rules.timeZone));

const retentionRefused = messages.rules.retentionMonths(retentionMonthsRange.min, retentionMonthsRange.max);
/** A JSON number that is an integer in range, or null; `"12"`, `1.5`, `0`, `121` are refused alike. */
const retentionMonths = z.nullable(z.number(retentionRefused).check(z.refine(isRetentionMonths, retentionRefused)));

/** What the PATCH may change: one optional member per setting, each checked as the command line checks its option. */
const changeableSettings = {
  time_zone: z.optional(timeZone),
  retention_months: z.optional(retentionMonths),
} satisfies Record<keyof WorkspaceSettingsChange, unknown>;

/** `PATCH /workspaces/{w}`: at least one setting; an unknown member or a refused value is a 400 naming it. */
export const workspaceChangeSchema = z
  .strictObject(changeableSettings)
  .check(
    z.refine(
      (body) => Object.keys(body).length > 0,
      messages.rules.oneSettingToChange(Object.keys(changeableSettings).join(', ')),
    ),
  );

type SettingName = keyof WorkspaceSettingsChange;

/** Each setting's audit action (docs/api.md#audit-log), and its value as the entry's summary quotes it. */
const audited: { [name in SettingName]: { action: AuditAction; inWords: (value: WorkspaceSettings[name]) => string } } =
  {
    time_zone: { action: 'workspace.time_zone_changed', inWords: (zone) => zone },
    retention_months: { action: 'workspace.retention_changed', inWords: messages.audit.retention },
  };

/** The settings `change` gives another value than `current`'s, with both: what the edit writes, what its entry says. */
function changedSettings(current: WorkspaceSettings, change: WorkspaceSettingsChange) {
  return (Object.keys(changeableSettings) as SettingName[]).flatMap((name) => {
    const after = change[name];
    if (after === undefined || after === current[name]) return [];
    const said = audited[name].inWords as (value: typeof after) => string;
    return [{ name, after, words: { before: said(current[name]), after: said(after) } }];
  });
}

/**
 * The settings changed, read back as `GET /workspaces/{w}` shows them. A change to what the workspace already says
 * writes nothing (no audit entry) and answers the workspace as it is.
 */
export async function changeWorkspace(
  deps: Deps,
  input: { workspaceId: string; change: WorkspaceSettingsChange; actingMemberId: ActingMemberId },
): Promise<WorkspaceView> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const { config } = await editConfig(deps, workspaceId, (read) => {
    const changed = changedSettings(read.settings, input.change);
    if (changed.length === 0) return 'unchanged';
    const now = deps.clock();
    const entries = changed.map(({ name, words }) =>
      newAuditEntry(now, {
        workspaceId,
        memberId: input.actingMemberId,
        action: audited[name].action,
        targetId: workspaceId,
        summary: messages.audit.workspaceSettingChanged(
          messages.audit.workspaceSettings[name],
          words.before,
          words.after,
        ),
      }),
    );
    const settings = Object.fromEntries(changed.map(({ name, after }) => [name, after])) as WorkspaceSettingsChange;
    return { settings, companions: entries.map((entry) => ({ kind: 'audit' as const, entry })) };
  });
  return workspaceView(config.workspace, config.settings);
}
