import type { ChangeLogEntry, Note, Prospect, Tag } from '../model';

/**
 * How a prospect, its tags, notes and change-log entries read from outside: the read routes
 * (docs/api.md#read-routes), the admin command line (`prospect show`, `changelog list`) and, later,
 * outbound events share these shapes.
 */

export type ProspectPatchView = {
  id: string;
  pipeline_id: string | null;
  stage_id: string | null;
  setter_id: string | null;
  closer_id: string | null;
  next_follow_up_at: string | null;
};

/**
 * The PATCH answer (docs/api.md#update-a-prospect); `pipeline_id` and `stage_id` stay null for a
 * prospect on no board.
 */
export const prospectPatchView = (prospect: Prospect): ProspectPatchView => ({
  id: prospect.id,
  pipeline_id: prospect.pipeline_id,
  stage_id: prospect.stage_id,
  setter_id: prospect.setter_id,
  closer_id: prospect.closer_id,
  next_follow_up_at: prospect.next_follow_up_at,
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

export const prospectReadView = (prospect: Prospect, workspaceTags: readonly Tag[]): ProspectReadView => ({
  ...prospectPatchView(prospect),
  first_name: prospect.first_name,
  last_name: prospect.last_name,
  email: prospect.email,
  phone: prospect.phone,
  social_url: prospect.social_url,
  source: prospect.source,
  tags: tagsView(prospect.tag_ids, workspaceTags),
  created_at: prospect.created_at,
  updated_at: prospect.updated_at,
});

export const noteView = (note: Note): NoteView => ({
  id: note.id,
  content: note.content,
  date: note.date,
  created_at: note.created_at,
});

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
