import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../../lib/storage/client';

/** Every item of one partition, in sort-key order, read from the table itself. */
export async function readPartition<T>(store: Store, pk: string): Promise<T[]> {
  const found: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...((page.Items ?? []) as T[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return found;
}

/**
 * What a test reads of the table itself, strongly consistent, to check what a use case left there: one item by its
 * key, a whole partition (`readPartition`).
 */
export function strongReads(store: Store) {
  return {
    item: async (key: { pk: string; sk: string }) =>
      (await store.db.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true }))).Item,
    partition: (pk: string) => readPartition<Record<string, unknown>>(store, pk),
  };
}
