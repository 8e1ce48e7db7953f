import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps';
import type { ItemKey } from './keys';

type Store = Pick<Deps, 'db' | 'tableName'>;

export type StoredAnswer = { statusCode: number; body: string; contentType: string };

/** What a retry replays: the first attempt's id seed and time, so it writes the very same items. */
export type Attempt = { seed: string; firstAt: string };

export type Claim =
  | { kind: 'claimed'; attempt: Attempt }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'other_body' }
  | { kind: 'in_flight' };

type IdempotencyItem = ItemKey & {
  body_hash: string;
  state: 'in_flight' | 'answered' | 'failed';
  started_at: number;
  expires_at: number;
  seed: string;
  first_at: string;
  answer?: StoredAnswer;
};

/** Decisions 5: a record lives 24 hours; TTL only cleans up, the condition below reads expires_at itself. */
export const retentionSeconds = 24 * 3600;
/** A first call still "running" after this long died with its Lambda: a retry may take over. */
export const abandonedAfterSeconds = 60;

const stateName = { '#state': 'state' };

/**
 * Access pattern "idempotency record". A conditional PutItem claims a new (or expired) key; when
 * the key is taken, the record comes back with the refusal and decides: replay the answer, refuse
 * another body, refuse while the first call runs, or take over a first call that failed or died,
 * keeping its seed and time so the retry repeats its writes instead of making new ones.
 */
export async function claimIdempotencyKey(
  store: Store,
  key: ItemKey,
  request: { bodyHash: string; now: Date; seed: string },
): Promise<Claim> {
  const seconds = Math.floor(request.now.getTime() / 1000);
  const item: IdempotencyItem = {
    ...key,
    body_hash: request.bodyHash,
    state: 'in_flight',
    started_at: seconds,
    expires_at: seconds + retentionSeconds,
    seed: request.seed,
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
    return { kind: 'claimed', attempt: { seed: item.seed, firstAt: item.first_at } };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException) || !error.Item) throw error;
    const existing = unmarshall(error.Item) as IdempotencyItem;
    if (existing.body_hash !== request.bodyHash) return { kind: 'other_body' };
    if (existing.state === 'answered' && existing.answer) return { kind: 'replay', answer: existing.answer };
    const abandoned = existing.state === 'in_flight' && existing.started_at < seconds - abandonedAfterSeconds;
    if (existing.state !== 'failed' && !abandoned) return { kind: 'in_flight' };
    return takeOver(store, key, existing, seconds);
  }
}

async function takeOver(store: Store, key: ItemKey, existing: IdempotencyItem, seconds: number): Promise<Claim> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: key,
        UpdateExpression: 'SET #state = :inFlight, started_at = :now',
        ConditionExpression: '#state = :seen AND started_at = :seenStartedAt',
        ExpressionAttributeNames: stateName,
        ExpressionAttributeValues: {
          ':inFlight': 'in_flight',
          ':now': seconds,
          ':seen': existing.state,
          ':seenStartedAt': existing.started_at,
        },
      }),
    );
    return { kind: 'claimed', attempt: { seed: existing.seed, firstAt: existing.first_at } };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return { kind: 'in_flight' };
    throw error;
  }
}

export async function recordAnswer(store: Store, key: ItemKey, answer: StoredAnswer): Promise<void> {
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: key,
      UpdateExpression: 'SET #state = :answered, answer = :answer',
      ExpressionAttributeNames: stateName,
      ExpressionAttributeValues: { ':answered': 'answered', ':answer': answer },
    }),
  );
}

/**
 * A first call that failed (5xx) leaves no answer to replay, but maybe a write it never heard back
 * about: the retry takes the key over and repeats the same writes, which conditions turn into no-ops.
 */
export async function markAttemptFailed(store: Store, key: ItemKey): Promise<void> {
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: key,
      UpdateExpression: 'SET #state = :failed',
      ExpressionAttributeNames: stateName,
      ExpressionAttributeValues: { ':failed': 'failed' },
    }),
  );
}
