import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tableDefinition } from '../../infra/cdk/table-definition';

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

/**
 * One Cognito call as the SDK sent it: its operation, its input, whether the request went out signed with the
 * function's AWS credentials (a SigV4 `Authorization` header) and how the pool answered (`ok`, or the error's name).
 */
export type RecordedCognitoCall = {
  operation: string;
  input: Record<string, unknown>;
  signed: boolean;
  answer: string;
};

/**
 * Records every call the Cognito client sends (one entry per call, SDK retries aside), as `recordCalls` does for
 * DynamoDB, with the request as signed (read after the SDK's signing step, which the `deserialize` step follows: a
 * SigV4 signature is an `Authorization` header starting `AWS4-HMAC-SHA256`, "Create a signed AWS API request",
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html) and the pool's answer.
 */
export function recordCognitoCalls(client: CognitoIdentityProviderClient): RecordedCognitoCall[] {
  const calls: RecordedCognitoCall[] = [];
  const callOf = new WeakMap<object, RecordedCognitoCall>();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const call: RecordedCognitoCall = {
        operation: String(context.commandName).replace(/Command$/, ''),
        input: structuredClone(args.input as Record<string, unknown>),
        signed: false,
        answer: 'ok',
      };
      calls.push(call);
      callOf.set(context, call);
      try {
        return await next(args);
      } catch (error) {
        call.answer = error instanceof Error ? error.name : String(error);
        throw error;
      }
    },
    { step: 'initialize', name: 'cognitoCallRecorder' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const call = callOf.get(context);
      const headers = (args.request as { headers?: Record<string, string> }).headers ?? {};
      if (call) call.signed = (headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 ');
      return next(args);
    },
    { step: 'deserialize', name: 'cognitoSignatureRecorder' },
  );
  return calls;
}

/**
 * The user-pool operations Cognito authorizes without IAM, of the three authorization models of "Authorization models
 * for API and SDK authentication" (https://docs.aws.amazon.com/cognito/latest/developerguide/user-pools-API-operations.html):
 * public ones, which the app client's id and secret hash authorize (InitiateAuth, RespondToAuthChallenge with the
 * session it returned, ForgotPassword, ConfirmForgotPassword, RevokeToken), and token-authorized ones, which the
 * user's access token authorizes (ChangePassword, GlobalSignOut). Each one's page of the API reference says "Amazon
 * Cognito doesn't evaluate AWS Identity and Access Management (IAM) policies in requests for this API operation"
 * (e.g. https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html); the
 * others say it does, with IAM credentials required (e.g. API_AdminGetUser.html, API_DescribeUserPoolClient.html).
 * Any operation not listed here is taken as IAM-authorized.
 */
export const cognitoOperationsWithoutIam: ReadonlySet<string> = new Set([
  'InitiateAuth',
  'RespondToAuthChallenge',
  'ForgotPassword',
  'ConfirmForgotPassword',
  'RevokeToken',
  'ChangePassword',
  'GlobalSignOut',
]);

/**
 * What IAM evaluates for a Cognito call: its action (`cognito-idp:` and the operation, one action per operation in
 * "Actions, resources, and condition keys for Amazon Cognito User Pools") on the user pool it names; none for an
 * operation IAM does not authorize.
 */
export function cognitoIamRequestOf(call: RecordedCognitoCall, userPoolId: string): IamRequest | undefined {
  if (cognitoOperationsWithoutIam.has(call.operation)) return undefined;
  const pool = call.input.UserPoolId;
  if (typeof pool !== 'string')
    throw new Error(`${call.operation} names no user pool: model it in cognitoIamRequestOf`);
  return {
    action: `cognito-idp:${call.operation}`,
    target: pool === userPoolId ? 'user-pool' : 'other-user-pool',
    leadingKeys: [],
  };
}

/**
 * The calls cognito-local alone receives: the invitation sent again to a person invited who never signed in is
 * AdminCreateUser with `MessageAction: RESEND`, which cognito-local lacks (it answers `Unsupported`); the adapter then
 * sets the temporary password with AdminSetUserPassword (`Permanent: false`) instead (lib/identity/cognito.ts).
 * Exactly that call: an AdminSetUserPassword, not permanent, right after a RESEND to the same user name that was
 * answered `Unsupported`. On AWS the RESEND is answered, so the deployed function never makes it.
 */
export function localStandInsForResend(calls: readonly RecordedCognitoCall[]): Set<RecordedCognitoCall> {
  const standIns = new Set<RecordedCognitoCall>();
  calls.forEach((call, index) => {
    const before = calls[index - 1];
    if (
      call.operation === 'AdminSetUserPassword' &&
      call.input.Permanent === false &&
      before?.operation === 'AdminCreateUser' &&
      before.input.MessageAction === 'RESEND' &&
      before.answer === 'Unsupported' &&
      before.input.Username === call.input.Username &&
      before.input.TemporaryPassword === call.input.Password
    ) {
      standIns.add(call);
    }
  });
  return standIns;
}
