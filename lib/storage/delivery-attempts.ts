import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetFromTables, sameKey, type SecretsStore, type Store } from './client';
import type { Delivery, DeliveryStatus } from '../domain/model';
import { liveSubscription, type DeliveryItem, type SigningSecretsItem, type SubscriptionItem } from './event-items';
import { keys, type ItemKey } from './table-items';

/**
 * The attempts of a delivery (docs/data-model.md, "Outbound events"). A queue message is delivered
 * at least once ("Amazon SQS at-least-once delivery"), so an attempt is first claimed on the item:
 * of two copies of one message, one POSTs. A claim older than `staleClaimMs` belongs to an
 * invocation that died (timeout, crash) and may be taken over.
 */
export const staleClaimMs = 60_000;

/** What an attempt gave: the HTTP status (null when none came) and the French reason of a failure. */
export type AttemptRecord = { lastStatusCode: number | null; lastError: string | null };

/**
 * The delivery, then its subscription and the subscription's signing secrets: the queue message
 * names the delivery alone, so the subscription's keys are known only once the delivery is read. All
 * strongly consistent (a subscription disabled or a secret rotated a moment ago is seen so).
 * The secrets are in their own table, read in the same BatchGetItem (one request may name several
 * tables, lib/storage/client.ts), under the subscription's own key: the delivery function's
 * `WS#` condition on the main table then holds for every partition key the request names, in
 * whichever table (docs/adr/0012-signing-secrets-table.md).
 */
export async function readDeliveryAndSubscription(
  store: SecretsStore,
  workspaceId: string,
  deliveryId: string,
  subscriptionId?: string,
): Promise<{
  delivery: DeliveryItem | undefined;
  subscription: SubscriptionItem | undefined;
  secrets: SigningSecretsItem | undefined;
}> {
  const deliveryKey = keys.delivery(workspaceId, deliveryId);
  const readWith = (mainKeys: readonly ItemKey[], id: string | undefined) =>
    batchGetFromTables(
      store.db,
      {
        [store.tableName]: id === undefined ? mainKeys : [...mainKeys, keys.subscription(workspaceId, id)],
        ...(id === undefined ? {} : { [store.secretsTableName]: [keys.signingSecrets(workspaceId, id)] }),
      },
      { consistentRead: true },
    );
  // A queue message names the subscription: the three items in one round trip. Without it (admin
  // redelivery by delivery id), or when the message's is not the delivery's, a second read.
  const found = await readWith([deliveryKey], subscriptionId);
  const delivery = found[store.tableName]?.find((item) => sameKey(item, deliveryKey)) as DeliveryItem | undefined;
  if (!delivery) return { delivery: undefined, subscription: undefined, secrets: undefined };
  const ofSubscription =
    delivery.subscription_id === subscriptionId ? found : await readWith([], delivery.subscription_id);
  const subscriptionKey = keys.subscription(workspaceId, delivery.subscription_id);
  const secretsKey = keys.signingSecrets(workspaceId, delivery.subscription_id);
  return {
    delivery,
    subscription: liveSubscription(
      ofSubscription[store.tableName]?.find((item) => sameKey(item, subscriptionKey)) as SubscriptionItem | undefined,
    ),
    secrets: ofSubscription[store.secretsTableName]?.find((item) => sameKey(item, secretsKey)) as
      SigningSecretsItem | undefined,
  };
}

/**
 * The delivery, then its subscription, from the main table alone (two strongly consistent GetItems: the
 * subscription's key is known once the delivery is read): what the settings API's redeliver checks before
 * queuing the attempt, without the signing secrets it must never read.
 */
export async function readDeliveryWithSubscription(
  store: Store,
  workspaceId: string,
  deliveryId: string,
): Promise<{ delivery: DeliveryItem | undefined; subscription: SubscriptionItem | undefined }> {
  const read = async <T>(key: ItemKey) =>
    (await store.db.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true }))).Item as
      T | undefined;
  const delivery = await read<DeliveryItem>(keys.delivery(workspaceId, deliveryId));
  if (!delivery) return { delivery, subscription: undefined };
  return {
    delivery,
    subscription: liveSubscription(
      await read<SubscriptionItem>(keys.subscription(workspaceId, delivery.subscription_id)),
    ),
  };
}

/**
 * The index attributes of a delivery's new state (index gsi4, "pending deliveries by next
 * attempt"): set while it stays pending with a next attempt, removed once it ends.
 */
function pendingIndex(
  deliveryId: string,
  status: DeliveryStatus,
  nextAttemptAt: string | null,
): { set: string; remove: string; values: Record<string, string> } {
  if (status === 'pending' && nextAttemptAt !== null) {
    return {
      set: ', gsi4pk = :shard, gsi4sk = :due',
      remove: '',
      values: { ':shard': keys.pendingDeliveries(deliveryId), ':due': keys.pendingDeliveryDue(nextAttemptAt) },
    };
  }
  return { set: '', remove: ', gsi4pk, gsi4sk', values: {} };
}

/** Runs a conditional update; undefined when its condition did not hold. */
async function conditionally(store: Store, command: UpdateCommand): Promise<DeliveryItem | undefined> {
  try {
    const { Attributes } = await store.db.send(command);
    return Attributes as DeliveryItem;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/**
 * Claims scheduled step `step` of a pending delivery and counts the attempt. Undefined when the
 * delivery moved on, or another invocation holds a fresh claim on it.
 */
export const claimStep = (
  store: Store,
  workspaceId: string,
  deliveryId: string,
  step: number,
  now: Date,
): Promise<DeliveryItem | undefined> =>
  conditionally(
    store,
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.delivery(workspaceId, deliveryId),
      UpdateExpression: 'SET claimed_step = :step, claimed_at = :now, attempts = attempts + :one',
      ConditionExpression:
        '#status = :pending AND step = :step AND (attribute_not_exists(claimed_step) OR claimed_at < :stale)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':step': step,
        ':now': now.toISOString(),
        ':one': 1,
        ':pending': 'pending' satisfies DeliveryStatus,
        ':stale': new Date(now.getTime() - staleClaimMs).toISOString(),
      },
      ReturnValues: 'ALL_NEW',
    }),
  );

/**
 * Records the outcome of a claimed attempt and moves to the next step, on the condition that the
 * claim is still ours (a stale claim taken over by another invocation records nothing here).
 */
export function recordScheduledOutcome(
  store: Store,
  claimed: Delivery,
  outcome: AttemptRecord & { status: DeliveryStatus; nextAttemptAt: string | null },
): Promise<DeliveryItem | undefined> {
  const index = pendingIndex(claimed.id, outcome.status, outcome.nextAttemptAt);
  return conditionally(
    store,
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.delivery(claimed.workspace_id, claimed.id),
      UpdateExpression: `SET #status = :status, step = step + :one, last_status_code = :code, last_error = :error, next_attempt_at = :next${index.set} REMOVE claimed_step, claimed_at${index.remove}`,
      ConditionExpression: 'claimed_step = :step AND claimed_at = :claimedAt',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':status': outcome.status,
        ':one': 1,
        ':code': outcome.lastStatusCode,
        ':error': outcome.lastError,
        ':next': outcome.nextAttemptAt,
        ':step': claimed.claimed_step,
        ':claimedAt': claimed.claimed_at,
        ...index.values,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
}

/**
 * Ends a pending delivery at step `step` without an attempt (its subscription was deleted or
 * disabled). Undefined when it had already moved on or is being attempted (a fresh claim).
 */
export const failWithoutAttempt = (
  store: Store,
  delivery: Delivery,
  lastError: string,
  now: Date,
): Promise<DeliveryItem | undefined> =>
  conditionally(
    store,
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.delivery(delivery.workspace_id, delivery.id),
      UpdateExpression:
        'SET #status = :failed, last_error = :error, next_attempt_at = :none REMOVE claimed_step, claimed_at, gsi4pk, gsi4sk',
      ConditionExpression:
        '#status = :pending AND step = :step AND (attribute_not_exists(claimed_step) OR claimed_at < :stale)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':failed': 'failed' satisfies DeliveryStatus,
        ':pending': 'pending' satisfies DeliveryStatus,
        ':error': lastError,
        ':none': null,
        ':step': delivery.step,
        ':stale': new Date(now.getTime() - staleClaimMs).toISOString(),
      },
      ReturnValues: 'ALL_NEW',
    }),
  );

/**
 * Records a redelivery, an attempt outside the schedule: the attempt counted, its result kept, and
 * `status` set, on the condition that the status is still the one read (`expected`), so a scheduled
 * attempt finishing meanwhile is not overwritten blindly. A pending delivery's step and next
 * attempt are left as they are: its schedule goes on.
 */
export const recordRedelivery = (
  store: Store,
  delivery: Delivery,
  outcome: AttemptRecord & { status: DeliveryStatus },
): Promise<DeliveryItem | undefined> =>
  conditionally(
    store,
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.delivery(delivery.workspace_id, delivery.id),
      UpdateExpression: `SET #status = :status, attempts = attempts + :one, last_status_code = :code, last_error = :error${
        outcome.status === 'pending' ? '' : ', next_attempt_at = :none REMOVE gsi4pk, gsi4sk'
      }`,
      ConditionExpression: '#status = :expected',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':status': outcome.status,
        ':expected': delivery.status,
        ':one': 1,
        ':code': outcome.lastStatusCode,
        ':error': outcome.lastError,
        ...(outcome.status === 'pending' ? {} : { ':none': null }),
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
