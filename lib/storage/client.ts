import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { DynamoDBClient, type ServiceInputTypes, type ServiceOutputTypes } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createMetrics, type PublishedMetrics } from '../observability';
/** Types only (erased): the SDK's own middleware types, a dependency of @aws-sdk/client-dynamodb. */
import type { FinalizeRequestMiddleware } from '@smithy/types';
import * as z from 'zod/mini';
import type { ItemKey } from './table-items';

/*
 * How storage reaches DynamoDB: the one client of a cold start, its timeouts and the request's
 * deadline, the table's configuration, and the one BatchGetItem with its retry of unprocessed keys;
 * then what every use case is given (`Deps`): that client with the cold start's clock, ids and metrics.
 */

/** The SDK's wall-clock limits of one DynamoDB call. */
export type DynamoTiming = {
  /** Time to open the TCP+TLS connection of one attempt. */
  connectionTimeoutMs: number;
  /** Wall-clock time of one attempt, from its start (connection included) to the full answer. */
  requestTimeoutMs: number;
  /** Attempts of one call, the first included (SDK standard retry mode). */
  maxAttempts: number;
};

/**
 * On AWS. DynamoDB answers in milliseconds (a transaction in tens), so 2 s for one attempt is
 * generous; 3 attempts ride out a dropped connection or a brief throttling. The arithmetic against
 * the Lambda timeout is in docs/deploy.md, "Timeouts and tracing", and test/unit/dynamo-timing.test.ts.
 */
export const awsDynamoTiming: DynamoTiming = { connectionTimeoutMs: 1000, requestTimeoutMs: 2000, maxAttempts: 3 };

/**
 * DynamoDB Local, one JVM on a laptop or a 2-core CI machine, can take seconds to accept a burst
 * of connections: it gets more patience.
 */
export const localDynamoTiming: DynamoTiming = { connectionTimeoutMs: 5000, requestTimeoutMs: 15000, maxAttempts: 3 };

/**
 * Total DynamoDB time of one request, all its calls, attempts and backoffs together, when it runs
 * inside `withDynamoDeadline`: past it, the call in progress fails with DynamoDeadlineExceeded
 * (the route's clean 5xx) and no further attempt starts. 10 s Lambda timeout − 8 s leaves 2 s: 1 s
 * for the grace below, 1 s for the handler's own work and its error answer.
 */
export const dynamoRequestBudgetMs = 8000;

/**
 * What a request that has spent its budget still gets for its last write, the one that settles its
 * Idempotency-Key (the answer kept, or the key given back): without it the key would stay "in
 * flight" and refuse every retry until its claim is abandoned, for a call that is over.
 */
export const dynamoGraceMs = 1000;

/** Thrown once a request's DynamoDB deadline has passed; not retryable for the SDK. */
export class DynamoDeadlineExceeded extends Error {
  override readonly name = 'DynamoDeadlineExceeded';
  constructor(budgetMs: number) {
    super(`DynamoDB time budget of the request (${budgetMs} ms) exhausted`);
  }
}

type Deadline = { at: number; budgetMs: number };
const deadlines = new AsyncLocalStorage<Deadline>();

/**
 * Runs `work` with a deadline on every DynamoDB call it makes, through any client of this module:
 * together they take at most `budgetMs`. Meant to wrap a whole request (route handler, authorizer).
 */
export function withDynamoDeadline<T>(work: () => Promise<T>, budgetMs: number = dynamoRequestBudgetMs): Promise<T> {
  return deadlines.run({ at: Date.now() + budgetMs, budgetMs }, work);
}

/**
 * Runs `work` under the request's deadline moved, if need be, to `graceMs` from now (never
 * earlier): for the one write that must still happen once the request's own time is spent.
 * Outside `withDynamoDeadline`, `work` runs as it is.
 */
export function withDynamoGrace<T>(work: () => Promise<T>, graceMs: number = dynamoGraceMs): Promise<T> {
  const deadline = deadlines.getStore();
  if (!deadline) return work();
  const at = Math.max(deadline.at, Date.now() + graceMs);
  return deadlines.run({ at, budgetMs: deadline.budgetMs + (at - deadline.at) }, work);
}

/** `pending`, or DynamoDeadlineExceeded when the deadline comes first. */
function beforeDeadline<T>(pending: Promise<T>, deadline: Deadline): Promise<T> {
  const remaining = deadline.at - Date.now();
  if (remaining <= 0) {
    pending.catch(() => undefined);
    return Promise.reject(new DynamoDeadlineExceeded(deadline.budgetMs));
  }
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DynamoDeadlineExceeded(deadline.budgetMs)), remaining);
  });
  return Promise.race([pending, expired]).finally(() => clearTimeout(timer));
}

/**
 * Two middlewares enforce the deadline: around the whole call (the caller gets its answer by the
 * deadline, retry backoffs included), and around each attempt, inside the SDK's retry loop (no
 * attempt starts after the deadline, so nothing is sent on behalf of a request already answered).
 */
function enforceDeadlines(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next) => (args) => {
      const deadline = deadlines.getStore();
      return deadline ? beforeDeadline(next(args), deadline) : next(args);
    },
    { step: 'initialize', priority: 'high', name: 'crmDynamoDeadlineOfCall' },
  );
  const eachAttempt: FinalizeRequestMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next) => (args) => {
    const deadline = deadlines.getStore();
    if (!deadline) return next(args);
    if (Date.now() >= deadline.at) return Promise.reject(new DynamoDeadlineExceeded(deadline.budgetMs));
    return beforeDeadline(next(args), deadline);
  };
  client.middlewareStack.addRelativeTo(eachAttempt, {
    relation: 'after',
    toMiddleware: 'retryMiddleware',
    name: 'crmDynamoDeadlineOfAttempt',
  });
}

export type DbClientOptions = {
  endpoint?: string | undefined;
  region?: string | undefined;
  /** Default: awsDynamoTiming on AWS, localDynamoTiming with an explicit endpoint. */
  timing?: DynamoTiming | undefined;
};

/**
 * One client per cold start. Timeouts are explicit and wall-clock (`throwOnRequestTimeout`: without
 * it the SDK only logs a warning when `requestTimeout` passes and keeps waiting), so a stalled call
 * fails inside the Lambda timeout instead of hanging it.
 * With an explicit endpoint (DynamoDB Local) the code supplies dummy credentials and a region
 * itself: a fresh machine has none, and DynamoDB Local accepts only letters and digits as key id.
 */
export function createDynamoClient(options: DbClientOptions = {}): DynamoDBClient {
  const local = options.endpoint !== undefined;
  const timing = options.timing ?? (local ? localDynamoTiming : awsDynamoTiming);
  const client = new DynamoDBClient({
    ...(local
      ? {
          endpoint: options.endpoint,
          region: options.region ?? 'eu-west-3',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : { region: options.region }),
    maxAttempts: timing.maxAttempts,
    requestHandler: {
      connectionTimeout: timing.connectionTimeoutMs,
      requestTimeout: timing.requestTimeoutMs,
      throwOnRequestTimeout: true,
    },
  });
  enforceDeadlines(client);
  return client;
}

export function createDocumentClient(options: DbClientOptions = {}): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(createDynamoClient(options), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** How a storage call that DynamoDB may refuse for a while is tried again: how often, and the pauses between. */
export type RetryPolicy = { attempts: number; baseDelayMs: number; sleep: (ms: number) => Promise<void> };

/** What every storage function needs: the one document client of the cold start and the table. */
export type Store = { db: DynamoDBDocumentClient; tableName: string };

/**
 * What reads or writes signing secrets needs besides: the signing-secrets table, a table of its own
 * without a change stream (docs/adr/0012-signing-secrets-table.md). Only the delivery function and
 * the admin command line are given it.
 */
export type SecretsStore = Store & { secretsTableName: string };

/** The signing-secrets table, as the storage functions address one table. */
export const secretsTableOf = (store: SecretsStore): Store => ({ db: store.db, tableName: store.secretsTableName });

/** The store's configuration, from the environment. */
export type Config = {
  tableName: string;
  /** Set for DynamoDB Local; absent on AWS, where the SDK finds the regional endpoint. */
  endpoint: string | undefined;
  region: string | undefined;
};

/**
 * Read once per cold start: a bad configuration fails at start-up, not on the first request. Its
 * schemas are built here, so a bundle that only creates a client (the bench's reference) has no zod.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const schema = z.object({
    TABLE_NAME: z._default(z.string().check(z.minLength(1)), 'crm-local'),
    DYNAMODB_ENDPOINT: z.optional(z.url()),
    AWS_REGION: z.optional(z.string().check(z.minLength(1))),
  });
  const parsed = schema.safeParse({
    TABLE_NAME: env.TABLE_NAME || undefined,
    DYNAMODB_ENDPOINT: env.DYNAMODB_ENDPOINT || undefined,
    AWS_REGION: env.AWS_REGION || undefined,
  });
  if (!parsed.success) {
    throw new Error(`Configuration invalide : ${parsed.error.issues.map((issue) => issue.path.join('.')).join(', ')}`);
  }
  return {
    tableName: parsed.data.TABLE_NAME,
    endpoint: parsed.data.DYNAMODB_ENDPOINT,
    region: parsed.data.AWS_REGION,
  };
}

/**
 * The signing-secrets table (docs/adr/0012-signing-secrets-table.md), read once per cold start by
 * the functions that sign, and by the admin command line; no other function is given it. On
 * DynamoDB Local (an endpoint set) it defaults to `<TABLE_NAME>-secrets`; on AWS the stack sets
 * SECRETS_TABLE_NAME and nothing is guessed. The main table is refused: its change stream would
 * carry every secret written.
 */
export function loadSecretsTableName(env: NodeJS.ProcessEnv = process.env, config: Config = loadConfig(env)): string {
  const name = env.SECRETS_TABLE_NAME || (config.endpoint === undefined ? undefined : `${config.tableName}-secrets`);
  // A DynamoDB table name: 3 to 255 of `a-z A-Z 0-9 _ - .` ("Supported data types and naming rules in
  // Amazon DynamoDB", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html).
  const tableName = z.string().check(z.regex(/^[A-Za-z0-9_.-]{3,255}$/));
  const parsed = tableName.safeParse(name);
  if (!parsed.success || parsed.data === config.tableName)
    throw new Error('Configuration invalide : SECRETS_TABLE_NAME');
  return parsed.data;
}

export type StoredItem = ItemKey & Record<string, unknown>;

/** One key of a table, in a BatchGetItem that may span tables. */
type TableKey = { tableName: string; key: ItemKey };

/** "If you request more than 100 items, BatchGetItem returns a ValidationException" ("BatchGetItem", below). */
const batchGetMaxKeys = 100;

/**
 * The one BatchGetItem of this service: the items stored under `wanted`, per table (missing ones
 * are simply absent), the unprocessed part sent again with backoff (`untilProcessed`). One request
 * may name several tables ("The BatchGetItem operation returns the attributes of one or more items
 * from one or more tables", "BatchGetItem", DynamoDB API Reference:
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html);
 * `ConsistentRead` is set per table, and the caller chooses it for all of them. A request names at
 * most 100 keys, so a round sends its part as that many requests at once, whatever the caller asks.
 */
export async function batchGetFromTables(
  db: Store['db'],
  wanted: Readonly<Record<string, readonly ItemKey[]>>,
  consistency: { consistentRead: boolean },
): Promise<Record<string, StoredItem[]>> {
  const found: Record<string, StoredItem[]> = Object.fromEntries(Object.keys(wanted).map((table) => [table, []]));
  const pending = Object.entries(wanted).flatMap(([tableName, keys]) => keys.map((key) => ({ tableName, key })));
  if (pending.length === 0) return found;
  const request = async (part: readonly TableKey[]): Promise<TableKey[]> => {
    const requestItems: Record<string, { Keys: ItemKey[]; ConsistentRead: boolean }> = {};
    for (const { tableName, key } of part) {
      (requestItems[tableName] ??= { Keys: [], ConsistentRead: consistency.consistentRead }).Keys.push(key);
    }
    const result = await db.send(new BatchGetCommand({ RequestItems: requestItems }));
    for (const [tableName, items] of Object.entries(result.Responses ?? {})) {
      found[tableName]?.push(...(items as StoredItem[]));
    }
    return Object.entries(result.UnprocessedKeys ?? {}).flatMap(([tableName, unprocessed]) =>
      ((unprocessed.Keys ?? []) as ItemKey[]).map((key) => ({ tableName, key })),
    );
  };
  await untilProcessed<TableKey>(pending, async (part) => {
    const requests = Array.from({ length: Math.ceil(part.length / batchGetMaxKeys) }, (_, index) =>
      request(part.slice(index * batchGetMaxKeys, (index + 1) * batchGetMaxKeys)),
    );
    return (await Promise.all(requests)).flat();
  });
  return found;
}

/** `batchGetFromTables` on the store's one table. */
export async function batchGetItems(
  store: Store,
  wanted: readonly ItemKey[],
  consistency: { consistentRead: boolean },
): Promise<StoredItem[]> {
  return (await batchGetFromTables(store.db, { [store.tableName]: wanted }, consistency))[store.tableName] ?? [];
}

export const sameKey = (a: ItemKey, b: ItemKey): boolean => a.pk === b.pk && a.sk === b.sk;

/** Pauses between the rounds of a batch call whose unprocessed part is sent again. */
export const defaultBatchPolicy: RetryPolicy = {
  attempts: 6,
  baseDelayMs: 20,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * A batch call (BatchGetItem, BatchWriteItem) may leave part of its request unprocessed under
 * load; AWS asks callers to send that part again with exponential backoff. `round` sends a part
 * and answers what is left; after `policy.attempts` rounds with something left, it fails.
 */
export async function untilProcessed<T>(
  pending: readonly T[],
  round: (part: readonly T[]) => Promise<readonly T[]>,
  policy: RetryPolicy = defaultBatchPolicy,
): Promise<void> {
  let left = pending;
  for (let tried = 1; left.length > 0; tried += 1) {
    if (tried > policy.attempts) throw new Error('DynamoDB kept part of a batch unprocessed');
    if (tried > 1) await policy.sleep(policy.baseDelayMs * 2 ** tried);
    left = await round(left);
  }
}

/** What every use case depends on; tests pass their own clock, ids and metrics. */
export type Deps = Store & {
  clock: () => Date;
  newId: () => string;
  /** Business metrics (lib/observability.ts), published by the function's wrapper at the end of each invocation. */
  metrics: PublishedMetrics;
};

export function productionDeps(config: Config = loadConfig()): Deps {
  return {
    db: createDocumentClient({ endpoint: config.endpoint, region: config.region }),
    tableName: config.tableName,
    clock: () => new Date(),
    newId: randomUUID,
    metrics: createMetrics(),
  };
}

/** Those who read or write signing secrets: the delivery function and the admin command line. */
export type SecretsDeps = Deps & SecretsStore;

export function productionSecretsDeps(
  env: NodeJS.ProcessEnv = process.env,
  config: Config = loadConfig(env),
): SecretsDeps {
  return { ...productionDeps(config), secretsTableName: loadSecretsTableName(env, config) };
}
