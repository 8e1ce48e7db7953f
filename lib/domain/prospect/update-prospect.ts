import type { ApiKeyPrincipal } from '../../domain/principal';
import type { Deps } from '../../deps';
import { NotFoundError, StorageUnavailableError, UnknownReferenceError } from '../errors';
import { configAndProspectRounds } from '../../storage/prospects';
import type { ProspectItem } from '../../storage/records';
import { writeProspectChange } from '../../storage/prospect-writes';
import {
  defaultRetryPolicy,
  retryOnTransactionConflict,
  retryWhileChangedMeanwhile,
  type RetryPolicy,
} from '../../storage/retry';
import type { MemberItem } from '../../storage/workspace-config';
import { apiKeyActor, changeLogEntry, type FieldChange } from './changelog';
import type { PatchProspectInput } from './patch-input';
import { prospectPatchView, type ProspectPatchView } from './prospect-view';
import { roundOnConfirmedRead } from './prospect-rounds';
import { resolveStageMove } from './stage-move';
import { messages } from '../../messages';

export type PatchResult = ProspectPatchView & { changed: string[] };

/**
 * Update a prospect (docs/api.md#update-a-prospect). Input: the validated body. Output: the
 * prospect after the change and what changed.
 * 1. Read the prospect and the workspace configuration in one eventually consistent BatchGetItem
 *    (404 if no such prospect); a later round reads the prospect only, strongly consistently, and
 *    an answer that writes nothing comes from such a read (prospect-rounds.ts).
 * 2. Resolve the stage (409 protected, 422 unknown) and the members (422 unknown).
 * 3. Keep only the fields whose value really changes; nothing changes, nothing is written.
 * 4. Write the change and one log entry per field in one transaction conditional on the version.
 */
export async function updateProspect(
  deps: Deps,
  principal: ApiKeyPrincipal,
  prospectId: string,
  input: PatchProspectInput,
  retryPolicy: RetryPolicy = defaultRetryPolicy,
): Promise<PatchResult> {
  const { workspaceId } = principal;
  const read = configAndProspectRounds(deps, workspaceId, prospectId);
  const round = roundOnConfirmedRead(read, async ({ config, prospect }) => {
    if (!prospect) throw new NotFoundError(messages.prospect.notFound);
    const changes = fieldChanges(prospect, input, config.salesPipelines, config.members);
    if (changes.length === 0) return { answer: { ...prospectPatchView(prospect), changed: [] }, wrote: false };

    const now = deps.clock().toISOString();
    const version = prospect.version + 1;
    const entries = changes.map(({ change }) =>
      changeLogEntry({
        id: deps.newId(),
        workspaceId,
        prospectId,
        keyId: principal.keyId,
        at: now,
        prospectVersion: version,
        change,
      }),
    );
    const set = Object.assign({}, ...changes.map(({ set }) => set)) as Record<string, string | null>;
    const outcome = await retryOnTransactionConflict(
      () =>
        writeProspectChange(
          deps,
          { workspaceId, prospectId },
          { set, actor: apiKeyActor(principal), expectedVersion: prospect.version, now },
          entries.map((entry) => ({ kind: 'create-entry', entry }) as const),
        ),
      retryPolicy,
    );
    // Changed meanwhile, or a log entry's key already taken: the transaction wrote nothing, read again.
    if (outcome !== 'written') return 'changed-meanwhile';
    for (const { change } of changes) deps.metrics.count('ProspectChanges', { field: change.field });
    const updated = { ...prospect, ...set } as ProspectItem;
    return {
      answer: { ...prospectPatchView(updated), changed: changes.map(({ change }) => change.field) },
      wrote: true,
    };
  });
  const result = await retryWhileChangedMeanwhile(round);
  if (result) return result;
  throw new StorageUnavailableError(messages.failure.prospectContended);
}

type PendingChange = { change: FieldChange; set: Record<string, string | null> };

function fieldChanges(
  prospect: ProspectItem,
  input: PatchProspectInput,
  pipelines: Parameters<typeof resolveStageMove>[0],
  members: readonly MemberItem[],
): PendingChange[] {
  const changes: PendingChange[] = [];
  if (input.stage !== undefined) {
    const target = resolveStageMove(pipelines, prospect, input.stage);
    if (target.stage.id !== prospect.stage_id || target.pipelineId !== prospect.pipeline_id) {
      changes.push({
        change: {
          field: 'stage',
          before: prospect.stage_id,
          after: target.stage.id,
          pipelineBefore: prospect.pipeline_id,
          pipelineAfter: target.pipelineId,
        },
        set: { stage_id: target.stage.id, pipeline_id: target.pipelineId },
      });
    }
  }
  for (const [field, attribute, value] of [
    ['setter', 'setter_id', input.setter_id],
    ['closer', 'closer_id', input.closer_id],
  ] as const) {
    if (value === undefined) continue;
    const memberId = value === null ? null : memberIdOf(members, value, attribute);
    if (memberId !== prospect[attribute]) {
      changes.push({ change: { field, before: prospect[attribute], after: memberId }, set: { [attribute]: memberId } });
    }
  }
  if (input.follow_up_at !== undefined && input.follow_up_at !== prospect.next_follow_up_at) {
    changes.push({
      change: { field: 'follow_up', before: prospect.next_follow_up_at, after: input.follow_up_at },
      set: { next_follow_up_at: input.follow_up_at },
    });
  }
  return changes;
}

function memberIdOf(members: readonly MemberItem[], reference: string, field: string): string {
  const member = members.find((candidate) => candidate.id === reference.toLowerCase());
  if (!member) throw new UnknownReferenceError(messages.prospect.unknownMember(field));
  return member.id;
}
