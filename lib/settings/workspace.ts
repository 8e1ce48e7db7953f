import type { Deps } from '../deps';
import { configOf, type WorkspaceItem } from '../storage/workspace-config';
import { getWorkspace } from '../storage/workspaces';
import { checkedId, unknownId } from './ids';

/**
 * Every admin command names its workspace; an unknown one is the administrator's mistake. The
 * existence check is one strongly consistent GetItem on the workspace item.
 */
export async function requireWorkspace(
  store: Pick<Deps, 'db' | 'tableName'>,
  workspaceId: string,
): Promise<WorkspaceItem> {
  const id = checkedId('workspace', workspaceId);
  const workspace = await getWorkspace(store, id);
  if (!workspace) throw unknownId('workspace', workspaceId);
  return workspace;
}

export type TagView = { id: string; name: string };

/** `GET /tags`: the workspace's tags in their order, read from its configuration item (one strongly consistent GetItem). */
export async function listTags(deps: Pick<Deps, 'db' | 'tableName'>, workspaceId: string): Promise<TagView[]> {
  const workspace = await requireWorkspace(deps, checkedId('workspace', workspaceId));
  return configOf(workspace as unknown as Record<string, unknown>).tags.map(({ id, name }) => ({ id, name }));
}
