import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps';
import { isUuid } from '../ids';
import { keys } from '../storage/keys';
import type { WorkspaceItem } from '../storage/workspace-config';
import { AdminInputError } from './errors';

type Store = Pick<Deps, 'db' | 'tableName'>;

/** Every admin command names its workspace; an unknown one is the administrator's mistake. */
export async function requireWorkspace(store: Store, workspaceId: string): Promise<WorkspaceItem> {
  if (isUuid(workspaceId)) {
    const { Item } = await store.db.send(
      new GetCommand({ TableName: store.tableName, Key: keys.workspace(workspaceId), ConsistentRead: true }),
    );
    if (Item) return Item as WorkspaceItem;
  }
  throw unknownWorkspace(workspaceId);
}

export const unknownWorkspace = (workspaceId: string): AdminInputError =>
  new AdminInputError(`Espace de travail inconnu : ${workspaceId}`);
