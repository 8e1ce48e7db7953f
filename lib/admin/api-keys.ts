import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { isScope } from '../auth/context';
import { fingerprint, newApiKeySecret } from '../auth/secrets';
import type { Deps } from '../deps';
import { allScopes } from '../routes';
import { getApiKeyByFingerprint, type ApiKeyItem } from '../storage/credentials';
import { keys, type ItemKey } from '../storage/keys';
import { AdminInputError } from './errors';
import { checkedId, unknownId } from './ids';
import { requireWorkspace } from './workspace';

export type StoredApiKey = ApiKeyItem & ItemKey & { gsi1pk: string; gsi1sk: string };
export type CreatedApiKey = { id: string; name: string; scopes: string[]; secret: string };
export type ApiKeyView = { id: string; name: string; scopes: string[]; created_at: string; revoked_at: string | null };

/** Decisions 3: a new key has the four scopes unless told otherwise; `*` grants all. */
export function checkScopes(requested: readonly string[] | undefined): string[] {
  if (requested === undefined) return [...allScopes];
  const scopes = [...new Set(requested.map((scope) => scope.trim()).filter((scope) => scope !== ''))];
  if (scopes.length === 0) throw new AdminInputError('Indiquez au moins une portée pour la clé.');
  const unknown = scopes.filter((scope) => scope !== '*' && !isScope(scope));
  if (unknown.length > 0) {
    throw new AdminInputError(
      `Portée inconnue : ${unknown.join(', ')} (portées possibles : *, ${allScopes.join(', ')}).`,
    );
  }
  return scopes;
}

/** Only the fingerprint is stored: the secret returned here is shown once and then lost. */
export function newApiKey(
  deps: Pick<Deps, 'newId'>,
  input: { workspaceId: string; name: string; scopes: string[]; createdAt: string },
): { item: StoredApiKey; secret: string } {
  const secret = newApiKeySecret();
  const id = deps.newId();
  const keyFingerprint = fingerprint(secret);
  return {
    secret,
    item: {
      ...keys.apiKey(keyFingerprint),
      id,
      workspace_id: input.workspaceId,
      name: input.name,
      scopes: input.scopes,
      fingerprint: keyFingerprint,
      created_at: input.createdAt,
      revoked_at: null,
      gsi1pk: keys.apiKeysOfWorkspace(input.workspaceId),
      gsi1sk: `${input.createdAt}#${id}`,
    },
  };
}

export async function createApiKey(
  deps: Deps,
  input: { workspaceId: string; name: string; scopes?: readonly string[] | undefined },
): Promise<CreatedApiKey> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const name = input.name.trim();
  if (name === '') throw new AdminInputError('Le nom de la clé ne peut pas être vide.');
  const scopes = checkScopes(input.scopes);
  await requireWorkspace(deps, workspaceId);
  const { item, secret } = newApiKey(deps, {
    workspaceId,
    name,
    scopes,
    createdAt: deps.clock().toISOString(),
  });
  try {
    // The condition check closes the race with a workspace that disappears between the read and the write.
    await deps.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: deps.tableName,
              Key: keys.workspace(workspaceId),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          { Put: { TableName: deps.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
  } catch (error) {
    if (
      error instanceof TransactionCanceledException &&
      error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed'
    ) {
      throw unknownId('workspace', input.workspaceId);
    }
    throw error;
  }
  return { id: item.id, name, scopes, secret };
}

export async function listApiKeys(deps: Deps, workspaceId: string): Promise<ApiKeyView[]> {
  const id = checkedId('workspace', workspaceId);
  await requireWorkspace(deps, id);
  return (await apiKeysOfWorkspace(deps, id)).map(apiKeyView);
}

/** Revoking twice keeps the first revocation date. */
export async function revokeApiKey(
  deps: Deps,
  input: { workspaceId: string; keyId: string },
): Promise<{ id: string; revoked_at: string }> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const keyId = checkedId('apiKey', input.keyId);
  await requireWorkspace(deps, workspaceId);
  const key = await requireApiKey(deps, workspaceId, keyId);
  if (key.revoked_at) return { id: key.id, revoked_at: key.revoked_at };
  const revokedAt = deps.clock().toISOString();
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: keys.apiKey(key.fingerprint),
        UpdateExpression: 'SET revoked_at = :now',
        ConditionExpression: 'workspace_id = :workspace AND id = :id AND revoked_at = :none',
        ExpressionAttributeValues: { ':now': revokedAt, ':workspace': workspaceId, ':id': key.id, ':none': null },
      }),
    );
    return { id: key.id, revoked_at: revokedAt };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const current = await getApiKeyByFingerprint(deps, key.fingerprint);
    if (current?.revoked_at) return { id: key.id, revoked_at: current.revoked_at };
    throw error;
  }
}

/**
 * A key named by id, found among its workspace's keys (a key is stored under its fingerprint):
 * another workspace's key is unknown here. Takes ids already through checkedId.
 */
export async function requireApiKey(
  deps: Pick<Deps, 'db' | 'tableName'>,
  workspaceId: string,
  keyId: string,
): Promise<ApiKeyItem> {
  const key = (await apiKeysOfWorkspace(deps, workspaceId)).find((candidate) => candidate.id === keyId);
  if (!key) throw unknownId('apiKey', keyId);
  return key;
}

/** Access pattern "API keys of a workspace": gsi1, oldest first. */
async function apiKeysOfWorkspace(deps: Pick<Deps, 'db' | 'tableName'>, workspaceId: string): Promise<ApiKeyItem[]> {
  const found: ApiKeyItem[] = [];
  const pages = paginateQuery(
    { client: deps.db },
    {
      TableName: deps.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.apiKeysOfWorkspace(workspaceId) },
    },
  );
  for await (const page of pages) found.push(...((page.Items ?? []) as ApiKeyItem[]));
  return found;
}

const apiKeyView = (key: ApiKeyItem): ApiKeyView => ({
  id: key.id,
  name: key.name,
  scopes: key.scopes,
  created_at: key.created_at,
  revoked_at: key.revoked_at,
});
