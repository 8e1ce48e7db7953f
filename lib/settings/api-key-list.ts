import type { Deps } from '../storage/client';
import { NotFoundError } from '../domain/model';
import { messages } from '../messages';
import * as credentials from '../storage/credentials';
import { checkedId, requireWorkspace } from './admin-input';

/** The API keys of a workspace as `apikey list` and `GET /api-keys` show them: never a secret. */
export type ApiKeyView = { id: string; name: string; scopes: string[]; created_at: string; revoked_at: string | null };

export async function listApiKeys(deps: Deps, workspaceId: string): Promise<ApiKeyView[]> {
  const id = checkedId('workspace', workspaceId);
  await requireWorkspace(deps, id);
  return (await credentials.listApiKeysOfWorkspace(deps, id)).map(apiKeyView);
}

/**
 * A key named by id, found among its workspace's keys (a key is stored under its fingerprint):
 * another workspace's key is unknown here. Takes ids already through checkedId.
 */
export async function requireApiKey(
  deps: Pick<Deps, 'db' | 'tableName'>,
  workspaceId: string,
  keyId: string,
): Promise<credentials.ApiKeyItem> {
  const key = (await credentials.listApiKeysOfWorkspace(deps, workspaceId)).find((candidate) => candidate.id === keyId);
  // Another workspace's key, or none: 404 on the settings API (docs/api.md#settings-api), exit 2 on the command line.
  if (!key) throw new NotFoundError(messages.admin.ids.unknown.apiKey(keyId));
  return key;
}

const apiKeyView = (key: credentials.ApiKeyItem): ApiKeyView => ({
  id: key.id,
  name: key.name,
  scopes: key.scopes,
  created_at: key.created_at,
  revoked_at: key.revoked_at,
});
