import type { Store } from './client';
import type { DeliveryItem, DeliveryStatus } from './event-records';
import { keys } from './keys';
import { newestFirst } from './newest-first';

/**
 * Access pattern "deliveries of a subscription, newest first": a Query of the workspace's
 * delivery partition read backwards (ids are time-ordered), strongly consistent, filtered on the
 * subscription and, when given, the status, read on until `limit` are found (`newestFirst`).
 */
export function listDeliveries(
  store: Store,
  workspaceId: string,
  options: { subscriptionId: string; status?: DeliveryStatus | undefined; limit: number },
): Promise<DeliveryItem[]> {
  return newestFirst<DeliveryItem>(
    store,
    {
      KeyConditionExpression: 'pk = :pk',
      FilterExpression:
        options.status === undefined
          ? 'subscription_id = :subscription'
          : 'subscription_id = :subscription AND #status = :status',
      ExpressionAttributeValues: {
        ':pk': keys.deliveriesPk(workspaceId),
        ':subscription': options.subscriptionId,
        ...(options.status === undefined ? {} : { ':status': options.status }),
      },
      ...(options.status === undefined ? {} : { ExpressionAttributeNames: { '#status': 'status' } }),
      filtered: true,
    },
    options.limit,
  );
}
