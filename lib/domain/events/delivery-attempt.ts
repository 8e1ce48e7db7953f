import { Webhook } from 'standardwebhooks';
import { messages } from '../../messages';
import { logger } from '../../observability/logger';
import type { AttemptRecord } from '../../storage/delivery-attempts';
import type { DeliveryItem, SubscriptionItem } from '../../storage/event-records';
import type { EventDeps } from './ports';
import { deliveryTimeoutMs } from './retry-schedule';

export const userAgent = 'crm-ingest-webhooks/1';

export type AttemptResult = AttemptRecord & { delivered: boolean };

/**
 * One signed POST of a delivery's stored payload (Standard Webhooks): `webhook-id` is the event's
 * id, the same on every attempt and for every subscription, so a receiver can drop duplicates;
 * the timestamp and signature are those of this attempt. A 2xx answer within the timeout is a success.
 */
export async function attemptDelivery(
  deps: Pick<EventDeps, 'send' | 'clock'>,
  delivery: DeliveryItem,
  subscription: SubscriptionItem,
): Promise<AttemptResult> {
  const at = deps.clock();
  const result = await deps.send({
    url: subscription.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': userAgent,
      'webhook-id': delivery.event_id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(subscription.secret).sign(delivery.event_id, at, delivery.payload),
    },
    body: delivery.payload,
    timeoutMs: deliveryTimeoutMs,
  });
  if ('error' in result) {
    // Not the error's text: it may name the receiver's host, which is the subscriber's business.
    logger.debug('delivery attempted', { delivery_id: delivery.id, outcome: 'no_answer' });
    return { delivered: false, lastStatusCode: null, lastError: result.error };
  }
  const delivered = result.status >= 200 && result.status < 300;
  logger.debug('delivery attempted', {
    delivery_id: delivery.id,
    outcome: delivered ? 'delivered' : 'refused',
    status_code: result.status,
  });
  return {
    delivered,
    lastStatusCode: result.status,
    lastError: delivered ? null : messages.delivery.unexpectedStatus(result.status),
  };
}

/** The one line per abandoned delivery, for the operator who follows an alarm up (no URL, no payload). */
export function logDeliveryFailed(delivery: DeliveryItem): void {
  logger.warn('Livraison abandonnée', {
    event: 'delivery_failed',
    workspace_id: delivery.workspace_id,
    subscription_id: delivery.subscription_id,
    delivery_id: delivery.id,
  });
}
