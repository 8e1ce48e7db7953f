import {
  type ApiKeyPrincipal,
  type ChangeLogEntry,
  StorageUnavailableError,
  type Actor,
  type ChangeLogField,
  type FieldValue,
} from '../model';
import type { Deps } from '../../storage/client';
import { readConfigAndProspect, type ConfigAndProspect } from '../../storage/prospects';
import { writeProspectChange, type ProspectChange } from '../../storage/prospect-writes';
import { readDecideWrite, type Decision } from '../../storage/conditional-writes';
import { messages } from '../../messages';

/*
 * A change of a prospect, logged (docs/api.md#change-log): one entry per field changed, with the values before and
 * after and who made it, written in the same transaction as the change, on the prospect's version read.
 */

/**
 * What a Prospect API change writes on the version it read: the prospect's new values or tags, one
 * log entry per field changed, and the answer the call gets once written.
 */
export type VersionedWrite<Answer> = Omit<ProspectChange, 'actor'> & {
  entries: readonly ChangeLogEntry[];
  expectedVersion: number;
  answer: Answer;
};

/**
 * The one read → decide → write of a Prospect API change of a prospect (PATCH, tags):
 * 1. Read the prospect and the workspace configuration in one eventually consistent BatchGetItem;
 *    a later round reads the prospect only, strongly consistently (`readConfigAndProspect`).
 * 2. `decide` on what was read, stamped with the key and the round's time and ids; an answer that
 *    writes nothing comes from a strongly consistent read (`readDecideWrite`).
 * 3. Write the change and its log entries in one transaction conditional on the version read
 *    (`writeProspectChange`): of concurrent calls exactly one changes the record, the others read
 *    again; one `ProspectChanges` count per field changed.
 */
export async function changeProspectOnVersion<Write, Answer>(
  deps: Deps,
  principal: ApiKeyPrincipal,
  prospectId: string,
  steps: {
    decide: (snapshot: ConfigAndProspect, stamp: ChangeStamp) => Decision<Write, Answer>;
    versionedWrite: (write: Write) => VersionedWrite<Answer>;
  },
): Promise<Answer> {
  const { workspaceId } = principal;
  return readDecideWrite<ConfigAndProspect, Write, Answer>({
    read: (previous) => readConfigAndProspect(deps, workspaceId, prospectId, previous?.snapshot.config),
    decide: (snapshot) =>
      steps.decide(snapshot, { keyId: principal.keyId, now: deps.clock().toISOString(), newId: deps.newId }),
    write: async (decided) => {
      const { entries, expectedVersion, answer, ...change } = steps.versionedWrite(decided);
      const outcome = await writeProspectChange(
        deps,
        { workspaceId, prospectId },
        { ...change, actor: apiKeyActor(principal), expectedVersion },
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

/** The actor stamped on what a Prospect API call writes: the key its change-log entries name too. */
export const apiKeyActor = (principal: ApiKeyPrincipal): Actor => ({ kind: 'api_key', id: principal.keyId });

/** What a change is stamped with: the API key that makes it, the time of its round, fresh ids. */
export type ChangeStamp = { keyId: string; now: string; newId: () => string };

/** One field's change: ids and timestamps, or a custom field's values as answered (`fields.<key>`). */
export type FieldChange = {
  field: ChangeLogField;
  before: FieldValue | null;
  after: FieldValue | null;
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
