import type { Deps } from '../storage/client';
import { commandLine, type ActingMemberId } from '../storage/audit-log';
import { undoChange } from '../domain/prospect/undo-change';
import { changeLogEntryView, type ChangeLogEntryView } from '../domain/prospect/read-views';
import { checkedId, requireWorkspaceConfig } from './admin-input';
import { liveFields } from '../domain/model';
import { prospectView, type ProspectView } from './prospects';

/*
 * A file apart from `changelog list` (tools/admin/use-cases/changelog.ts): the settings API's undo function reaches the undo
 * without the list's API-key look-up and what it imports.
 */

/**
 * `changelog undo` and `POST /workspaces/{w}/changes/{entry}/undo`: a refusal is the domain's error (unknown
 * entry 404, undone already or record changed since 409, a note 422), which the command line exits 2 with;
 * nothing changed. The undo writes its audit entry in its transaction; `actingMemberId`, the member acting
 * through the settings API (absent: the command line).
 */
export async function undoChangeLogEntry(
  deps: Deps,
  input: { workspaceId: string; entryId: string; actingMemberId?: ActingMemberId },
): Promise<{ entry: ChangeLogEntryView; prospect: ProspectView }> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const entryId = checkedId('changeLogEntry', input.entryId);
  // The workspace's item says its custom fields: an entry of a deleted one is not found, and the prospect shows the
  // live ones.
  const definitions = liveFields(await requireWorkspaceConfig(deps, workspaceId));
  const workspace = { id: workspaceId, definitions };
  const { entry, prospect } = await undoChange(deps, workspace, entryId, input.actingMemberId ?? commandLine);
  return { entry: changeLogEntryView(entry), prospect: prospectView(prospect, definitions) };
}
