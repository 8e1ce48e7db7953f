import type { Deps } from '../../storage/client';
import { messages } from '../../messages';
import { readProspectPage } from '../../storage/prospect-pages';
import type { PagePosition, PageRequest } from '../../storage/table-items';
import { readProspectWithConfig } from '../../storage/prospects';
import { readFieldEntries } from '../../storage/workspace-config';
import { NotFoundError, liveFields, type WorkspaceCaller } from '../model';
import {
  changeLogEntryView,
  noteView,
  pageOfListedChanges,
  prospectReadView,
  type ChangeLogEntryView,
  type NoteView,
  type ProspectReadView,
} from './read-views';

/** A page answered, and where the next one starts (null: no item follows). */
export type Page<T> = { items: T[]; next: PagePosition | null };

/**
 * GET /prospects/{prospect_id} (docs/api.md#get-a-prospect): the prospect and the workspace's tag
 * names and custom fields in one strongly consistent BatchGetItem; another workspace's prospect is not found.
 */
export async function readProspect(
  deps: Deps,
  principal: WorkspaceCaller,
  prospectId: string,
): Promise<ProspectReadView> {
  const { config, prospect } = await readProspectWithConfig(deps, principal.workspaceId, prospectId);
  if (!prospect) throw new NotFoundError(messages.prospect.notFound);
  return prospectReadView(prospect, config.tags, liveFields(config));
}

/** GET /prospects/{prospect_id}/notes (docs/api.md#list-notes): newest first by reception time. */
export async function listProspectNotes(
  deps: Deps,
  principal: WorkspaceCaller,
  prospectId: string,
  page: PageRequest,
): Promise<Page<NoteView>> {
  const found = await readProspectPage(deps, 'notes', { workspaceId: principal.workspaceId, prospectId }, page);
  if (!found.prospectFound) throw new NotFoundError(messages.prospect.notFound);
  const last = found.items.at(-1);
  return { items: found.items.map(noteView), next: found.more && last ? { at: last.created_at, id: last.id } : null };
}

/**
 * GET /prospects/{prospect_id}/changes (docs/api.md#list-changes): newest first by `at`, without the entries of a
 * deleted custom field. The change log is read alone (one Query); only a page holding a custom field's entry reads
 * the workspace's fields too (one GetItem, `readFieldEntries`), and only a page that left entries out reads on.
 */
export async function listProspectChanges(
  deps: Deps,
  principal: WorkspaceCaller,
  prospectId: string,
  page: PageRequest,
): Promise<Page<ChangeLogEntryView>> {
  const { workspaceId } = principal;
  const { entries, next } = await pageOfListedChanges(
    async (after) => {
      const found = await readProspectPage(deps, 'changes', { workspaceId, prospectId }, { limit: page.limit, after });
      if (!found.prospectFound) throw new NotFoundError(messages.prospect.notFound);
      return found;
    },
    page,
    async () => liveFields({ fields: await readFieldEntries(deps, workspaceId) }),
  );
  return { items: entries.map(changeLogEntryView), next };
}
