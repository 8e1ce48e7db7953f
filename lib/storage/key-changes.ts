import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { type PageRequest, indexes, keys, type ChangeLogItem } from './table-items';

/**
 * Access pattern "change log of an API key", a page at a time (`GET /api-keys/{k}/changes`): one Query of gsi1,
 * newest first, of `limit` entries and one more (which tells whether a next page exists: `following`). The position is a
 * bound of the index's sort key (`<at>#<id>`), so the page starts strictly after the previous page's last entry
 * and no client value reaches the partition key. The index is read eventually consistently, as the command
 * line's `changelog list --key` reads it ("Read consistency", Amazon DynamoDB Developer Guide:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.ReadConsistency.html: global
 * secondary indexes support eventually consistent reads only).
 */
export async function readKeyChangePage(
  store: Store,
  keyId: string,
  page: PageRequest,
): Promise<{ items: ChangeLogItem[]; more: boolean; following: ChangeLogItem | undefined }> {
  const wanted = page.limit + 1;
  const read: ChangeLogItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: indexes.listsInCreationOrder,
        KeyConditionExpression: page.after ? 'gsi1pk = :key AND gsi1sk < :after' : 'gsi1pk = :key',
        ExpressionAttributeValues: {
          ':key': keys.changeLogOfKey(keyId),
          ...(page.after ? { ':after': `${page.after.at}#${page.after.id}` } : {}),
        },
        ScanIndexForward: false,
        Limit: wanted - read.length,
        ExclusiveStartKey: startKey,
      }),
    );
    read.push(...((result.Items ?? []) as ChangeLogItem[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey !== undefined && read.length < wanted);
  return { items: read.slice(0, page.limit), more: read.length > page.limit, following: read[page.limit] };
}
