import type { Deps } from '../deps';
import { phoneSettingsOf, type PhoneSettings } from '../storage/workspace-config';
import { listWorkspaces as listStoredWorkspaces } from '../storage/workspaces';
import { checkedId } from './ids';
import { requireWorkspace } from './workspace';

/** `workspace list` (decisions 6.4): a workspace as listed. */
export type WorkspaceSummaryView = { id: string; name: string; created_at: string };

/** `workspace show` (decisions 6.4): the workspace and how the lead webhook compares its phones. */
export type WorkspaceView = { id: string; name: string } & PhoneSettings & { created_at: string };

/** Every workspace of the table, oldest first (creation date, then id). */
export async function listWorkspaces(deps: Pick<Deps, 'db' | 'tableName'>): Promise<WorkspaceSummaryView[]> {
  return (await listStoredWorkspaces(deps)).map(({ id, name, created_at }) => ({ id, name, created_at }));
}

/** One workspace; an absent `phone_matching` or `phone_region` reads as its default (`exact`, `FR`). */
export async function showWorkspace(deps: Pick<Deps, 'db' | 'tableName'>, workspaceId: string): Promise<WorkspaceView> {
  const workspace = await requireWorkspace(deps, checkedId('workspace', workspaceId));
  const { phone_matching, phone_region } = phoneSettingsOf(workspace);
  return { id: workspace.id, name: workspace.name, phone_matching, phone_region, created_at: workspace.created_at };
}
