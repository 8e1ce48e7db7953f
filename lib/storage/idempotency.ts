import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps';
import type { ItemKey } from './keys';

type Store = Pick<Deps, 'db' | 'tableName'>;

export type StoredAnswer = { statusCode: number; body: string; contentType: string };

export type Claim =
  { kind: 'claimed' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'other_body' } | { kind: 'in_flight' };

type IdempotencyItem = ItemKey & {
  body_hash: string;
  state: 'in_flight' | 'answered';
  started_at: number;
  expires_at: number;
  answer?: StoredAnswer;
};

/** Decisions 5: a record lives 24 hours; TTL only cleans up, the condition below reads expires_at itself. */
export const retentionSeconds = 24 * 3600;
/** A first call still "running" after this long died with its Lambda: a retry may take over. */
export const abandonedAfterSeconds = 60;

/**
 * Access pattern "idempotency record": one conditional PutItem claims the key; when the key is
 * taken, the record comes back with the refusal, which decides between replay, other body and
 * in-flight without another read.
 */
export async function claimIdempotencyKey(store: Store, key: ItemKey, bodyHash: string, now: Date): Promise<Claim> {
  const seconds = Math.floor(now.getTime() / 1000);
  const item: IdempotencyItem = {
    ...key,
    body_hash: bodyHash,
    state: 'in_flight',
    started_at: seconds,
    expires_at: seconds + retentionSeconds,
  };
  try {
    await store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: item,
        ConditionExpression:
          'attribute_not_exists(pk) OR expires_at < :now OR (#state = :inFlight AND started_at < :abandoned)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':now': seconds,
          ':inFlight': 'in_flight',
          ':abandoned': seconds - abandonedAfterSeconds,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { kind: 'claimed' };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException) || !error.Item) throw error;
    const existing = unmarshall(error.Item) as IdempotencyItem;
    if (existing.body_hash !== bodyHash) return { kind: 'other_body' };
    if (existing.state === 'answered' && existing.answer) return { kind: 'replay', answer: existing.answer };
    return { kind: 'in_flight' };
  }
}

export async function recordAnswer(store: Store, key: ItemKey, answer: StoredAnswer): Promise<void> {
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: key,
      UpdateExpression: 'SET #state = :answered, answer = :answer',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':answered': 'answered', ':answer': answer },
    }),
  );
}

/** A first call that failed (5xx) leaves nothing to replay: the key is freed for the retry. */
export async function releaseIdempotencyKey(store: Store, key: ItemKey): Promise<void> {
  await store.db.send(new DeleteCommand({ TableName: store.tableName, Key: key }));
}
