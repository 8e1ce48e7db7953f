import { paginateQuery, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { changeLogPrefix, indexes, keys, type ChangeLogItem } from './table-items';

/** Access pattern "change-log entry by id": gsi2 (eventually consistent; the undo transaction's conditions make that safe). */
export async function findChangeLogEntry(
  store: Store,
  workspaceId: string,
  entryId: string,
): Promise<ChangeLogItem | undefined> {
  const { Items } = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: indexes.changeLogEntryById,
      KeyConditionExpression: 'gsi2pk = :ref',
      ExpressionAttributeValues: { ':ref': keys.changeLogEntryRef(workspaceId, entryId) },
    }),
  );
  return Items?.[0] as ChangeLogItem | undefined;
}

/** Access patterns "change log of a prospect" (its partition) and "of an API key" (gsi1), newest first. */
export async function listChangeLog(
  store: Store,
  of: { workspaceId: string; prospectId: string } | { keyId: string },
): Promise<ChangeLogItem[]> {
  const query =
    'prospectId' in of
      ? {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :log)',
          ExpressionAttributeValues: { ':pk': keys.prospectPk(of.workspaceId, of.prospectId), ':log': changeLogPrefix },
          ConsistentRead: true,
        }
      : {
          IndexName: indexes.listsInCreationOrder,
          KeyConditionExpression: 'gsi1pk = :key',
          ExpressionAttributeValues: { ':key': keys.changeLogOfKey(of.keyId) },
        };
  const entries: ChangeLogItem[] = [];
  for await (const page of paginateQuery(
    { client: store.db },
    { TableName: store.tableName, ScanIndexForward: false, ...query },
  )) {
    entries.push(...((page.Items ?? []) as ChangeLogItem[]));
  }
  return entries;
}
