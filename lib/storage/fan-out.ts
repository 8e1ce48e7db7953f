import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { batchGetItems, type StoredItem, type Store } from './client';
import { liveSubscription, type DeliveryItem, type SubscriptionItem } from './event-items';
import { keys, workspaceConfigPk, type ItemKey } from './table-items';
import { liveFields, type FieldDefinition, type Tag } from '../domain/model';
import { configOf } from './workspace-config';

/**
 * What the fan-out needs of a workspace: tag names for tag events and prospect views, the live custom fields for
 * prospect views and their changes, and its subscriptions.
 */
export type WorkspaceEventContext = { tags: Tag[]; fields: FieldDefinition[]; subscriptions: SubscriptionItem[] };

/**
 * Access pattern "event context of a workspace": one Query of its configuration partition `WS#<ws>`
 * reads the configuration item (`CFG#WORKSPACE`: tags and custom fields) and the subscriptions (`SUB#…`) together,
 * strongly consistent so that a subscription disabled a moment ago gets nothing more, every page
 * (Query pages at 1 MB: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html).
 */
export async function readWorkspaceEventContext(store: Store, workspaceId: string): Promise<WorkspaceEventContext> {
  const configKey = keys.workspace(workspaceId);
  let configItem: Record<string, unknown> | undefined;
  const subscriptions: SubscriptionItem[] = [];
  const pages = paginateQuery(
    { client: store.db },
    {
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': workspaceConfigPk(workspaceId) },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) {
    for (const item of (page.Items ?? []) as StoredItem[]) {
      if (item.sk === configKey.sk) configItem = item;
      else if (item.sk.startsWith(keys.subscriptionSkPrefix) && liveSubscription(item as SubscriptionItem))
        subscriptions.push(item as SubscriptionItem);
    }
  }
  const config = configOf(configItem);
  return { tags: config.tags, fields: liveFields(config), subscriptions };
}

/**
 * The records note events show (their prospect or candidate), strongly consistent: the record as
 * it is after the note's own transaction. Keys are de-duplicated: BatchGetItem refuses a request
 * naming one key twice.
 */
export async function readRecords(store: Store, wanted: readonly ItemKey[]): Promise<StoredItem[]> {
  const unique = [...new Map(wanted.map((key) => [`${key.pk}\n${key.sk}`, key])).values()];
  return batchGetItems(store, unique, { consistentRead: true });
}

/**
 * A delivery, put only if absent: its id is derived from the event and the subscription, so a
 * stream record processed again finds the delivery it made the first time, returned with the
 * refusal (ReturnValuesOnConditionCheckFailure, "PutItem", DynamoDB API Reference) without
 * another read.
 */
export async function createDeliveryIfAbsent(
  store: Store,
  delivery: DeliveryItem,
): Promise<'created' | { existing: DeliveryItem }> {
  try {
    await store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: delivery,
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'created';
  } catch (error) {
    // The document client leaves the item of an exception in DynamoDB's attribute-value form.
    if (error instanceof ConditionalCheckFailedException && error.Item) {
      return { existing: unmarshall(error.Item) as DeliveryItem };
    }
    throw error;
  }
}
