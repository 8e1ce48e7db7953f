import type { ApiKeyPrincipal, Actor, ChangeLogEntry, ChangeLogField } from '../model';
import type { Deps } from '../../deps';
import { StorageUnavailableError } from '../errors';
import { readConfigAndProspect, type ConfigAndProspect } from '../../storage/prospects';
import { writeProspectChange, type ProspectUpdate } from '../../storage/prospect-writes';
import { readDecideWrite, type Decision } from '../../storage/conditional-writes';
import { messages } from '../../messages';

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

/**
 * What a change of a prospect by an API key writes, conditional on the version read: its attributes and tags, its log
 * entries (one per field), and what the call answers once written.
 */
export type ProspectWrite<Answer> = Omit<ProspectUpdate, 'actor'> & { entries: ChangeLogEntry[]; answer: Answer };

/**
 * A change of one prospect by an API key, a PATCH or a tag call, in rounds of `readDecideWrite`:
 * 1. Read the prospect and the workspace configuration in one eventually consistent BatchGetItem;
 *    a later round reads the prospect only, strongly consistently (`readConfigAndProspect`).
 * 2. `decide`: refused, answered without a write (from a strongly consistent read), or the change.
 * 3. Write the change and its log entries in one transaction conditional on the version read, so that
 *    of concurrent identical calls exactly one changes the record and the others read again.
 */
export async function changeProspect<Answer>(
  deps: Deps,
  principal: ApiKeyPrincipal,
  prospectId: string,
  decide: (snapshot: ConfigAndProspect, stamp: ChangeStamp) => Decision<ProspectWrite<Answer>, Answer>,
): Promise<Answer> {
  const { workspaceId } = principal;
  return readDecideWrite<ConfigAndProspect, ProspectWrite<Answer>, Answer>({
    read: (previous) => readConfigAndProspect(deps, workspaceId, prospectId, previous?.snapshot.config),
    decide: (snapshot) =>
      decide(snapshot, { keyId: principal.keyId, now: deps.clock().toISOString(), newId: deps.newId }),
    write: async ({ entries, answer, ...update }) => {
      const outcome = await writeProspectChange(
        deps,
        { workspaceId, prospectId },
        { ...update, actor: apiKeyActor(principal) },
        entries.map((entry) => ({ kind: 'create-entry', entry }) as const),
      );
      // Changed meanwhile, or a log entry's key already taken: the transaction wrote nothing.
      if (outcome !== 'written') return { kind: 'lost-race' };
      for (const entry of entries) deps.metrics.count('ProspectChanges', { field: entry.field });
      return { kind: 'written', answer };
    },
    contended: () => new StorageUnavailableError(messages.failure.prospectContended),
  });
}
