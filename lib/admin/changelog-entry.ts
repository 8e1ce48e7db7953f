import type { ChangeLogItem } from '../storage/records';

/** The change-log entry as every admin command prints it (docs/api.md#change-log-entry). */
export type ChangeLogEntryView = Pick<
  ChangeLogItem,
  'id' | 'prospect_id' | 'key_id' | 'field' | 'before' | 'after' | 'at' | 'undone_at'
>;

export const changeLogEntryView = (item: ChangeLogItem): ChangeLogEntryView => ({
  id: item.id,
  prospect_id: item.prospect_id,
  key_id: item.key_id,
  field: item.field,
  before: item.before,
  after: item.after,
  at: item.at,
  undone_at: item.undone_at,
});
