import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { RetryPolicy, Store } from './client';
import type { ItemKey } from './table-items';

export type StoredItem = ItemKey & Record<string, unknown>;

/** One key of a table, in a BatchGetItem that may span tables. */
type TableKey = { tableName: string; key: ItemKey };

/**
 * The one BatchGetItem of this service: the items stored under `wanted`, per table (missing ones
 * are simply absent), the unprocessed part sent again with backoff (`untilProcessed`). One request
 * may name several tables ("The BatchGetItem operation returns the attributes of one or more items
 * from one or more tables", "BatchGetItem", DynamoDB API Reference:
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html);
 * `ConsistentRead` is set per table, and the caller chooses it for all of them.
 */
export async function batchGetFromTables(
  db: Store['db'],
  wanted: Readonly<Record<string, readonly ItemKey[]>>,
  consistency: { consistentRead: boolean },
): Promise<Record<string, StoredItem[]>> {
  const found: Record<string, StoredItem[]> = Object.fromEntries(Object.keys(wanted).map((table) => [table, []]));
  const pending = Object.entries(wanted).flatMap(([tableName, keys]) => keys.map((key) => ({ tableName, key })));
  if (pending.length === 0) return found;
  await untilProcessed<TableKey>(pending, async (part) => {
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
