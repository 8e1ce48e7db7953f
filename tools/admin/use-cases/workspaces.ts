import type { Deps, RetryPolicy } from '../../../lib/storage/client';
import { e164Of, isPhoneRegion } from '../../../lib/domain/phone';
import { messages } from '../../../lib/messages';
import { configEditPolicy } from '../../../lib/storage/config-edits';
import { readPhoneSettingsState, writePhoneSettings } from '../storage/phone-settings';
import {
  indexPhones,
  listProspectPhones,
  removeOldRegionMarkers,
  type E164Form,
  type IndexProgress,
  type ProspectPhone,
  type SharedNumber,
} from '../storage/phone-index';
import { defaultRetryPolicy, readDecideWrite } from '../../../lib/storage/conditional-writes';
import { type PhoneSettingsState, listWorkspaces as listStoredWorkspaces } from '../../../lib/storage/workspace-config';
import { AdminInputError, checkedId, unknownId, requireWorkspace } from '../../../lib/settings/admin-input';
import {
  workspaceSettingsOf,
  type PhoneMatchingMode as PhoneMatching,
  type PhoneSettings,
  type WorkspaceSettingsChange,
} from '../../../lib/domain/model';
import { isKnownTimeZone } from '../../../lib/domain/time-zone';
import { isRetentionMonths, retentionMonthsRange } from '../../../lib/domain/retention';
import { commandLine } from '../../../lib/storage/audit-log';
import { workspaceView, type WorkspaceView } from '../../../lib/settings/workspace-view';
import { changeWorkspace } from '../../../lib/settings/workspace-settings';

/** `workspace list` (docs/api.md#workspaces): a workspace as listed. */
export type WorkspaceSummaryView = { id: string; name: string; created_at: string };

/**
 * `workspace set` (docs/api.md#workspaces): the workspace after the change; `shared_numbers` only when the
 * change indexed the prospects (E.164 turned on, or its region changed while on).
 */
export type WorkspaceSetView = WorkspaceView & { shared_numbers?: SharedNumber[] };

/** `workspace set`'s options as given on the command line (absent: left as stored). */
export type WorkspaceSettingsInput = {
  phoneMatching?: string | undefined;
  phoneRegion?: string | undefined;
  timeZone?: string | undefined;
  /** A number of months, or `none`: kept until erased. */
  retentionMonths?: string | undefined;
};

/** The options checked: the phone settings to switch, and the settings the configuration edit sets. */
export type CheckedSettingsInput = { phone: Partial<PhoneSettings>; change: WorkspaceSettingsChange };

/** Every workspace of the table, oldest first (creation date, then id). */
export async function listWorkspaces(deps: Pick<Deps, 'db' | 'tableName'>): Promise<WorkspaceSummaryView[]> {
  return (await listStoredWorkspaces(deps)).map(({ id, name, created_at }) => ({ id, name, created_at }));
}

/** A phone's E.164 form read in a region (lib/domain/phone.ts), as the indexing takes it. */
export const inRegion =
  (region: string): E164Form =>
  (phone) =>
    e164Of(phone, region);

/**
 * The options checked, before any DynamoDB call: a known mode, a region libphonenumber-js knows (upper-cased), a time
 * zone the API would take (lib/domain/time-zone.ts, refused in the API's words), a retention the API would take
 * (lib/domain/retention.ts).
 */
export function checkedSettingsInput(input: WorkspaceSettingsInput): CheckedSettingsInput {
  const checked: CheckedSettingsInput = { phone: {}, change: {} };
  if (Object.values(input).every((value) => value === undefined)) {
    throw new AdminInputError(messages.admin.workspaceSettings.nothingToSet);
  }
  if (input.phoneMatching !== undefined) {
    const matching = input.phoneMatching.trim().toLowerCase();
    if (matching !== 'exact' && matching !== 'e164') {
      throw new AdminInputError(messages.admin.workspaceSettings.invalidMatching(input.phoneMatching));
    }
    checked.phone.phone_matching = matching satisfies PhoneMatching;
  }
  if (input.phoneRegion !== undefined) {
    const region = input.phoneRegion.trim().toUpperCase();
    if (!isPhoneRegion(region))
      throw new AdminInputError(messages.admin.workspaceSettings.invalidRegion(input.phoneRegion));
    checked.phone.phone_region = region;
  }
  if (input.timeZone !== undefined) {
    if (!isKnownTimeZone(input.timeZone))
      throw new AdminInputError(messages.admin.workspaceSettings.invalidTimeZone(input.timeZone));
    checked.change.time_zone = input.timeZone;
  }
  if (input.retentionMonths !== undefined) checked.change.retention_months = retentionOption(input.retentionMonths);
  return checked;
}

/** `--retention-months`: decimal digits naming a retention the API would take, or `none` (kept until erased). */
function retentionOption(value: string): number | null {
  const text = value.trim();
  if (text.toLowerCase() === 'none') return null;
  const months = /^\d{1,3}$/.test(text) ? Number(text) : undefined;
  if (!isRetentionMonths(months)) {
    const { min, max } = retentionMonthsRange;
    throw new AdminInputError(messages.admin.workspaceSettings.invalidRetention(value, min, max));
  }
  return months;
}

/**
 * `workspace set` (docs/api.md#workspaces): the options checked, then the time zone and the retention set by the
 * settings API's own use
 * case (lib/settings/workspace-settings.ts: a configuration edit with its audit entry, the command line acting as no
 * member), then the phone settings switched (`switchPhoneSettings`); the workspace shown as it then is.
 */
export async function setWorkspace(
  deps: Deps,
  workspaceId: string,
  input: WorkspaceSettingsInput,
  progress?: IndexProgress,
  policy: RetryPolicy = configEditPolicy,
): Promise<WorkspaceSetView> {
  const wanted = checkedSettingsInput(input);
  const id = checkedId('workspace', workspaceId);
  const workspace = await requireWorkspace(deps, id);
  let view = workspaceView(workspace, workspaceSettingsOf(workspace));
  if (Object.keys(wanted.change).length > 0) {
    view = await changeWorkspace(deps, { workspaceId: id, change: wanted.change, actingMemberId: commandLine });
  }
  if (Object.keys(wanted.phone).length === 0) return view;
  const { settings, shared } = await switchPhoneSettings(deps, id, wanted.phone, progress, policy);
  return { ...view, ...settings, ...(shared === undefined ? {} : { shared_numbers: shared }) };
}

/**
 * The phone settings of `workspace set` (docs/data-model.md, "Phone matching in E.164"). In this order:
 *
 * 1. the settings and `config_version` read (strongly consistent), the new ones decided from them;
 * 2. when the change asks for E.164 (again or not) or changes its region while on, the workspace's prospects
 *    indexed in the new region (tools/admin/storage/phone-index.ts) BEFORE anything is switched, so the
 *    lead webhook never matches on a half-built index; an interrupted run leaves markers only, which
 *    the next run finds in place;
 * 3. one transaction switching the settings on the configuration item (conditional on the version
 *    and endpoint read, raising the version) and on the endpoint item; a lost race starts again
 *    from 1 on the fresh settings, so concurrent changes compose (the indexing, already done for a
 *    region, is not run again);
 * 4. after a region change, the markers of the old region that differ removed (they are no longer
 *    read once the new region is in force).
 */
async function switchPhoneSettings(
  deps: Pick<Deps, 'db' | 'tableName'>,
  id: string,
  wanted: Partial<PhoneSettings>,
  progress: IndexProgress | undefined,
  policy: RetryPolicy,
): Promise<{ settings: PhoneSettings; shared: SharedNumber[] | undefined }> {
  let prospects: ProspectPhone[] | undefined;
  const listed = async () => (prospects ??= await listProspectPhones(deps, id));
  const indexed = new Map<string, SharedNumber[]>();

  type Change = { read: PhoneSettingsState; settings: PhoneSettings; indexes: boolean };
  return readDecideWrite<
    PhoneSettingsState | undefined,
    Change,
    { settings: PhoneSettings; shared: SharedNumber[] | undefined }
  >(
    {
      read: async () => ({ snapshot: await readPhoneSettingsState(deps, id), consistent: true }),
      decide: (read) => {
        // No configuration item (a strongly consistent read): no such workspace.
        if (!read) return { kind: 'refuse', refusal: unknownId('workspace', id) };
        const settings: PhoneSettings = { ...read.settings, ...wanted };
        // Asking for e164 again indexes again: a no-op on the markers in place, it completes an index a
        // prospect created during the last run missed, and lists the shared numbers again.
        const indexes =
          settings.phone_matching === 'e164' &&
          (wanted.phone_matching === 'e164' || read.settings.phone_region !== settings.phone_region);
        return { kind: 'write', write: { read, settings, indexes } };
      },
      write: async ({ read, settings, indexes }) => {
        let shared: SharedNumber[] | undefined;
        if (indexes) {
          shared = indexed.get(settings.phone_region);
          if (!shared) {
            shared = await indexPhones(deps, id, await listed(), inRegion(settings.phone_region), progress);
            indexed.set(settings.phone_region, shared);
          }
        }
        const written = await writePhoneSettings(deps, id, read, settings);
        if (written === 'changed_meanwhile') return { kind: 'lost-race' };
        if (read.settings.phone_region !== settings.phone_region) {
          await removeOldRegionMarkers(deps, id, await listed(), {
            old: inRegion(read.settings.phone_region),
            new: inRegion(settings.phone_region),
          });
        }
        return { kind: 'written', answer: { settings, shared } };
      },
      contended: () => new Error(messages.admin.workspaceSettings.contended(policy.attempts)),
    },
    { rounds: policy, conflicts: defaultRetryPolicy },
  );
}
