import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { PhoneSettings } from '../../../lib/domain/model';
import { messages } from '../../../lib/messages';
import type { Store } from '../../../lib/storage/client';
import { failedConditionIndexes, isTransactionConflict } from '../../../lib/storage/conditional-writes';
import { endpointSettingsUpdate } from '../../../lib/storage/credentials';
import { keys } from '../../../lib/storage/table-items';
import { phoneSettingsStateOf, type PhoneSettingsState } from '../../../lib/storage/workspace-config';

/**
 * Access pattern "read the phone settings to change them": a strongly consistent GetItem on the
 * configuration item (none: no such workspace).
 */
export async function readPhoneSettingsState(
  store: Store,
  workspaceId: string,
): Promise<PhoneSettingsState | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.workspace(workspaceId), ConsistentRead: true }),
  );
  return Item ? phoneSettingsStateOf(Item) : undefined;
}

/**
 * Access pattern "change the phone settings" (admin `workspace set`; docs/data-model.md, "Phone
 * matching in E.164"): one transaction sets `phone_matching`, `phone_region` and `config_version + 1`
 * on the configuration item, conditional on the version and the endpoint read (so neither another
 * edit nor a `webhook generate` happened meanwhile), and copies the settings to the endpoint item
 * when the workspace has one, conditional on it existing. `changed_meanwhile`: nothing was written,
 * the caller reads again and decides anew (a transaction conflict counts as such).
 */
export async function writePhoneSettings(
  store: Store,
  workspaceId: string,
  read: PhoneSettingsState,
  settings: PhoneSettings,
): Promise<{ configVersion: number } | 'changed_meanwhile'> {
  const nextVersion = (read.configVersion ?? 0) + 1;
  const conditions = [
    'attribute_exists(pk)',
    read.configVersion === undefined ? 'attribute_not_exists(#version)' : '#version = :read',
    read.endpointId === undefined ? 'attribute_not_exists(endpoint_id)' : 'endpoint_id = :endpoint',
  ];
  try {
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: store.tableName,
              Key: keys.workspace(workspaceId),
              UpdateExpression: 'SET phone_matching = :matching, phone_region = :region, #version = :next',
              ConditionExpression: conditions.join(' AND '),
              ExpressionAttributeNames: { '#version': 'config_version' },
              ExpressionAttributeValues: {
                ':matching': settings.phone_matching,
                ':region': settings.phone_region,
                ':next': nextVersion,
                ...(read.configVersion === undefined ? {} : { ':read': read.configVersion }),
                ...(read.endpointId === undefined ? {} : { ':endpoint': read.endpointId }),
              },
            },
          },
          ...(read.endpointId === undefined
            ? []
            : [endpointSettingsUpdate(store, { id: read.endpointId, workspaceId }, settings)]),
        ],
      }),
    );
    return { configVersion: nextVersion };
  } catch (error) {
    const failed = failedConditionIndexes(error);
    if (failed.includes(0) || isTransactionConflict(error)) return 'changed_meanwhile';
    if (failed.includes(1) && read.endpointId !== undefined) {
      throw new Error(messages.admin.webhook.endpointMissing(read.endpointId, workspaceId), { cause: error });
    }
    throw error;
  }
}
