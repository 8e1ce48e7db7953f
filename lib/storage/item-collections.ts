import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { keys, type CandidateItem, type ChangeLogItem, type NoteItem, type ProspectItem } from './table-items';
import type { Store } from './client';

/**
 * Item collections: all the items that share one partition key ("Partitions and data distribution in
 * DynamoDB", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.Partitions.html),
 * here a prospect or a candidate with what hangs off it, read whole by the admin commands.
 */
export type ProspectCollectionItem = ProspectItem | NoteItem | ChangeLogItem;
export type CandidateCollectionItem = CandidateItem | NoteItem;

/**
 * Access pattern "prospect with its notes and change log": one Query on PROSPECT#<ws>#<id>,
 * strongly consistent. Descending sort keys put PROSPECT#LOG#<at> items, then NOTE#<created_at> items, newest first.
 * Another workspace's prospect id reads an empty partition.
 */
export function readProspectCollection(
  store: Store,
  workspaceId: string,
  prospectId: string,
): Promise<ProspectCollectionItem[]> {
  return readPartition<ProspectCollectionItem>(store, keys.prospectPk(workspaceId, prospectId));
}

/** Access pattern "candidate with its notes": one Query on CANDIDATE#<ws>#<id>, notes newest first. */
export function readCandidateCollection(
  store: Store,
  workspaceId: string,
  candidateId: string,
): Promise<CandidateCollectionItem[]> {
  return readPartition<CandidateCollectionItem>(store, keys.candidatePk(workspaceId, candidateId));
}

async function readPartition<T>(store: Store, pk: string): Promise<T[]> {
  const found: T[] = [];
  const pages = paginateQuery(
    { client: store.db },
    {
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ScanIndexForward: false,
      ConsistentRead: true,
    },
  );
  for await (const page of pages) found.push(...((page.Items ?? []) as T[]));
  return found;
}
