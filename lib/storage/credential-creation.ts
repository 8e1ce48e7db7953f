import { auditPut, type AuditEntry } from './audit-log';
import type { Store } from './client';
import { credentialItems, getApiKeyByFingerprint, type ApiKeyItem, type EndpointItem } from './credentials';
import { keys } from './table-items';
import { putIfAbsent, transactUnlessRefused, transactWrite } from './conditional-writes';
import type { PhoneSettings } from '../domain/model';

/**
 * The administrator's creations and changes of credentials, each one transaction that also writes
 * the change's audit entry (docs/api.md#audit-log: in the same write as the change); the authorizer, which
 * only reads and records calls, does without them and without the audit log (lib/storage/credentials.ts).
 */

/**
 * Access pattern "new API key": the key item, created only if absent, and a condition check on the
 * workspace item in one transaction, which closes the race with a workspace that disappears
 * between the caller's read and this write.
 */
export async function createApiKey(
  store: Store,
  key: ApiKeyItem,
  audit: AuditEntry,
): Promise<'created' | 'workspace_missing'> {
  const written = await transactUnlessRefused(
    store,
    [
      {
        ConditionCheck: {
          TableName: store.tableName,
          Key: keys.workspace(key.workspace_id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      putIfAbsent(store, credentialItems.apiKey(key)),
      auditPut(store, audit),
    ],
    0,
  );
  return written ? 'created' : 'workspace_missing';
}

/**
 * Access pattern "new webhook endpoint": the endpoint item, created only if absent, and the
 * workspace item recording its id, in one transaction. One endpoint per workspace: the workspace
 * records it only if it exists, has none yet and still has the `config_version` read with the phone
 * settings the endpoint carries (a `workspace set` meanwhile raises it); otherwise nothing is written
 * and the answer is `workspace_changed` (the caller reads the workspace again).
 */
export async function createEndpoint(
  store: Store,
  endpoint: EndpointItem & PhoneSettings,
  configVersion: number | undefined,
  audit: AuditEntry,
): Promise<'created' | 'workspace_changed'> {
  const written = await transactUnlessRefused(
    store,
    [
      putIfAbsent(store, credentialItems.endpoint(endpoint)),
      {
        Update: {
          TableName: store.tableName,
          Key: keys.workspace(endpoint.workspace_id),
          UpdateExpression: 'SET endpoint_id = :id',
          ConditionExpression:
            configVersion === undefined
              ? 'attribute_exists(pk) AND attribute_not_exists(endpoint_id) AND attribute_not_exists(config_version)'
              : 'attribute_exists(pk) AND attribute_not_exists(endpoint_id) AND config_version = :version',
          ExpressionAttributeValues: {
            ':id': endpoint.id,
            ...(configVersion === undefined ? {} : { ':version': configVersion }),
          },
        },
      },
      auditPut(store, audit),
    ],
    1,
  );
  return written ? 'created' : 'workspace_changed';
}

/**
 * Access pattern "revoke an API key": UpdateItem on its fingerprint, conditional on the key being
 * this workspace's and not revoked yet, with its audit entry. Revoking twice keeps the first date:
 * when the condition fails because another revocation won meanwhile, its date is the answer (and no
 * entry is written: nothing changed); any other failed condition is thrown.
 */
export async function revokeApiKey(
  store: Store,
  key: Pick<ApiKeyItem, 'id' | 'workspace_id' | 'fingerprint'>,
  revokedAt: string,
  audit: AuditEntry,
): Promise<string> {
  const outcome = await transactWrite(store, [
    {
      Update: {
        TableName: store.tableName,
        Key: keys.apiKey(key.fingerprint),
        UpdateExpression: 'SET revoked_at = :now',
        ConditionExpression: 'workspace_id = :workspace AND id = :id AND revoked_at = :none',
        ExpressionAttributeValues: {
          ':now': revokedAt,
          ':workspace': key.workspace_id,
          ':id': key.id,
          ':none': null,
        },
      },
    },
    auditPut(store, audit),
  ]);
  if (outcome.written) return revokedAt;
  if (!outcome.failed.includes(0)) throw outcome.cancellation;
  const current = await getApiKeyByFingerprint(store, key.fingerprint);
  if (current?.revoked_at) return current.revoked_at;
  throw outcome.cancellation;
}

/**
 * Access pattern "replace an endpoint's token": UpdateItem on ENDPOINT#<id>, conditional on its
 * workspace, with its audit entry. The old token stops working with this write (the authorizer
 * reads consistently).
 */
export const replaceEndpointToken = (
  store: Store,
  endpoint: { id: string; workspaceId: string; tokenFingerprint: string },
  audit: AuditEntry,
): Promise<void> =>
  updateEndpoint(
    store,
    endpoint,
    'SET token_fingerprint = :fingerprint',
    { ':fingerprint': endpoint.tokenFingerprint },
    audit,
  );

/**
 * Access pattern "enable or disable an endpoint": UpdateItem on ENDPOINT#<id>, conditional on its
 * workspace, with its audit entry. A transaction returns no item: the caller reads the endpoint
 * after it (getEndpoint, strongly consistent).
 */
export const setEndpointActive = (
  store: Store,
  endpoint: { id: string; workspaceId: string; active: boolean },
  audit: AuditEntry,
): Promise<void> => updateEndpoint(store, endpoint, 'SET active = :active', { ':active': endpoint.active }, audit);

/** An endpoint's change and its audit entry, in one transaction conditional on the endpoint's workspace. */
async function updateEndpoint(
  store: Store,
  endpoint: { id: string; workspaceId: string },
  updateExpression: string,
  values: Record<string, unknown>,
  audit: AuditEntry,
): Promise<void> {
  const outcome = await transactWrite(store, [
    {
      Update: {
        TableName: store.tableName,
        Key: keys.endpoint(endpoint.id),
        UpdateExpression: updateExpression,
        ConditionExpression: 'workspace_id = :workspace',
        ExpressionAttributeValues: { ...values, ':workspace': endpoint.workspaceId },
      },
    },
    auditPut(store, audit),
  ]);
  // The endpoint is the caller's workspace's: a refused condition is an error, thrown as DynamoDB gave it.
  if (!outcome.written) throw outcome.cancellation;
}
