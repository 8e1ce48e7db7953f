import { keys } from '../../storage/keys';
import type { ChangeLogField, ChangeLogItem } from '../../storage/records';

export type FieldChange = {
  field: ChangeLogField;
  before: string | null;
  after: string | null;
  pipelineBefore?: string | null;
  pipelineAfter?: string | null;
};

/** Decisions 3: one entry per changed field, with the key used and the values before and after. */
export function changeLogEntry(input: {
  id: string;
  workspaceId: string;
  prospectId: string;
  keyId: string;
  at: string;
  prospectVersion: number | null;
  change: FieldChange;
}): ChangeLogItem {
  const { change } = input;
  return {
    pk: keys.prospectPk(input.workspaceId, input.prospectId),
    sk: keys.changeLogSk(input.at, input.id),
    type: 'changelog',
    id: input.id,
    workspace_id: input.workspaceId,
    prospect_id: input.prospectId,
    key_id: input.keyId,
    field: change.field,
    before: change.before,
    after: change.after,
    ...(change.field === 'stage'
      ? { pipeline_before: change.pipelineBefore ?? null, pipeline_after: change.pipelineAfter ?? null }
      : {}),
    at: input.at,
    prospect_version: input.prospectVersion,
    undone_at: null,
    gsi1pk: keys.changeLogOfKey(input.keyId),
    gsi1sk: `${input.at}#${input.id}`,
    gsi2pk: keys.changeLogEntryRef(input.workspaceId, input.id),
    gsi2sk: 'LOG',
  };
}
