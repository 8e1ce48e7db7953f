import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { keys, type CandidateItem, type ChangeLogItem, type NoteItem, type ProspectItem } from './table-items';
import type { Store } from './client';

export type ProspectPartitionItem = ProspectItem | NoteItem | ChangeLogItem;
export type CandidatePartitionItem = CandidateItem | NoteItem;

/**
 * Access pattern "prospect with its notes and change log": one Query on PROSPECT#<ws>#<id>,
 * strongly consistent. Descending sort keys put PROSPECT#LOG#<at> items, then NOTE#<created_at> items, newest first.
 * Another workspace's prospect id reads an empty partition.
 */
export function readProspectPartition(
  store: Store,
  workspaceId: string,
  prospectId: string,
): Promise<ProspectPartitionItem[]> {
  return readPartition<ProspectPartitionItem>(store, keys.prospectPk(workspaceId, prospectId));
}

/** Access pattern "candidate with its notes": one Query on CANDIDATE#<ws>#<id>, notes newest first. */
export function readCandidatePartition(
  store: Store,
  workspaceId: string,
  candidateId: string,
): Promise<CandidatePartitionItem[]> {
  return readPartition<CandidatePartitionItem>(store, keys.candidatePk(workspaceId, candidateId));
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
