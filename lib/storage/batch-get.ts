import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import type { ItemKey } from './keys';
import { untilProcessed } from './retry';

export type StoredItem = ItemKey & Record<string, unknown>;

/**
 * The one BatchGetItem of this service: the items stored under `wanted` (missing ones are simply
 * absent), the unprocessed part sent again with backoff (`untilProcessed`). One `ConsistentRead`
 * covers every key of the table in a BatchGetItem ("BatchGetItem", DynamoDB API Reference): the
 * caller chooses it for all of them.
 */
export async function batchGetItems(
  store: Store,
  wanted: readonly ItemKey[],
  consistency: { consistentRead: boolean },
): Promise<StoredItem[]> {
  const found: StoredItem[] = [];
  if (wanted.length === 0) return found;
  await untilProcessed(wanted, async (part) => {
    const result = await store.db.send(
      new BatchGetCommand({
        RequestItems: { [store.tableName]: { Keys: [...part], ConsistentRead: consistency.consistentRead } },
      }),
    );
    found.push(...((result.Responses?.[store.tableName] ?? []) as StoredItem[]));
    return (result.UnprocessedKeys?.[store.tableName]?.Keys ?? []) as ItemKey[];
  });
  return found;
}

export const sameKey = (a: ItemKey, b: ItemKey): boolean => a.pk === b.pk && a.sk === b.sk;
