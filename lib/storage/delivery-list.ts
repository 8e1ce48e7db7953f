import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import type { DeliveryItem, DeliveryStatus } from './event-records';
import { keys } from './keys';

/**
 * Access pattern "deliveries of a subscription, newest first": a Query of the workspace's
 * delivery partition read backwards (ids are time-ordered), strongly consistent, filtered on the
 * subscription and, when given, the status. A filter applies after each page is read
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.FilterExpression.html),
 * so pages are read on until `limit` deliveries are found or the partition ends.
 */
export async function listDeliveries(
  store: Store,
  workspaceId: string,
  options: { subscriptionId: string; status?: DeliveryStatus | undefined; limit: number },
): Promise<DeliveryItem[]> {
  const found: DeliveryItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
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
        ScanIndexForward: false,
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...((result.Items ?? []) as DeliveryItem[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey !== undefined && found.length < options.limit);
  return found.slice(0, options.limit);
}
