import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { putIfAbsent, transactWrite } from './conditional-writes';
import { journalEntryPut } from './webhook-calls';
import { candidateIndexKeys, keys, items } from './table-items';
import type { Candidate, Note, Stamped, WebhookCall } from '../domain/model';

/**
 * A new candidate, its marker (one per e-mail and recruitment pipeline, created only if absent)
 * and its first note (`application: 'first'`), in one transaction. When the marker exists, DynamoDB returns it with the
 * cancellation (ReturnValuesOnConditionCheckFailure), so the known candidate is found without
 * another read.
 */
export async function createCandidate(
  store: Store,
  candidate: Stamped<Candidate>,
  note: Stamped<Note> | undefined,
  journal: WebhookCall,
): Promise<{ created: true } | { created: false; existingId: string }> {
  const marker = items.marker(
    keys.candidateMarker(candidate.workspace_id, candidate.pipeline_id, candidate.email),
    candidate.workspace_id,
    candidate.id,
  );
  try {
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: [
          putIfAbsent(store, marker, { returnExisting: true }),
          putIfAbsent(store, items.candidate(candidate)),
          ...(note ? [putIfAbsent(store, items.note('candidate', { ...note, application: 'first' }))] : []),
          journalEntryPut(store, journal),
        ],
      }),
    );
    return { created: true };
  } catch (error) {
    const existingId = existingOwner(error);
    if (existingId !== undefined) return { created: false, existingId };
    throw error;
  }
}

function existingOwner(error: unknown): string | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const reason = error.CancellationReasons?.[0];
  if (reason?.Code !== 'ConditionalCheckFailed') return undefined;
  const owner = reason.Item?.record_id as { S?: string } | string | undefined;
  return typeof owner === 'string' ? owner : owner?.S;
}

/**
 * A note on a known candidate that applied again (`application: 'again'`: the change stream tells
 * a new application by it), with the call's journal entry, in one transaction; notes are never
 * replaced, so the put is conditional on absence. A note already there with this very key was
 * written by this request's first attempt (same ids under an Idempotency-Key): nothing is written
 * again, and the caller journals the call by itself. The candidate's last application moves with it
 * (docs/data-model.md, "Candidate"): `updated_at`, its key in `indexes.recordsByLastChange` (which the
 * retention reads) and its `version` (an erasure decided on the candidate as read before then refuses, and decides
 * again), on the condition that it is still there: erased meanwhile, `candidate_gone`, nothing written (its marker
 * went with it: the application is then a new candidate's).
 */
export async function addCandidateNote(
  store: Store,
  application: { note: Stamped<Note>; pipelineId: string },
  journal: WebhookCall,
): Promise<'written' | 'already_there' | 'candidate_gone'> {
  const { note, pipelineId } = application;
  const candidate = { workspace_id: note.workspace_id, pipeline_id: pipelineId, id: note.record_id };
  const indexKeys = candidateIndexKeys({ ...candidate, updated_at: note.created_at });
  const outcome = await transactWrite(store, [
    putIfAbsent(store, items.note('candidate', { ...note, application: 'again' })),
    journalEntryPut(store, journal),
    {
      Update: {
        TableName: store.tableName,
        Key: keys.candidate(note.workspace_id, note.record_id),
        UpdateExpression: 'SET updated_at = :at, version = version + :one, gsi5pk = :indexPk, gsi5sk = :indexSk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':at': note.created_at,
          ':one': 1,
          ':indexPk': indexKeys.gsi5pk,
          ':indexSk': indexKeys.gsi5sk,
        },
      },
    },
  ]);
  if (outcome.written) return 'written';
  if (outcome.failed.includes(0)) return 'already_there';
  if (outcome.failed.includes(2)) return 'candidate_gone';
  throw outcome.cancellation;
}
