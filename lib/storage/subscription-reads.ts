import { GetCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { liveSubscription, type StoredSubscriptionItem, type SubscriptionItem } from './event-items';
import { keys, workspaceConfigPk } from './table-items';

/**
 * Access pattern "subscriptions of a workspace": a Query of its configuration partition on the
 * `SUB#` sort-key prefix, strongly consistent, every page (Query pages at 1 MB:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html).
 */
export async function listSubscriptions(store: Store, workspaceId: string): Promise<StoredSubscriptionItem[]> {
  const found: StoredSubscriptionItem[] = [];
  const pages = paginateQuery(
    { client: store.db },
    {
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sub)',
      ExpressionAttributeValues: { ':pk': workspaceConfigPk(workspaceId), ':sub': keys.subscriptionSkPrefix },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) found.push(...((page.Items ?? []) as StoredSubscriptionItem[]));
  return found.filter((item) => liveSubscription(item) !== undefined);
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
  return liveSubscription(Item as SubscriptionItem | undefined);
}
