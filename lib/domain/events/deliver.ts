import * as z from 'zod/mini';
import { messages } from '../../messages';
import {
  claimStep,
  failWithoutAttempt,
  readDeliveryAndSubscription,
  recordScheduledOutcome,
} from '../../storage/delivery-attempts';
import { type Delivery, ConflictError, NotFoundError } from '../model';
import { logger } from '../../observability';
import { redeliver } from './redeliver';
import { attemptDelivery, logDeliveryFailed } from './delivery-attempt';
import { maxQueueDelaySeconds, type DeliveryDeps, type DeliveryMessage, type EventDeps } from './ports';
import { delayAfterStep } from './retry-schedule';

const deliveryMessageSchema = z.object({
  workspace_id: z.string().check(z.minLength(1)),
  delivery_id: z.string().check(z.minLength(1)),
  subscription_id: z.string().check(z.minLength(1)),
  step: z.int().check(z.minimum(0)),
  not_before: z.iso.datetime({ offset: true }),
  redelivery: z.optional(z.literal(true)),
});

/** A queue message's body, or undefined when it is not one (nothing to retry). */
export function parseDeliveryMessage(body: string): DeliveryMessage | undefined {
  try {
    const parsed = deliveryMessageSchema.safeParse(JSON.parse(body));
    if (!parsed.success) return undefined;
    const { redelivery, ...scheduled } = parsed.data;
    return redelivery === true ? { ...scheduled, redelivery } : scheduled;
  } catch {
    return undefined;
  }
}

/**
 * One queue message: one scheduled attempt of one delivery.
 * 1. Received before `not_before` (a wait longer than SQS's 15-minute maximum delay, "Amazon SQS
 *    delay queues"): sent again with the remaining delay, at most 900 s, and nothing else.
 * 2. The delivery read, with its subscription and signing secrets: gone, no longer pending, or at
 *    another step (a stale copy) → dropped.
 * 3. Its subscription deleted or disabled → the delivery ends `failed` without an attempt.
 * 4. The step claimed (another copy of the message holds it → dropped), the signed POST made
 *    (none without signing secrets: a failed attempt, lib/domain/events/delivery-attempt.ts).
 * 5. 2xx → `delivered`; otherwise the next step is queued first, then recorded `pending` (a crash
 *    between the two leaves a message for a step the delivery has not reached: it is re-queued by
 *    SQS for this step, whose stale claim is taken over); after the last step → `failed`.
 * A DynamoDB or SQS failure throws: the message is retried by SQS.
 */
export async function handleDeliveryMessage(deps: DeliveryDeps, message: DeliveryMessage): Promise<void> {
  const waitMs = Date.parse(message.not_before) - deps.clock().getTime();
  if (waitMs > 0) {
    await deps.queue.send([{ message, delaySeconds: Math.min(Math.ceil(waitMs / 1000), maxQueueDelaySeconds) }]);
    return;
  }
  if (message.redelivery === true) return redeliverQueued(deps, message);
  const { delivery, subscription, secrets } = await readDeliveryAndSubscription(
    deps,
    message.workspace_id,
    message.delivery_id,
    message.subscription_id,
  );
  if (!delivery || delivery.status !== 'pending' || delivery.step !== message.step) return;
  if (!subscription || !subscription.active) {
    const reason = subscription ? messages.delivery.subscriptionDisabled : messages.delivery.subscriptionDeleted;
    const failed = await failWithoutAttempt(deps, delivery, reason, deps.clock());
    if (failed) logDeliveryFailed(failed);
    if (failed) deps.metrics.count('DeliveriesFailed');
    return;
  }
  const claimed = await claimStep(deps, message.workspace_id, message.delivery_id, message.step, deps.clock());
  if (!claimed) return;
  const result = await attemptDelivery(deps, claimed, subscription, secrets);
  if (result.delivered) {
    const delivered = await recordScheduledOutcome(deps, claimed, {
      ...result,
      status: 'delivered',
      nextAttemptAt: null,
    });
    // Counted by the invocation whose claim recorded it (a stale claim taken over records nothing).
    if (delivered) deps.metrics.count('DeliveriesDelivered');
    return;
  }
  await scheduleNextOrFail(deps, claimed, result);
}

/**
 * A redelivery queued by the settings API: the attempt and its record of `subscription redeliver`
 * (lib/domain/events/redeliver.ts). A delivery gone or a subscription deleted or disabled since it was
 * queued is refused there: the message is dropped, as no retry can change that.
 */
async function redeliverQueued(deps: DeliveryDeps, message: DeliveryMessage): Promise<void> {
  try {
    await redeliver(deps, message.workspace_id, message.delivery_id);
  } catch (error) {
    if (!(error instanceof NotFoundError || error instanceof ConflictError)) throw error;
    logger.warn('Nouvel envoi abandonné', {
      workspace_id: message.workspace_id,
      delivery_id: message.delivery_id,
      reason: error.name,
    });
  }
}

async function scheduleNextOrFail(
  deps: EventDeps,
  claimed: Delivery,
  result: { lastStatusCode: number | null; lastError: string | null },
): Promise<void> {
  const delaySeconds = delayAfterStep(claimed.step);
  if (delaySeconds === undefined) {
    const failed = await recordScheduledOutcome(deps, claimed, { ...result, status: 'failed', nextAttemptAt: null });
    if (failed) logDeliveryFailed(failed);
    if (failed) deps.metrics.count('DeliveriesFailed');
    return;
  }
  const nextAttemptAt = new Date(deps.clock().getTime() + delaySeconds * 1000).toISOString();
  await deps.queue.send([
    {
      message: {
        workspace_id: claimed.workspace_id,
        delivery_id: claimed.id,
        subscription_id: claimed.subscription_id,
        step: claimed.step + 1,
        not_before: nextAttemptAt,
      },
      delaySeconds: Math.min(delaySeconds, maxQueueDelaySeconds),
    },
  ]);
  await recordScheduledOutcome(deps, claimed, { ...result, status: 'pending', nextAttemptAt });
}
