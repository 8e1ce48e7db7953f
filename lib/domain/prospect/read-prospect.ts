import type { Deps } from '../../storage/client';
import { messages } from '../../messages';
import { readProspectPage } from '../../storage/prospect-pages';
import type { PagePosition, PageRequest } from '../../storage/table-items';
import { readProspectWithConfig } from '../../storage/prospects';
import { NotFoundError, type WorkspaceCaller, type ChangeLogEntry, type Note } from '../model';
import { changeLogEntryView, noteView, prospectReadView, type ProspectReadView } from './read-views';

/** A page answered, and where the next one starts (null: no item follows). */
export type Page<T> = { items: T[]; next: PagePosition | null };

/**
 * GET /prospects/{prospect_id} (docs/api.md#get-a-prospect): the prospect and the workspace's tag
 * names in one strongly consistent BatchGetItem; another workspace's prospect is not found.
 */
export async function readProspect(
  deps: Deps,
  principal: WorkspaceCaller,
  prospectId: string,
): Promise<ProspectReadView> {
  const { config, prospect } = await readProspectWithConfig(deps, principal.workspaceId, prospectId);
  if (!prospect) throw new NotFoundError(messages.prospect.notFound);
  return prospectReadView(prospect, config.tags);
}

/** GET /prospects/{prospect_id}/notes (docs/api.md#list-notes): newest first by reception time. */
export const listProspectNotes = (deps: Deps, principal: WorkspaceCaller, prospectId: string, page: PageRequest) =>
  listPage(deps, 'notes', { workspaceId: principal.workspaceId, prospectId }, page, (note) => ({
    view: noteView(note),
    position: { at: note.created_at, id: note.id },
  }));

/** GET /prospects/{prospect_id}/changes (docs/api.md#list-changes): newest first by `at`. */
export const listProspectChanges = (deps: Deps, principal: WorkspaceCaller, prospectId: string, page: PageRequest) =>
  listPage(deps, 'changes', { workspaceId: principal.workspaceId, prospectId }, page, (entry) => ({
    view: changeLogEntryView(entry),
    position: { at: entry.at, id: entry.id },
  }));

/** A page of one of a prospect's lists (404 for a prospect the workspace does not have), and where the next starts. */
async function listPage<K extends 'notes' | 'changes', View>(
  deps: Deps,
  list: K,
  of: { workspaceId: string; prospectId: string },
  page: PageRequest,
  shown: (item: K extends 'notes' ? Note : ChangeLogEntry) => { view: View; position: PagePosition },
): Promise<Page<View>> {
  const found = await readProspectPage(deps, list, of, page);
  if (!found.prospectFound) throw new NotFoundError(messages.prospect.notFound);
  const items = found.items.map(shown);
  const last = items.at(-1);
  return { items: items.map((item) => item.view), next: found.more && last ? last.position : null };
}
