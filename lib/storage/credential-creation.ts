import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { credentialItems, type ApiKeyItem, type EndpointItem } from './credentials';
import { keys } from './table-items';
import { failedConditionIndexes, putIfAbsent } from './conditional-writes';
import type { PhoneSettings } from '../domain/model';

/**
 * The administrator's creations of credentials, each one transaction with a check of its
 * workspace; the authorizer, which only reads and records calls, does without (lib/storage/credentials.ts).
 */

/**
 * Access pattern "new API key": the key item, created only if absent, and a condition check on the
 * workspace item in one transaction, which closes the race with a workspace that disappears
 * between the caller's read and this write.
 */
export async function createApiKey(store: Store, key: ApiKeyItem): Promise<'created' | 'workspace_missing'> {
  try {
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: store.tableName,
              Key: keys.workspace(key.workspace_id),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          putIfAbsent(store, credentialItems.apiKey(key)),
        ],
      }),
    );
    return 'created';
  } catch (error) {
    if (failedConditionIndexes(error).includes(0)) return 'workspace_missing';
    throw error;
  }
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
): Promise<'created' | 'workspace_changed'> {
  try {
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: [
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
        ],
      }),
    );
    return 'created';
  } catch (error) {
    if (failedConditionIndexes(error).includes(1)) return 'workspace_changed';
    throw error;
  }
}
