import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { eventRecords, type Subscription, type SubscriptionItem } from './event-records';
import { keys, workspaceConfigPk } from './keys';

/**
 * A workspace's subscriptions (docs/data-model.md, "Outbound events"): items `WS#<ws>` / `SUB#<id>`
 * in its configuration partition, written only by the admin command line.
 */

/** A new subscription; the condition keeps an existing item (same id) from being overwritten. */
export async function createSubscription(store: Store, subscription: Subscription): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.tableName,
      Item: eventRecords.subscription(subscription),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/**
 * Access pattern "subscriptions of a workspace": a Query of its configuration partition on the
 * `SUB#` sort-key prefix, strongly consistent, every page (Query pages at 1 MB:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html).
 */
export async function listSubscriptions(store: Store, workspaceId: string): Promise<SubscriptionItem[]> {
  const found: SubscriptionItem[] = [];
  const pages = paginateQuery(
    { client: store.db },
    {
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sub)',
      ExpressionAttributeValues: { ':pk': workspaceConfigPk(workspaceId), ':sub': keys.subscriptionSkPrefix },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) found.push(...((page.Items ?? []) as SubscriptionItem[]));
  return found;
}

/** Access pattern "one subscription by id": GetItem, strongly consistent; another workspace's is not found. */
export async function getSubscription(
  store: Store,
  workspaceId: string,
  subscriptionId: string,
): Promise<SubscriptionItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({
      TableName: store.tableName,
      Key: keys.subscription(workspaceId, subscriptionId),
      ConsistentRead: true,
    }),
  );
  return Item as SubscriptionItem | undefined;
}

/**
 * Turns a subscription on or off; undefined when it does not exist (the condition keeps UpdateItem
 * from creating an item: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ConditionExpressions.html).
 */
export async function setSubscriptionActive(
  store: Store,
  workspaceId: string,
  subscriptionId: string,
  active: boolean,
): Promise<SubscriptionItem | undefined> {
  try {
    const { Attributes } = await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.subscription(workspaceId, subscriptionId),
        UpdateExpression: 'SET active = :active',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':active': active },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as SubscriptionItem;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** Deletes a subscription (its deliveries expire with their TTL); false when it did not exist. */
export async function deleteSubscription(store: Store, workspaceId: string, subscriptionId: string): Promise<boolean> {
  try {
    await store.db.send(
      new DeleteCommand({
        TableName: store.tableName,
        Key: keys.subscription(workspaceId, subscriptionId),
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
