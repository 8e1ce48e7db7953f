import type { Deps } from '../deps';
import { DomainError } from '../errors';
import { undoChange } from '../domain/prospect/undo-change';
import { listChangeLog } from '../storage/changelog';
import { changeLogEntryView, type ChangeLogEntryView } from './changelog-entry';
import { AdminInputError } from './errors';
import { prospectView, type ProspectView } from './prospects';
import { requireWorkspace } from './workspace';
import { isUuid } from '../ids';

/** `changelog list`: a prospect's or a key's entries, newest first ("Modifications par l'API"). */
export async function changeLogEntries(
  deps: Deps,
  input: { workspaceId: string; prospectId?: string | undefined; keyId?: string | undefined },
): Promise<{ entries: ChangeLogEntryView[] }> {
  await requireWorkspace(deps, input.workspaceId);
  if ((input.prospectId === undefined) === (input.keyId === undefined)) {
    throw new AdminInputError('Donnez soit --prospect, soit --key.');
  }
  const entries =
    input.prospectId !== undefined
      ? await listChangeLog(deps, { workspaceId: input.workspaceId, prospectId: input.prospectId.toLowerCase() })
      : await listChangeLog(deps, { keyId: (input.keyId as string).toLowerCase() });
  return { entries: entries.filter((entry) => entry.workspace_id === input.workspaceId).map(changeLogEntryView) };
}

/** `changelog undo`: a refusal (note, undone already, record changed since) exits 2 with nothing changed. */
export async function undoChangeLogEntry(
  deps: Deps,
  input: { workspaceId: string; entryId: string },
): Promise<{ entry: ChangeLogEntryView; prospect: ProspectView }> {
  await requireWorkspace(deps, input.workspaceId);
  if (!isUuid(input.entryId))
    throw new AdminInputError(`Entrée du journal inconnue dans cet espace : ${input.entryId}.`);
  try {
    const { entry, prospect } = await undoChange(deps, input.workspaceId, input.entryId.toLowerCase());
    return { entry: changeLogEntryView(entry), prospect: prospectView(prospect) };
  } catch (error) {
    if (error instanceof DomainError) throw new AdminInputError(error.message);
    throw error;
  }
}
