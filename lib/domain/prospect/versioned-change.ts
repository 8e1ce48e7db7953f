import type { ApiKeyPrincipal, ChangeLogEntry } from '../model';
import type { Deps } from '../../deps';
import { StorageUnavailableError } from '../errors';
import { readConfigAndProspect, type ConfigAndProspect } from '../../storage/prospects';
import { writeProspectChange, type ProspectChange } from '../../storage/prospect-writes';
import { readDecideWrite, type Decision } from '../../storage/conditional-writes';
import { apiKeyActor, type ChangeStamp } from './changelog';
import { messages } from '../../messages';

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
