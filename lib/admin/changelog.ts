import type { Deps } from '../deps';
import { messages } from '../messages';
import { listChangeLog } from '../storage/changelog';
import { requireApiKey } from './api-keys';
import { changeLogEntryView, type ChangeLogEntryView } from '../domain/prospect/read-views';
import { AdminInputError } from './errors';
import { checkedId } from './ids';
import { requireProspect } from './prospects';
import { requireWorkspace } from './workspace';

/**
 * `changelog list`: a prospect's or a key's entries, newest first ("Modifications par l'API").
 * An empty log is a fact only about a prospect or key that exists in the workspace, hence the
 * check, read alongside the log.
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
    await requireWorkspace(deps, workspaceId);
    const [entries] = await Promise.all([
      listChangeLog(deps, { workspaceId, prospectId }),
      requireProspect(deps, workspaceId, prospectId),
    ]);
    return { entries: entries.map(changeLogEntryView) };
  }
  const keyId = checkedId('apiKey', input.keyId as string);
  await requireWorkspace(deps, workspaceId);
  // A key of this workspace only ever wrote entries of this workspace.
  const [entries] = await Promise.all([listChangeLog(deps, { keyId }), requireApiKey(deps, workspaceId, keyId)]);
  return { entries: entries.map(changeLogEntryView) };
}
