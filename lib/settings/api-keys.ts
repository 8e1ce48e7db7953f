import { isScope } from '../auth/context';
import { newApiKeySecret } from '../auth/secrets';
import type { Deps } from '../storage/client';
import { messages } from '../messages';
import { allScopes } from '../routes';
import * as credentials from '../storage/credentials';
import { commandLine, newAuditEntry, type ActingMemberId } from '../storage/audit-log';
import { createApiKey as createStoredApiKey, revokeApiKey as revokeStoredApiKey } from '../storage/credential-creation';
import { InvalidInputError } from '../domain/model';
import { requireApiKey } from './api-key-list';
import { checkedId, unknownId, requireWorkspace } from './admin-input';

export type CreatedApiKey = { id: string; name: string; scopes: string[]; secret: string };

/** A refused input of `apikey create` / `POST /api-keys`: the command line's exit 2, the API's 400 naming the field. */
const refused = (field: 'name' | 'scopes', message: string) => new InvalidInputError(message, { field, message });

/** A new key has the five scopes unless told otherwise; `*` grants all (docs/api.md#scopes). */
export function checkScopes(requested: readonly string[] | undefined): string[] {
  if (requested === undefined) return [...allScopes];
  const scopes = [...new Set(requested.map((scope) => scope.trim()).filter((scope) => scope !== ''))];
  if (scopes.length === 0) throw refused('scopes', messages.admin.apiKeys.noScope);
  const unknown = scopes.filter((scope) => scope !== '*' && !isScope(scope));
  if (unknown.length > 0) {
    throw refused('scopes', messages.admin.apiKeys.unknownScopes(unknown.join(', '), allScopes.join(', ')));
  }
  return scopes;
}

/** Only the fingerprint is stored: the secret returned here is shown once and then lost. */
export function newApiKey(
  deps: Pick<Deps, 'newId'>,
  input: { workspaceId: string; name: string; scopes: string[]; createdAt: string },
): { key: credentials.ApiKeyItem; secret: string } {
  const secret = newApiKeySecret();
  return {
    secret,
    key: {
      id: deps.newId(),
      workspace_id: input.workspaceId,
      name: input.name,
      scopes: input.scopes,
      fingerprint: credentials.fingerprint(secret),
      created_at: input.createdAt,
      revoked_at: null,
    },
  };
}

/**
 * `apikey create`, `POST /api-keys`: the key and its audit entry (`api_key.created`, naming the key, never
 * its value) in one transaction. `actingMemberId`: the member acting through the settings API (absent:
 * the command line).
 */
export async function createApiKey(
  deps: Deps,
  input: { workspaceId: string; name: string; scopes?: readonly string[] | undefined; actingMemberId?: ActingMemberId },
): Promise<CreatedApiKey> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const name = input.name.trim();
  if (name === '') throw refused('name', messages.admin.apiKeys.blankName);
  const scopes = checkScopes(input.scopes);
  await requireWorkspace(deps, workspaceId);
  const { key, secret } = newApiKey(deps, {
    workspaceId,
    name,
    scopes,
    createdAt: deps.clock().toISOString(),
  });
  const audit = newAuditEntry(deps.clock(), {
    workspaceId,
    memberId: input.actingMemberId ?? commandLine,
    action: 'api_key.created',
    targetId: key.id,
    summary: messages.audit.apiKeyCreated(name),
  });
  // Written with a check on the workspace item: one that disappeared since the read is unknown.
  if ((await createStoredApiKey(deps, key, audit)) === 'workspace_missing') {
    throw unknownId('workspace', input.workspaceId);
  }
  return { id: key.id, name, scopes, secret };
}

/** Revoking twice keeps the first revocation date; the revocation and its audit entry are one transaction. */
export async function revokeApiKey(
  deps: Deps,
  input: { workspaceId: string; keyId: string; actingMemberId?: ActingMemberId },
): Promise<{ id: string; revoked_at: string }> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const keyId = checkedId('apiKey', input.keyId);
  await requireWorkspace(deps, workspaceId);
  const key = await requireApiKey(deps, workspaceId, keyId);
  if (key.revoked_at) return { id: key.id, revoked_at: key.revoked_at };
  const now = deps.clock();
  const audit = newAuditEntry(now, {
    workspaceId,
    memberId: input.actingMemberId ?? commandLine,
    action: 'api_key.revoked',
    targetId: key.id,
    summary: messages.audit.apiKeyRevoked(key.name),
  });
  const revokedAt = await revokeStoredApiKey(deps, key, now.toISOString(), audit);
  return { id: key.id, revoked_at: revokedAt };
}
