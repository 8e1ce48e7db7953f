import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { keys, type ItemKey } from './table-items';
import type { WebhookCall } from '../domain/model';

/**
 * An answer kept for replay. `journal`: a webhook call's, what its journal entry says of the
 * answer, kept as a value so that a replay is journaled and counted without reading the body
 * back; absent on every other route's answer and on a webhook answer recorded before it was kept.
 */
export type StoredAnswer = {
  statusCode: number;
  body: string;
  contentType: string;
  journal?: Pick<
    WebhookCall,
    'outcome' | 'record_id' | 'placement' | 'warnings' | 'pipeline_id' | 'stage_id' | 'message'
  >;
};

/** What a retry replays: the first attempt's id seed and time, so it writes the very same items. */
export type Attempt = { seed: string; firstAt: string };

export type Claim =
  | { kind: 'claimed'; attempt: Attempt }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'other_request' }
  | { kind: 'in_flight' };

/**
 * `claimant` is the request holding the key now (a value of its own, fresh per request); `seed`
 * and `first_at` stay those of the first attempt across take-overs.
 */
type IdempotencyItem = ItemKey & {
  request_hash: string;
  state: 'in_flight' | 'answered' | 'released';
  started_at: number;
  expires_at: number;
  claimant: string;
  seed: string;
  first_at: string;
  answer?: StoredAnswer;
};

/**
 * A record lives 24 hours (docs/api.md#idempotency-keys); TTL only cleans up, the condition below
 * reads expires_at itself.
 */
export const retentionSeconds = 24 * 3600;

const stateName = { '#state': 'state' };

export type ClaimRequest = {
  requestHash: string;
  now: Date;
  /** Fresh per request: the seed of a first attempt, and who holds the key. */
  claimant: string;
  /** A claim still "in flight" this long after it started belongs to a call that is over. */
  abandonedAfterSeconds: number;
};

/**
 * Access pattern "idempotency record". A conditional PutItem claims a new (or expired) key; when
 * the key is taken, the record comes back with the refusal and decides: ours already (the SDK
 * retried a put whose answer was lost), replay the answer, refuse another request, refuse while
 * the first call runs, or take over a released or abandoned one with its seed and time, so the
 * retry repeats its writes instead of making new ones.
 */
export async function claimIdempotencyKey(store: Store, key: ItemKey, request: ClaimRequest): Promise<Claim> {
  const seconds = Math.floor(request.now.getTime() / 1000);
  const item: IdempotencyItem = {
    ...key,
    request_hash: request.requestHash,
    state: 'in_flight',
    started_at: seconds,
    expires_at: seconds + retentionSeconds,
    claimant: request.claimant,
    seed: request.claimant,
    first_at: request.now.toISOString(),
  };
  try {
    await store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: item,
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
        ExpressionAttributeValues: { ':now': seconds },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return claimed(item);
  } catch (error) {
    const existing = refusedItem(error);
    if (existing.claimant === request.claimant && existing.state === 'in_flight') return claimed(existing);
    if (existing.request_hash !== request.requestHash) return { kind: 'other_request' };
    if (existing.state === 'answered' && existing.answer) return { kind: 'replay', answer: existing.answer };
    const abandoned = existing.state === 'in_flight' && existing.started_at < seconds - request.abandonedAfterSeconds;
    if (existing.state !== 'released' && !abandoned) return { kind: 'in_flight' };
    return takeOver(store, key, existing, request.claimant, seconds);
  }
}

const claimed = (item: IdempotencyItem): Claim => ({
  kind: 'claimed',
  attempt: { seed: item.seed, firstAt: item.first_at },
});

/** The record a condition refused, as ReturnValuesOnConditionCheckFailure sent it back; anything else is rethrown. */
function refusedItem(error: unknown): IdempotencyItem {
  if (!(error instanceof ConditionalCheckFailedException) || !error.Item) throw error;
  return unmarshall(error.Item) as IdempotencyItem;
}

async function takeOver(
  store: Store,
  key: ItemKey,
  existing: IdempotencyItem,
  claimant: string,
  seconds: number,
): Promise<Claim> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: key,
        UpdateExpression: 'SET #state = :inFlight, started_at = :now, claimant = :claimant',
        ConditionExpression: '#state = :seen AND started_at = :seenStartedAt AND claimant = :seenClaimant',
        ExpressionAttributeNames: stateName,
        ExpressionAttributeValues: {
          ':inFlight': 'in_flight',
          ':now': seconds,
          ':claimant': claimant,
          ':seen': existing.state,
          ':seenStartedAt': existing.started_at,
          ':seenClaimant': existing.claimant,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return claimed(existing);
  } catch (error) {
    const current = refusedItem(error);
    // The SDK retried a take-over that had landed: the key is this request's.
    return current.claimant === claimant && current.state === 'in_flight' ? claimed(current) : { kind: 'in_flight' };
  }
}

/** The prospect or candidate an answer names. */
export type AnswerAbout = { workspaceId: string; kind: 'prospect' | 'candidate'; recordId: string };

/**
 * Keeps the answer for replay; a no-op for a request that no longer holds the key. An answer that names a record
 * (`about`) enters that record's partition of index gsi4, where its erasure finds it
 * (docs/adr/0019-erasure-in-the-background.md).
 */
export async function recordAnswer(
  store: Store,
  key: ItemKey,
  claimant: string,
  answer: StoredAnswer,
  about?: AnswerAbout,
): Promise<void> {
  const index = about ? ', gsi4pk = :about, gsi4sk = :sk' : '';
  await holderUpdate(store, key, claimant, `SET #state = :answered, answer = :answer${index}`, {
    ':answered': 'answered',
    ':answer': answer,
    ...(about ? { ':about': keys.answersAbout(about.workspaceId, about.kind, about.recordId), ':sk': key.pk } : {}),
  });
}

/**
 * Gives the key back after a request that has no answer to keep (a 5xx, an error, an answer too
 * large to store): a retry takes it over at once and repeats the same writes, which conditions
 * turn into no-ops. A no-op for a request that no longer holds the key.
 */
export async function releaseIdempotencyKey(store: Store, key: ItemKey, claimant: string): Promise<void> {
  await holderUpdate(store, key, claimant, 'SET #state = :released', { ':released': 'released' });
}

async function holderUpdate(
  store: Store,
  key: ItemKey,
  claimant: string,
  updateExpression: string,
  values: Record<string, unknown>,
): Promise<void> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: key,
        UpdateExpression: updateExpression,
        ConditionExpression: 'claimant = :claimant AND #state = :inFlight',
        ExpressionAttributeNames: stateName,
        ExpressionAttributeValues: { ...values, ':claimant': claimant, ':inFlight': 'in_flight' },
      }),
    );
  } catch (error) {
    // Refused: another request took the key over, or an SDK retry finds its own write done.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
