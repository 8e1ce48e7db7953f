import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';
import type { WorkspaceItem } from './workspace-config';
import type { Store } from './client';

/**
 * Access pattern "workspace by id": one strongly consistent GetItem on its item. A seed writes
 * that item last, so it proves the workspace exists in full.
 */
export async function getWorkspace(store: Store, workspaceId: string): Promise<WorkspaceItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.workspace(workspaceId), ConsistentRead: true }),
  );
  return Item as WorkspaceItem | undefined;
}
