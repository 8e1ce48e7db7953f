import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tableDefinition } from '../../lib/storage/table';

/** One DynamoDB call as the SDK sent it: its operation and its input. */
export type RecordedCall = { operation: string; input: Record<string, unknown> };

/**
 * Records every DynamoDB call the client sends (one entry per call, SDK retries aside), with its
 * input, so each can be checked against the IAM policy of the function that made it.
 */
export function recordCalls(db: DynamoDBDocumentClient): RecordedCall[] {
  const calls: RecordedCall[] = [];
  db.middlewareStack.add(
    (next, context) => async (args) => {
      calls.push({
        operation: String(context.commandName).replace(/Command$/, ''),
        input: structuredClone(args.input as Record<string, unknown>),
      });
      return next(args);
    },
    { step: 'initialize', name: 'iamCallRecorder' },
  );
  return calls;
}

/**
 * What IAM evaluates for a call: an action on the main table or one of its indexes, or on the
 * signing-secrets table, with the partition keys it names there.
 */
export type IamRequest = {
  action: string;
  /**
   * `table`, or `index/<name>` (appended to the main table's ARN); `secrets-table` for the
   * signing-secrets table (followed by `/stream/…` for what would be its stream); `user-pool` for the
   * members' user pool, `other-user-pool` for any other (test/support/iam-policies.ts).
   */
  target: string;
  leadingKeys: string[];
  /**
   * The `ReturnValues` a single write asked for, when it named one: IAM's `dynamodb:ReturnValues`. The items of a
   * transaction take none ("TransactWriteItem", DynamoDB API Reference).
   */
  returnValues?: string;
};

/** The target of a call naming `tableName`: the signing-secrets table is told apart by its name. */
const tableTarget = (tableName: unknown, secretsTableName: string): string =>
  tableName === secretsTableName ? 'secrets-table' : 'table';

type Json = Record<string, unknown>;

/** A key attribute as the document client or the low-level client writes it. */
function stringOf(value: unknown): string {
  if (typeof value === 'string') return value;
  const marshalled = (value as { S?: unknown } | undefined)?.S;
  if (typeof marshalled === 'string') return marshalled;
  throw new Error(`not a string key attribute: ${JSON.stringify(value)}`);
}

const pkOf = (item: unknown): string => stringOf((item as Json)[tableDefinition.partitionKey]);

/** The partition key value a Query names: `<partition key> = :value` in its key condition. */
function queriedPartition(input: Json, secretsTableName: string): { target: string; pk: string } {
  const index = tableDefinition.globalSecondaryIndexes.find((candidate) => candidate.indexName === input.IndexName);
  if (input.IndexName !== undefined && index === undefined) throw new Error(`unknown index ${String(input.IndexName)}`);
  const partitionKey = index?.partitionKey ?? tableDefinition.partitionKey;
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  for (const [, name, placeholder] of String(input.KeyConditionExpression).matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    if ((names[name!] ?? name) === partitionKey) {
      const target = index ? `index/${index.indexName}` : tableTarget(input.TableName, secretsTableName);
      return { target, pk: stringOf(values[placeholder!]) };
    }
  }
  throw new Error(`no partition key in ${String(input.KeyConditionExpression)}`);
}

const transactionActions: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

/**
 * The IAM requests of one call. IAM has no TransactWriteItems action: each item of a
 * transaction is evaluated as its own PutItem, UpdateItem, DeleteItem or ConditionCheckItem
 * ("Using IAM with DynamoDB transactions"), so a transaction gives one request per item, on its
 * own table. A BatchGetItem is evaluated on each table it names, the `table` resource of the
 * action ("Actions, resources, and condition keys for Amazon DynamoDB"): one request per table,
 * with that table's partition keys.
 */
export function iamRequestsOf(call: RecordedCall, secretsTableName: string): IamRequest[] {
  const { operation, input } = call;
  const one = (action: string, leadingKeys: string[], target: string): IamRequest => ({
    action: `dynamodb:${action}`,
    target,
    leadingKeys,
  });
  const returning = (request: IamRequest): IamRequest =>
    typeof input.ReturnValues === 'string' ? { ...request, returnValues: input.ReturnValues } : request;
  const on = (tableName: unknown) => tableTarget(tableName, secretsTableName);
  switch (operation) {
    case 'GetItem':
      return [one(operation, [pkOf(input.Key)], on(input.TableName))];
    case 'UpdateItem':
    case 'DeleteItem':
      return [returning(one(operation, [pkOf(input.Key)], on(input.TableName)))];
    case 'PutItem':
      return [returning(one(operation, [pkOf(input.Item)], on(input.TableName)))];
    case 'Query': {
      const { target, pk } = queriedPartition(input, secretsTableName);
      return [one(operation, [pk], target)];
    }
    case 'BatchGetItem':
      return Object.entries(input.RequestItems as Record<string, { Keys: unknown[] }>).map(([tableName, table]) =>
        one(operation, [...new Set(table.Keys.map(pkOf))], on(tableName)),
      );
    case 'TransactWriteItems':
      return (input.TransactItems as Json[]).map((item) => {
        const [kind, write] = Object.entries(item)[0]!;
        const action = transactionActions[kind];
        if (!action) throw new Error(`unknown transaction item ${kind}`);
        const body = write as Json;
        return one(action, [pkOf(kind === 'Put' ? body.Item : body.Key)], on(body.TableName));
      });
    default:
      throw new Error(`${operation} is not modelled for IAM here: add it to iamRequestsOf`);
  }
}
