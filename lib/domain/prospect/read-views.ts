import {
  fieldKeyOfChange,
  type ChangeLogEntry,
  type FieldDefinition,
  type FieldValue,
  type Note,
  type Prospect,
  type Tag,
} from '../model';
import { fieldsView } from '../fields/field-values';
import type { PagePosition } from '../../storage/table-items';

/**
 * How a prospect, its tags, notes and change-log entries read from outside: the read routes
 * (docs/api.md#read-routes), the admin command line (`prospect show`, `changelog list`) and, later,
 * outbound events share these shapes.
 */

/** A prospect's custom fields as every view shows them: each live field's value, or null (docs/api.md#custom-fields). */
export type FieldsView = Record<string, FieldValue | null>;

export type ProspectPatchView = {
  id: string;
  pipeline_id: string | null;
  stage_id: string | null;
  setter_id: string | null;
  closer_id: string | null;
  next_follow_up_at: string | null;
  fields: FieldsView;
};

/**
 * The PATCH answer (docs/api.md#update-a-prospect); `pipeline_id` and `stage_id` stay null for a
 * prospect on no board. `definitions`: the workspace's live custom fields.
 */
export const prospectPatchView = (prospect: Prospect, definitions: readonly FieldDefinition[]): ProspectPatchView => ({
  id: prospect.id,
  pipeline_id: prospect.pipeline_id,
  stage_id: prospect.stage_id,
  setter_id: prospect.setter_id,
  closer_id: prospect.closer_id,
  next_follow_up_at: prospect.next_follow_up_at,
  fields: fieldsView(prospect.fields, definitions),
});

/** A tag id the workspace no longer names keeps its place, with a null name, rather than vanishing. */
export type ProspectTagView = { id: string; name: string | null };

/** The prospect as GET /prospects/{prospect_id} answers it (docs/api.md#get-a-prospect): the PATCH answer's fields and the rest. */
export type ProspectReadView = ProspectPatchView &
  Pick<
    Prospect,
    'first_name' | 'last_name' | 'email' | 'phone' | 'social_url' | 'source' | 'created_at' | 'updated_at'
  > & { tags: ProspectTagView[] };

export type NoteView = Pick<Note, 'id' | 'content' | 'date' | 'created_at'>;

export type ChangeLogEntryView = Pick<
  ChangeLogEntry,
  'id' | 'prospect_id' | 'key_id' | 'field' | 'before' | 'after' | 'at' | 'undone_at'
>;

/** The prospect's tags by name, in French alphabetical order. */
export function tagsView(tagIds: ReadonlySet<string> | undefined, workspaceTags: readonly Tag[]): ProspectTagView[] {
  const names = new Map(workspaceTags.map((tag) => [tag.id, tag.name]));
  return [...(tagIds ?? [])]
    .map((id) => ({ id, name: names.get(id) ?? null }))
    .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '', 'fr'));
}

/** `definitions`: the workspace's live custom fields, whose values `fields` shows after the tags. */
export function prospectReadView(
  prospect: Prospect,
  workspaceTags: readonly Tag[],
  definitions: readonly FieldDefinition[],
): ProspectReadView {
  const { fields, ...patchView } = prospectPatchView(prospect, definitions);
  return {
    ...patchView,
    first_name: prospect.first_name,
    last_name: prospect.last_name,
    email: prospect.email,
    phone: prospect.phone,
    social_url: prospect.social_url,
    source: prospect.source,
    tags: tagsView(prospect.tag_ids, workspaceTags),
    fields,
    created_at: prospect.created_at,
    updated_at: prospect.updated_at,
  };
}

export const noteView = (note: Note): NoteView => ({
  id: note.id,
  content: note.content,
  date: note.date,
  created_at: note.created_at,
});

/**
 * Whether a change-log entry is listed: an entry of a custom field the workspace deleted is not, from the deletion on
 * (docs/adr/0016-custom-fields-storage.md), before the purge removes it. `definitions`: the live custom fields.
 */
export function isListedChange(entry: Pick<ChangeLogEntry, 'field'>, definitions: readonly FieldDefinition[]): boolean {
  const key = fieldKeyOfChange(entry.field);
  return key === undefined || definitions.some((definition) => definition.key === key);
}

/** Whether any of these entries is of a custom field: only then does listing them need the definitions. */
const anyFieldChange = (entries: readonly Pick<ChangeLogEntry, 'field'>[]): boolean =>
  entries.some((entry) => fieldKeyOfChange(entry.field) !== undefined);

/** One read of a change log: at most a page of entries after `after`, newest first, and the entry that follows them. */
export type ChangePageRead = (
  after: PagePosition | undefined,
) => Promise<{ items: ChangeLogEntry[]; following: ChangeLogEntry | undefined }>;

/**
 * A page of `limit` listed entries (`isListedChange`) after `after`, newest first, and the position the next page
 * starts after: null when no listed entry follows, so that a last page is never empty. The definitions are read
 * (`liveDefinitions`) only when a read holds a custom field's entry; while entries are left out, the change log is
 * read on from the last entry read until the page is full and a listed entry is seen past it, or the log ends.
 */
export async function pageOfListedChanges(
  read: ChangePageRead,
  page: { limit: number; after?: PagePosition | undefined },
  liveDefinitions: () => Promise<readonly FieldDefinition[]>,
): Promise<{ entries: ChangeLogEntry[]; next: PagePosition | null }> {
  let definitions: readonly FieldDefinition[] | undefined;
  const listed = async (entries: readonly ChangeLogEntry[]): Promise<ChangeLogEntry[]> => {
    if (definitions === undefined && anyFieldChange(entries)) definitions = await liveDefinitions();
    const live = definitions;
    return live === undefined ? [...entries] : entries.filter((entry) => isListedChange(entry, live));
  };
  const entries: ChangeLogEntry[] = [];
  let after = page.after;
  for (;;) {
    const { items, following } = await read(after);
    entries.push(...(await listed(items)));
    const last = items.at(-1);
    const followingListed = following !== undefined && (await listed([following])).length > 0;
    const full = entries.length > page.limit || (entries.length === page.limit && followingListed);
    if (full || following === undefined || last === undefined) {
      const shown = entries.slice(0, page.limit);
      const end = shown.at(-1);
      return { entries: shown, next: full && end ? { at: end.at, id: end.id } : null };
    }
    after = { at: last.at, id: last.id };
  }
}

/** The change-log entry (docs/api.md#change-log-entry). */
export const changeLogEntryView = (item: ChangeLogEntry): ChangeLogEntryView => ({
  id: item.id,
  prospect_id: item.prospect_id,
  key_id: item.key_id,
  field: item.field,
  before: item.before,
  after: item.after,
  at: item.at,
  undone_at: item.undone_at,
});
