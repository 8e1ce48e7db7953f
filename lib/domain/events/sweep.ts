import { logger } from '../../observability';
import { listDueDeliveries, markRequeued, type PendingDelivery } from '../../storage/pending-deliveries';
import type { DeliveryMessage, EventDeps } from './ports';
import { sweepSettings } from './queue-settings';

/** Conditional marks in flight at once. */
const markConcurrency = 16;

/** What one run of the sweep did. */
export type SweepOutcome = {
  /** Pending deliveries found past their next attempt by more than the grace. */
  due: number;
  /** Of those, the ones marked and queued again (the others had moved on, or were being attempted). */
  requeued: number;
  /** More were due than one run takes: the next run goes on. */
  more: boolean;
};

/**
 * The sweep of pending deliveries (docs/events.md, "No event lost"): a delivery whose queue message
 * was lost (the send after its creation failed and no stream retry sent it, or its message ended in
 * the dead-letter queue) would stay `pending` for ever. Every few minutes:
 * 1. the pending deliveries whose next attempt is more than `overdueAfterSeconds` past (index
 *    gsi4, at most `perShard` per shard): the queue no longer holds a live copy of their message;
 * 2. each marked queued again now, if still pending at the step listed and not being attempted;
 * 3. one message per marked delivery, for its current step, due now.
 * A duplicate message is harmless: the delivery function claims a step before it POSTs
 * (lib/storage/delivery-attempts.ts), and drops a message whose step has passed. A send that fails
 * throws (the run's error is alarmed); its deliveries, marked, are due again one grace later.
 */
export async function sweepPendingDeliveries(deps: EventDeps): Promise<SweepOutcome> {
  const now = deps.clock();
  const before = new Date(now.getTime() - sweepSettings.overdueAfterSeconds * 1000).toISOString();
  const { due, more } = await listDueDeliveries(deps, before, sweepSettings.perShard);
  const marked: PendingDelivery[] = [];
  for (let start = 0; start < due.length; start += markConcurrency) {
    const chunk = due.slice(start, start + markConcurrency);
    const outcomes = await Promise.all(chunk.map((delivery) => markRequeued(deps, delivery, now)));
    marked.push(...chunk.filter((_, index) => outcomes[index]));
  }
  if (marked.length > 0) {
    await deps.queue.send(marked.map((delivery) => ({ message: messageOf(delivery, now), delaySeconds: 0 })));
    deps.metrics.count('DeliveriesRequeued', undefined, marked.length);
  }
  for (const delivery of marked) {
    // Ids only: which delivery lost its message, for the operator who follows the count up.
    logger.warn('Livraison remise en file par le balayage', {
      event: 'delivery_requeued',
      workspace_id: delivery.workspace_id,
      subscription_id: delivery.subscription_id,
      delivery_id: delivery.id,
      step: delivery.step,
    });
  }
  logger.debug('pending deliveries swept', { due: due.length, requeued: marked.length, more });
  return { due: due.length, requeued: marked.length, more };
}

const messageOf = (delivery: PendingDelivery, now: Date): DeliveryMessage => ({
  workspace_id: delivery.workspace_id,
  delivery_id: delivery.id,
  subscription_id: delivery.subscription_id,
  step: delivery.step,
  not_before: now.toISOString(),
});
