import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

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

/** One of the transaction's conditions did not hold: a fact to act on, never retried blindly. */
export function failedConditionIndexes(error: unknown): number[] {
  const codes = cancellationCodes(error) ?? [];
  return codes.flatMap((code, index) => (code === 'ConditionalCheckFailed' ? [index] : []));
}
