import type { Deps } from '../../deps';
import { messages } from '../../messages';
import { readProspectPage, type PagePosition } from '../../storage/prospect-pages';
import { getProspect, readProspectWithConfig } from '../../storage/prospects';
import { InvalidInputError, NotFoundError } from '../errors';
import { findLeadMatch } from '../lead/find-match';
import { interpretLead } from '../lead/lead-input';
import type { ApiKeyPrincipal, ChangeLogEntry, Note } from '../model';
import { changeLogEntryView, noteView, prospectReadView, type ProspectReadView } from './read-views';

export type { PagePosition } from '../../storage/prospect-pages';

/** The contact value a look-up names: one of the three the lead webhook matches on. */
export type ContactLookup = { field: 'email' | 'phone' | 'social_url'; value: string };

/** A page asked for: at most `limit` items, after the position the previous page ended on. */
export type PageRequest = { limit: number; after?: PagePosition };

/** A page answered, and where the next one starts (null: no item follows). */
export type Page<T> = { items: T[]; next: PagePosition | null };

/**
 * GET /prospects/{prospect_id} (docs/api.md#get-a-prospect): the prospect and the workspace's tag
 * names in one strongly consistent BatchGetItem; another workspace's prospect is not found.
 */
export async function readProspect(
  deps: Deps,
  principal: ApiKeyPrincipal,
  prospectId: string,
): Promise<ProspectReadView> {
  const { config, prospect } = await readProspectWithConfig(deps, principal.workspaceId, prospectId);
  if (!prospect) throw new NotFoundError(messages.prospect.notFound);
  return prospectReadView(prospect, config.tags);
}

/**
 * GET /prospects?email=|phone=|social_url= (docs/api.md#find-a-prospect-by-contact): the value is
 * read as the lead webhook reads that field, and matched by the webhook's own path
 * (`findLeadMatch`); a value the webhook would not keep is refused, naming the parameter.
 */
export async function findProspects(
  deps: Deps,
  principal: ApiKeyPrincipal,
  lookup: ContactLookup,
): Promise<{ prospects: ProspectReadView[] }> {
  const lead = leadOf(lookup);
  // The API key does not carry the phone settings: the configuration read with the markers says
  // them (one more BatchGetItem only for a workspace matching in E.164 outside region FR).
  const { config, match } = await findLeadMatch(deps, principal.workspaceId, lead, undefined);
  if (match.kind === 'new') return { prospects: [] };
  const prospect = await getProspect(deps, principal.workspaceId, match.prospectId);
  return { prospects: prospect ? [prospectReadView(prospect, config.tags)] : [] };
}

function leadOf(lookup: ContactLookup) {
  try {
    return interpretLead({ [lookup.field]: lookup.value }).lead;
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    const message = messages.query.unreadableContact(lookup.field);
    throw new InvalidInputError(message, { field: lookup.field, message });
  }
}

/** GET /prospects/{prospect_id}/notes (docs/api.md#list-notes): newest first by reception time. */
export const listProspectNotes = (deps: Deps, principal: ApiKeyPrincipal, prospectId: string, page: PageRequest) =>
  listPage(deps, 'notes', { workspaceId: principal.workspaceId, prospectId }, page, (note) => ({
    view: noteView(note),
    position: { at: note.created_at, id: note.id },
  }));

/** GET /prospects/{prospect_id}/changes (docs/api.md#list-changes): newest first by `at`. */
export const listProspectChanges = (deps: Deps, principal: ApiKeyPrincipal, prospectId: string, page: PageRequest) =>
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
