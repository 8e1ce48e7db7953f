import type { Store } from './client';
import type { DeliveryItem } from './event-items';
import type { DeliveryStatus } from '../domain/model';
import { stillKeptFilter, keys } from './table-items';
import { queryNewestFirst } from './newest-first';

/**
 * Access pattern "deliveries of a subscription, newest first": a Query of the workspace's
 * delivery partition read backwards (ids are time-ordered), strongly consistent, filtered on the
 * subscription, on being still kept at `now` (past their 30 days, TTL may not have removed them
 * yet: lib/storage/table-items.ts) and, when given, the status, read on until `limit` are found
 * (`queryNewestFirst`); `afterId`, from the delivery after that one (a page of the settings API).
 */
export function listDeliveries(
  store: Store,
  workspaceId: string,
  options: {
    subscriptionId: string;
    status?: DeliveryStatus | undefined;
    limit: number;
    now: Date;
    afterId?: string | undefined;
  },
): Promise<DeliveryItem[]> {
  const kept = stillKeptFilter(options.now);
  return queryNewestFirst<DeliveryItem>(
    store,
    {
      KeyConditionExpression: 'pk = :pk',
      FilterExpression:
        options.status === undefined
          ? `subscription_id = :subscription AND ${kept.expression}`
          : `subscription_id = :subscription AND #status = :status AND ${kept.expression}`,
      ExpressionAttributeValues: {
        ':pk': keys.deliveriesPk(workspaceId),
        ':subscription': options.subscriptionId,
        ...kept.values,
        ...(options.status === undefined ? {} : { ':status': options.status }),
      },
      ExpressionAttributeNames: { ...kept.names, ...(options.status === undefined ? {} : { '#status': 'status' }) },
      filtered: true,
    },
    options.limit,
    options.afterId === undefined ? undefined : keys.delivery(workspaceId, options.afterId),
  );
}
