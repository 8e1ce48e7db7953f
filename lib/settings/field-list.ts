import type { Deps } from '../storage/client';
import { configOf } from '../storage/workspace-config';
import type { FieldDefinition } from '../domain/model';
import { fieldListing } from '../domain/fields/field-definitions';
import { checkedId, requireWorkspace } from './admin-input';

/**
 * `GET /fields` of the settings API: the workspace's live custom fields in creation order (docs/api.md#custom-fields),
 * read from its configuration item (one strongly consistent GetItem); apart from lib/settings/fields.ts, so that this
 * read route reaches none of the edit's modules.
 */
export async function listFields(
  deps: Pick<Deps, 'db' | 'tableName'>,
  workspaceId: string,
): Promise<{ fields: FieldDefinition[] }> {
  const workspace = await requireWorkspace(deps, checkedId('workspace', workspaceId));
  return fieldListing(configOf(workspace as unknown as Record<string, unknown>));
}
