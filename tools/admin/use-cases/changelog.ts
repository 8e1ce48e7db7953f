import type { Deps } from '../../../lib/storage/client';
import { messages } from '../../../lib/messages';
import { listChangeLog } from '../../../lib/storage/changelog';
import { requireApiKey } from '../../../lib/settings/api-key-list';
import { liveFields } from '../../../lib/domain/model';
import { changeLogEntryView, isListedChange, type ChangeLogEntryView } from '../../../lib/domain/prospect/read-views';
import { AdminInputError, checkedId, requireWorkspaceConfig } from '../../../lib/settings/admin-input';
import { requireProspect } from '../../../lib/settings/prospects';

/**
 * `changelog list`: a prospect's or a key's entries, newest first ("Modifications par l'API"), without the entries of
 * a deleted custom field (the workspace's item, read to check it, says its fields). An empty log is a fact only about
 * a prospect or key that exists in the workspace, hence the check, read alongside the log.
 */
export async function changeLogEntries(
  deps: Deps,
  input: { workspaceId: string; prospectId?: string | undefined; keyId?: string | undefined },
): Promise<{ entries: ChangeLogEntryView[] }> {
  if ((input.prospectId === undefined) === (input.keyId === undefined)) {
    throw new AdminInputError(messages.admin.changeLog.prospectOrKey);
  }
  const workspaceId = checkedId('workspace', input.workspaceId);
  if (input.prospectId !== undefined) {
    const prospectId = checkedId('prospect', input.prospectId);
    const definitions = liveFields(await requireWorkspaceConfig(deps, workspaceId));
    const [entries] = await Promise.all([
      listChangeLog(deps, { workspaceId, prospectId }),
      requireProspect(deps, workspaceId, prospectId),
    ]);
    return { entries: entries.filter((entry) => isListedChange(entry, definitions)).map(changeLogEntryView) };
  }
  const keyId = checkedId('apiKey', input.keyId as string);
  const definitions = liveFields(await requireWorkspaceConfig(deps, workspaceId));
  // A key of this workspace only ever wrote entries of this workspace.
  const [entries] = await Promise.all([listChangeLog(deps, { keyId }), requireApiKey(deps, workspaceId, keyId)]);
  return { entries: entries.filter((entry) => isListedChange(entry, definitions)).map(changeLogEntryView) };
}
