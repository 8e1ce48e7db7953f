import { messages } from '../../messages';
import { logger } from '../../observability';
import type { AttemptRecord } from '../../storage/delivery-attempts';
import type { Delivery, SigningSecrets, Subscription } from '../model';
import type { EventDeps } from './ports';
import { deliveryTimeoutMs } from './retry-schedule';
import { secretsSigningAt, signatureHeader } from './signing';

export const userAgent = 'crm-ingest-webhooks/1';

export type AttemptResult = AttemptRecord & { delivered: boolean };

/**
 * One signed POST of a delivery's stored payload (Standard Webhooks): `webhook-id` is the event's
 * id, the same on every attempt and for every subscription, so a receiver can drop duplicates;
 * the timestamp and signatures are those of this attempt, one signature per secret that signs now
 * (two for 24 hours after a rotation). A 2xx answer within the timeout is a success. Without
 * signing secrets (a subscription whose secret was never moved out of `WS#`: docs/data-model.md,
 * "Signing secrets") nothing is sent and the attempt fails, its schedule going on.
 */
export async function attemptDelivery(
  deps: Pick<EventDeps, 'send' | 'clock'>,
  delivery: Delivery,
  subscription: Subscription,
  secrets: SigningSecrets | undefined,
): Promise<AttemptResult> {
  if (!secrets) {
    logger.warn('Secret de signature introuvable', {
      event: 'signing_secrets_missing',
      workspace_id: delivery.workspace_id,
      subscription_id: delivery.subscription_id,
      delivery_id: delivery.id,
    });
    return { delivered: false, lastStatusCode: null, lastError: messages.delivery.signingSecretsMissing };
  }
  const at = deps.clock();
  const result = await deps.send({
    url: subscription.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': userAgent,
      'webhook-id': delivery.event_id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signatureHeader(secretsSigningAt(secrets, at), delivery.event_id, at, delivery.payload),
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
export function logDeliveryFailed(delivery: Delivery): void {
  logger.warn('Livraison abandonnée', {
    event: 'delivery_failed',
    workspace_id: delivery.workspace_id,
    subscription_id: delivery.subscription_id,
    delivery_id: delivery.id,
  });
}
