import type { Deps } from '../storage/client';
import { getProspect } from '../storage/prospects';
import { readProspectCollection } from '../storage/item-collections';
import { liveFields, type FieldDefinition, type Prospect } from '../domain/model';
import type { ChangeLogItem, NoteItem, ProspectItem } from '../storage/table-items';
import {
  changeLogEntryView,
  isListedChange,
  noteView,
  tagsView,
  type ChangeLogEntryView,
  type FieldsView,
  type NoteView,
  type ProspectTagView,
} from '../domain/prospect/read-views';
import { fieldsView } from '../domain/fields/field-values';
import { checkedId, unknownId, requireWorkspaceConfig } from './admin-input';

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
> & { fields: FieldsView };

export type ProspectDetails = {
  prospect: ProspectView;
  tags: ProspectTagView[];
  notes: NoteView[];
  changelog: ChangeLogEntryView[];
};

/**
 * `prospect show`: the record with its custom fields, its tags by name, its notes and its change log, newest first,
 * without the entries of a deleted custom field. The workspace's item (its configuration: tag names, custom fields)
 * and the prospect's partition are read together.
 */
export async function showProspect(
  deps: Deps,
  input: { workspaceId: string; prospectId: string },
): Promise<ProspectDetails> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const prospectId = checkedId('prospect', input.prospectId);
  const [config, items] = await Promise.all([
    requireWorkspaceConfig(deps, workspaceId),
    readProspectCollection(deps, workspaceId, prospectId),
  ]);
  const record = items.find((item): item is ProspectItem => item.type === 'prospect');
  if (!record) throw unknownId('prospect', input.prospectId);
  const definitions = liveFields(config);
  return {
    prospect: prospectView(record, definitions),
    tags: tagsView(record.tag_ids, config.tags),
    notes: items.filter((item): item is NoteItem => item.type === 'note').map(noteView),
    changelog: items
      .filter((item): item is ChangeLogItem => item.type === 'changelog' && isListedChange(item, definitions))
      .map(changeLogEntryView),
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

/** `definitions`: the workspace's live custom fields. */
export const prospectView = (record: Prospect, definitions: readonly FieldDefinition[]): ProspectView => ({
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
  fields: fieldsView(record.fields, definitions),
  version: record.version,
  created_at: record.created_at,
  updated_at: record.updated_at,
});
