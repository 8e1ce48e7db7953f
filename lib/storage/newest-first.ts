import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';

/** A Query of one partition, without the table, direction, consistency or paging this helper sets. */
export type PartitionQuery = Omit<
  QueryCommandInput,
  'TableName' | 'ScanIndexForward' | 'ConsistentRead' | 'ExclusiveStartKey' | 'Limit'
> & { filtered: boolean };

/**
 * The items of a partition whose sort keys are time-ordered ids (the webhook journal, the
 * deliveries), newest first: read backwards, strongly consistent. A filter applies after each page
 * is read (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.FilterExpression.html),
 * so pages are read on until `limit` items are found or the partition ends; without one, each
 * page asks for just what is missing.
 */
export async function queryNewestFirst<T>(
  store: Store,
  query: PartitionQuery,
  limit: number,
  /** The key of the last item of the previous page: the read starts right after it (a settings API page). */
  after?: Record<string, unknown>,
): Promise<T[]> {
  const { filtered, ...input } = query;
  const found: T[] = [];
  let startKey: Record<string, unknown> | undefined = after;
  do {
    const result = await store.db.send(
      new QueryCommand({
        ...input,
        TableName: store.tableName,
        ScanIndexForward: false,
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
        ...(filtered ? {} : { Limit: limit - found.length }),
      }),
    );
    found.push(...((result.Items ?? []) as T[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey !== undefined && found.length < limit);
  return found.slice(0, limit);
}
