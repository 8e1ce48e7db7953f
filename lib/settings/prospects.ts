import type { Deps } from '../storage/client';
import { getProspect } from '../storage/prospects';
import { readProspectCollection } from '../storage/item-collections';
import type { Prospect } from '../domain/model';
import type { ChangeLogItem, NoteItem, ProspectItem } from '../storage/table-items';
import { loadWorkspaceConfig } from '../storage/workspace-config';
import {
  changeLogEntryView,
  noteView,
  tagsView,
  type ChangeLogEntryView,
  type NoteView,
  type ProspectTagView,
} from '../domain/prospect/read-views';
import { checkedId, unknownId, requireWorkspace } from './admin-input';

export type ProspectView = Pick<
  ProspectItem,
  | 'id'
  | 'pipeline_id'
  | 'stage_id'
  | 'setter_id'
  | 'closer_id'
  | 'next_follow_up_at'
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'phone'
  | 'social_url'
  | 'source'
  | 'version'
  | 'created_at'
  | 'updated_at'
>;

export type ProspectDetails = {
  prospect: ProspectView;
  tags: ProspectTagView[];
  notes: NoteView[];
  changelog: ChangeLogEntryView[];
};

/**
 * `prospect show`: the record, its tags by name, its notes and its change log, newest first. The
 * workspace and the prospect's partition are read together; the configuration (tag names) only
 * for a prospect that has tags.
 */
export async function showProspect(
  deps: Deps,
  input: { workspaceId: string; prospectId: string },
): Promise<ProspectDetails> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const prospectId = checkedId('prospect', input.prospectId);
  const [, items] = await Promise.all([
    requireWorkspace(deps, workspaceId),
    readProspectCollection(deps, workspaceId, prospectId),
  ]);
  const record = items.find((item): item is ProspectItem => item.type === 'prospect');
  if (!record) throw unknownId('prospect', input.prospectId);
  const tags = record.tag_ids?.size ? (await loadWorkspaceConfig(deps, workspaceId)).tags : [];
  return {
    prospect: prospectView(record),
    tags: tagsView(record.tag_ids, tags),
    notes: items.filter((item): item is NoteItem => item.type === 'note').map(noteView),
    changelog: items.filter((item): item is ChangeLogItem => item.type === 'changelog').map(changeLogEntryView),
  };
}

/** A prospect named by id in the workspace (ids already through checkedId). */
export async function requireProspect(
  deps: Pick<Deps, 'db' | 'tableName'>,
  workspaceId: string,
  prospectId: string,
): Promise<ProspectItem> {
  const prospect = await getProspect(deps, workspaceId, prospectId);
  if (!prospect) throw unknownId('prospect', prospectId);
  return prospect;
}

export const prospectView = (record: Prospect): ProspectView => ({
  id: record.id,
  pipeline_id: record.pipeline_id,
  stage_id: record.stage_id,
  setter_id: record.setter_id,
  closer_id: record.closer_id,
  next_follow_up_at: record.next_follow_up_at,
  first_name: record.first_name,
  last_name: record.last_name,
  email: record.email,
  phone: record.phone,
  social_url: record.social_url,
  source: record.source,
  version: record.version,
  created_at: record.created_at,
  updated_at: record.updated_at,
});
