import type { Deps } from '../storage/client';
import { configOf } from '../storage/workspace-config';
import { checkedId, requireWorkspace } from './admin-input';

export type TagView = { id: string; name: string };

/** `GET /tags`: the workspace's tags in their order, read from its configuration item (one strongly consistent GetItem). */
export async function listTags(deps: Pick<Deps, 'db' | 'tableName'>, workspaceId: string): Promise<TagView[]> {
  const workspace = await requireWorkspace(deps, checkedId('workspace', workspaceId));
  return configOf(workspace as unknown as Record<string, unknown>).tags.map(({ id, name }) => ({ id, name }));
}
