import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { keys } from './keys';
import type { ProspectItem } from './records';

/** Access pattern "prospect by id in a workspace": another workspace's id is simply not found. */
export async function getProspect(
  store: Store,
  workspaceId: string,
  prospectId: string,
): Promise<ProspectItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.prospect(workspaceId, prospectId), ConsistentRead: true }),
  );
  return Item as ProspectItem | undefined;
}
