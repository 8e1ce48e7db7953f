import { GetCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { indexes, keys } from './table-items';
import { workspacesIndexPk, type WorkspaceItem } from './workspace-config';
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

/** A workspace as listed: what the index projects of its configuration item, read by the admin. */
export type ListedWorkspace = Pick<WorkspaceItem, 'id' | 'name' | 'created_at'>;

/**
 * Access pattern "workspaces" (admin `workspace list`), without a Scan: Query gsi1 on `WORKSPACES`,
 * every page, oldest first (`gsi1sk = <created_at>#<id>`). The index is eventually consistent: a
 * workspace seeded a moment ago may be missing for a moment. The index projects whole items (up to
 * 350 KB of configuration each, read and counted in full page by page): only id, name and creation
 * date come back.
 */
export async function listWorkspaces(store: Store): Promise<ListedWorkspace[]> {
  const found: ListedWorkspace[] = [];
  const pages = paginateQuery(
    { client: store.db },
    {
      TableName: store.tableName,
      IndexName: indexes.listsInCreationOrder,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': workspacesIndexPk },
      ProjectionExpression: 'id, #name, created_at',
      ExpressionAttributeNames: { '#name': 'name' },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const { id, name, created_at: createdAt } = item as ListedWorkspace;
      found.push({ id, name, created_at: createdAt });
    }
  }
  return found;
}
