import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';

/**
 * Items kept for a time (the webhook call journal, the deliveries): their expiry, and their
 * partitions read newest first. They carry `expires_at`, the table's TTL attribute in epoch
 * seconds. TTL deletes an expired item in the background, typically within two days, and until
 * then reads, queries and scans still return it
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTimeToLive.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html): whoever
 * lists or shows them filters on it against the clock, as AWS shows in "Working with expired items"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html).
 */

/** `now` in the TTL attribute's unit. */
export const epochSeconds = (now: Date): number => Math.floor(now.getTime() / 1000);

/** An item is kept while its `expires_at` is still ahead of `now`; at that second or later it is gone. */
export const stillKept = (item: { expires_at: number }, now: Date): boolean => item.expires_at > epochSeconds(now);

/** The same rule as a Query filter (names `#expires_at`, value `:now`), with its placeholders. */
export const stillKeptFilter = (now: Date) => ({
  expression: '#expires_at > :now',
  names: { '#expires_at': 'expires_at' },
  values: { ':now': epochSeconds(now) },
});

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
