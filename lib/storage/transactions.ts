import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Store } from './client';

export type CancellationCode = string | undefined;

/** The per-item reasons DynamoDB gives for a cancelled transaction, in the order of its items. */
export function cancellationCodes(error: unknown): CancellationCode[] | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  return (error.CancellationReasons ?? []).map((reason) => reason.Code);
}

/** Another transaction held one of the items: worth trying again after a pause. */
export function isTransactionConflict(error: unknown): boolean {
  const codes = cancellationCodes(error);
  return codes !== undefined && codes.some((code) => code === 'TransactionConflict');
}

/**
 * The item a refused transaction item found, as DynamoDB returns it with the cancellation when
 * that item asked for `ReturnValuesOnConditionCheckFailure: ALL_OLD` (none: nothing was stored).
 */
export function refusedItem(error: unknown, index: number): Record<string, unknown> | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const item = error.CancellationReasons?.[index]?.Item;
  return item ? unmarshall(item) : undefined;
}

/** One of the transaction's conditions did not hold: a fact to act on, never retried blindly. */
export function failedConditionIndexes(error: unknown): number[] {
  const codes = cancellationCodes(error) ?? [];
  return codes.flatMap((code, index) => (code === 'ConditionalCheckFailed' ? [index] : []));
}

/**
 * A transaction item that creates `item` only if nothing is stored under its key: uniqueness and
 * "never overwrite" both rest on it. With `returnExisting`, a refusal sends back what is stored.
 */
export const putIfAbsent = (store: Store, item: object, options: { returnExisting?: boolean } = {}) => ({
  Put: {
    TableName: store.tableName,
    Item: item as Record<string, unknown>,
    ConditionExpression: 'attribute_not_exists(pk)',
    ...(options.returnExisting ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
  },
});
