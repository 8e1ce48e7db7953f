import type { Deps } from '../storage/client';
import { workspaceSettingsOf, type Workspace, type WorkspaceSettings } from '../domain/model';
import { checkedId, requireWorkspace } from './admin-input';

/**
 * `GET /workspaces/{workspace_id}` and `workspace show` (docs/api.md#workspaces): the workspace and its settings, how the
 * lead webhook compares its phones, its time zone and how long it keeps its prospects and candidates.
 */
export type WorkspaceView = { id: string; name: string } & WorkspaceSettings & { created_at: string };

/** The view of a workspace and its settings as its configuration holds them (a setting never set: its default). */
export const workspaceView = (workspace: Workspace, settings: WorkspaceSettings): WorkspaceView => ({
  id: workspace.id,
  name: workspace.name,
  phone_matching: settings.phone_matching,
  phone_region: settings.phone_region,
  time_zone: settings.time_zone,
  retention_months: settings.retention_months,
  created_at: workspace.created_at,
});

/** One workspace, from its configuration item (one GetItem). */
export async function showWorkspace(deps: Pick<Deps, 'db' | 'tableName'>, workspaceId: string): Promise<WorkspaceView> {
  const workspace = await requireWorkspace(deps, checkedId('workspace', workspaceId));
  return workspaceView(workspace, workspaceSettingsOf(workspace));
}
