import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { staleClaimMs } from './delivery-attempts';
import type { DeliveryItem } from './event-items';
import type { DeliveryStatus } from '../domain/model';
import { indexes, keys } from './table-items';

/** A pending delivery as index gsi4 projects it: what a queue message names, and the time it was due. */
export type PendingDelivery = Pick<DeliveryItem, 'workspace_id' | 'id' | 'subscription_id' | 'step'> & {
  /** Its next attempt's time (ISO 8601 UTC), the index's sort key. */
  gsi4sk: string;
};

/**
 * Access pattern "pending deliveries due before a time" (index gsi4, docs/data-model.md, "Pending
 * deliveries"): one Query per shard, in parallel, `gsi4sk < :before`, oldest first, at most
 * `perShard` each. An index is read eventually consistent only ("DynamoDB read consistency",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.ReadConsistency.html): a
 * delivery that has just moved on may still be listed, which the conditional mark then refuses.
 * `more`: a shard had more than `perShard` due, left for the next run.
 */
export async function listDueDeliveries(
  store: Store,
  before: string,
  perShard: number,
): Promise<{ due: PendingDelivery[]; more: boolean }> {
  const pages = await Promise.all(
    keys.pendingDeliveryShards.map((shard) =>
      store.db.send(
        new QueryCommand({
          TableName: store.tableName,
          IndexName: indexes.pendingWorkByTime,
          KeyConditionExpression: 'gsi4pk = :shard AND gsi4sk < :before',
          ExpressionAttributeValues: { ':shard': shard, ':before': before },
          Limit: perShard,
        }),
      ),
    ),
  );
  return {
    due: pages.flatMap((page) => (page.Items ?? []) as PendingDelivery[]),
    more: pages.some((page) => page.LastEvaluatedKey !== undefined),
  };
}

/**
 * Marks a due delivery as queued again at `now` (its next attempt and index time), on the
 * condition that it is still pending at the step and time listed and that no fresh claim holds it
 * (an attempt in progress finishes on its own). False when the condition did not hold: nothing to
 * send. Marked first, then sent: a send that fails leaves a delivery due again one grace later.
 */
export async function markRequeued(store: Store, delivery: PendingDelivery, now: Date): Promise<boolean> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.delivery(delivery.workspace_id, delivery.id),
        UpdateExpression: 'SET next_attempt_at = :now, gsi4sk = :due',
        ConditionExpression:
          '#status = :pending AND step = :step AND gsi4sk = :listed AND (attribute_not_exists(claimed_step) OR claimed_at < :stale)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':now': now.toISOString(),
          ':due': keys.pendingDeliveryDue(now.toISOString()),
          ':pending': 'pending' satisfies DeliveryStatus,
          ':step': delivery.step,
          ':listed': delivery.gsi4sk,
          ':stale': new Date(now.getTime() - staleClaimMs).toISOString(),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
