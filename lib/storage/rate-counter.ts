import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { keys } from './keys';

export type Counts = { requests: number; stageChanges: number };

export type CountOutcome = { counted: boolean; counts: Counts };

/** The counter outlives its window by an hour; TTL only cleans up, the window is in the key. */
const retentionSeconds = 3600;

/**
 * Access pattern "rate-limit counter per key and window": one UpdateItem. With `limits`, the
 * request is counted only while under both, and a refused request counts nothing; without, it is
 * counted whatever the counts.
 */
export async function countRequest(
  store: Store,
  input: {
    keyId: string;
    window: { start: Date; end: Date };
    stageChange: boolean;
    limits: Counts | undefined;
  },
): Promise<CountOutcome> {
  const { limits } = input;
  const conditions = ['(attribute_not_exists(requests) OR requests < :requestLimit)'];
  if (input.stageChange) conditions.push('(attribute_not_exists(stage_changes) OR stage_changes < :stageLimit)');
  try {
    const { Attributes } = await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.rateCounter(input.keyId, input.window.start.toISOString()),
        UpdateExpression: input.stageChange
          ? 'ADD requests :one, stage_changes :one SET expires_at = :expiresAt'
          : 'ADD requests :one SET expires_at = :expiresAt',
        ...(limits ? { ConditionExpression: conditions.join(' AND ') } : {}),
        ExpressionAttributeValues: {
          ':one': 1,
          ':expiresAt': Math.floor(input.window.end.getTime() / 1000) + retentionSeconds,
          ...(limits ? { ':requestLimit': limits.requests } : {}),
          ...(limits && input.stageChange ? { ':stageLimit': limits.stageChanges } : {}),
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { counted: true, counts: countsOf(Attributes) };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return { counted: false, counts: countsOf(error.Item) };
    throw error;
  }
}

function countsOf(item: Record<string, unknown> | undefined): Counts {
  const number = (value: unknown): number =>
    typeof value === 'number' ? value : Number((value as { N?: string })?.N ?? 0);
  return { requests: number(item?.requests), stageChanges: number(item?.stage_changes) };
}
