import type { ApiKeyPrincipal, Actor, ChangeLogEntry, ChangeLogField } from '../model';

/** The actor stamped on what a Prospect API call writes: the key its change-log entries name too. */
export const apiKeyActor = (principal: ApiKeyPrincipal): Actor => ({ kind: 'api_key', id: principal.keyId });

/** What a change is stamped with: the API key that makes it, the time of its round, fresh ids. */
export type ChangeStamp = { keyId: string; now: string; newId: () => string };

export type FieldChange = {
  field: ChangeLogField;
  before: string | null;
  after: string | null;
  pipelineBefore?: string | null;
  pipelineAfter?: string | null;
};

/** One entry per changed field, with the key used and the values before and after (docs/api.md#change-log). */
export function changeLogEntry(input: {
  id: string;
  workspaceId: string;
  prospectId: string;
  keyId: string;
  at: string;
  prospectVersion: number | null;
  change: FieldChange;
}): ChangeLogEntry {
  const { change } = input;
  return {
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
  };
}
