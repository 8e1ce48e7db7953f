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
 * each call as it leaves, in the order sent (one record per round trip, SDK retries aside: the
 * bench's round-trip count), with its input and, once answered, its output (as the document
 * client sees them, before marshalling). A refused write keeps no output: DynamoDB bills it still.
 */
export function meterCapacity(db: DynamoDBDocumentClient): CapacityMeter {
  const calls: MeteredRecord[] = [];
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = String(context.commandName).replace(/Command$/, '');
      const input = args.input as Record<string, unknown>;
      if (reportingOperations.has(operation)) input.ReturnConsumedCapacity = 'TOTAL';
      const record: MeteredRecord = { operation, input, output: undefined, reported: 0 };
      calls.push(record);
      const result = await next(args);
      record.output = result.output as Record<string, unknown>;
      record.reported = reportedUnits(record.output);
      return result;
    },
    { step: 'initialize', name: 'benchCapacityMeter' },
  );
  return { calls, reset: () => void calls.splice(0) };
}
