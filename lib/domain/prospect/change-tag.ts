import type { ApiKeyPrincipal } from '../../domain/principal';
import type { Deps } from '../../deps';
import { NotFoundError, StorageUnavailableError, UnknownReferenceError } from '../errors';
import { configAndProspectRounds } from '../../storage/prospects';
import { writeProspectChange } from '../../storage/prospect-writes';
import {
  defaultRetryPolicy,
  retryOnTransactionConflict,
  retryWhileChangedMeanwhile,
  type RetryPolicy,
} from '../../storage/retry';
import { findByIdOrName } from '../names';
import { apiKeyActor, changeLogEntry } from './changelog';
import { roundOnConfirmedRead, type RoundDecision } from './prospect-rounds';
import { messages } from '../../messages';

export type TagOutcome = {
  outcome: 'added' | 'already_present' | 'removed' | 'absent';
  tag: { id: string; name: string };
};

/**
 * Add or remove a tag (docs/api.md#add-a-tag, docs/api.md#remove-a-tag). Input: the tag's id or
 * exact name. Output: what happened.
 * 1. Read the prospect and the workspace's tags in one eventually consistent BatchGetItem (404,
 *    then 422 for an unknown tag); a later round reads the prospect only, strongly consistently.
 * 2. Tag already present (add) or absent (remove): nothing to write, answered from a strongly
 *    consistent read (prospect-rounds.ts).
 * 3. Otherwise the change and its log entry, in one transaction conditional on the version read,
 *    so that of concurrent identical calls exactly one changes the record and the others read again.
 */
export async function changeTag(
  deps: Deps,
  principal: ApiKeyPrincipal,
  prospectId: string,
  request: { action: 'add' | 'remove'; tag: string },
  retryPolicy: RetryPolicy = defaultRetryPolicy,
): Promise<TagOutcome> {
  const { workspaceId } = principal;
  const read = configAndProspectRounds(deps, workspaceId, prospectId);
  const round = roundOnConfirmedRead(read, async ({ config, prospect }): Promise<RoundDecision<TagOutcome>> => {
    if (!prospect) throw new NotFoundError(messages.prospect.notFound);
    const tag = findByIdOrName(config.tags, request.tag);
    if (!tag) throw new UnknownReferenceError(messages.prospect.unknownTag(request.tag));
    const view = { id: tag.id, name: tag.name };
    const present = prospect.tag_ids?.has(tag.id) ?? false;
    const adding = request.action === 'add';
    if (adding === present)
      return { answer: { outcome: adding ? 'already_present' : 'absent', tag: view }, wrote: false };

    const now = deps.clock().toISOString();
    const entry = changeLogEntry({
      id: deps.newId(),
      workspaceId,
      prospectId,
      keyId: principal.keyId,
      at: now,
      prospectVersion: prospect.version + 1,
      change: { field: 'tags', before: adding ? null : tag.id, after: adding ? tag.id : null },
    });
    const outcome = await retryOnTransactionConflict(
      () =>
        writeProspectChange(
          deps,
          { workspaceId, prospectId },
          {
            set: {},
            ...(adding ? { addTags: [tag.id] } : { removeTags: [tag.id] }),
            actor: apiKeyActor(principal),
            expectedVersion: prospect.version,
            now,
          },
          [{ kind: 'create-entry', entry }],
        ),
      retryPolicy,
    );
    if (outcome !== 'written') return 'changed-meanwhile';
    deps.metrics.count('ProspectChanges', { field: 'tags' });
    return { answer: { outcome: adding ? 'added' : 'removed', tag: view }, wrote: true };
  });
  const result = await retryWhileChangedMeanwhile(round);
  if (result) return result;
  throw new StorageUnavailableError(messages.failure.prospectContended);
}
