import type { Deps } from '../storage/client';
import { phoneSettingsOf, type PhoneSettings } from '../domain/model';
import { checkedId, requireWorkspace } from './admin-input';

/** `GET /workspaces/{workspace_id}` and `workspace show` (docs/api.md#workspaces): the workspace and how the lead webhook
 * compares its phones. */
export type WorkspaceView = { id: string; name: string } & PhoneSettings & { created_at: string };

/** One workspace; an absent `phone_matching` or `phone_region` reads as its default (`exact`, `FR`). */
export async function showWorkspace(deps: Pick<Deps, 'db' | 'tableName'>, workspaceId: string): Promise<WorkspaceView> {
  const workspace = await requireWorkspace(deps, checkedId('workspace', workspaceId));
  const { phone_matching, phone_region } = phoneSettingsOf(workspace);
  return { id: workspace.id, name: workspace.name, phone_matching, phone_region, created_at: workspace.created_at };
}
