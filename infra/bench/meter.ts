import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { reportedUnits, type MeteredCall } from './capacity';

export type MeteredRecord = MeteredCall & { reported: number };
export type CapacityMeter = { calls: MeteredRecord[]; reset: () => void };

/** The operations that accept ReturnConsumedCapacity (DynamoDB API reference). */
const reportingOperations = new Set([
  'GetItem',
  'BatchGetItem',
  'Query',
  'Scan',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
  'ExecuteStatement',
  'BatchExecuteStatement',
  'ExecuteTransaction',
]);

/**
 * Asks DynamoDB for ReturnConsumedCapacity = TOTAL on every call that accepts it and records
 * each call with its input and output (as the document client sees them, before marshalling).
 * Refused writes are recorded too, with no output: DynamoDB bills them.
 */
export function meterCapacity(db: DynamoDBDocumentClient): CapacityMeter {
  const calls: MeteredRecord[] = [];
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = String(context.commandName).replace(/Command$/, '');
      const input = args.input as Record<string, unknown>;
      if (reportingOperations.has(operation)) input.ReturnConsumedCapacity = 'TOTAL';
      try {
        const result = await next(args);
        const output = result.output as Record<string, unknown>;
        calls.push({ operation, input, output, reported: reportedUnits(output) });
        return result;
      } catch (error) {
        calls.push({ operation, input, output: undefined, reported: 0 });
        throw error;
      }
    },
    { step: 'initialize', name: 'benchCapacityMeter' },
  );
  return { calls, reset: () => void calls.splice(0) };
}
