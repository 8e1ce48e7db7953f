import type { SecretsDeps } from '../../deps';
import { messages } from '../../messages';
import { readDeliveryAndSubscription, recordRedelivery } from '../../storage/delivery-attempts';
import type { Delivery } from '../model';
import type { DeliveryItem, SubscriptionItem } from '../../storage/event-items';
import { stillKept } from '../../storage/expiring-items';
import { readDecideWrite } from '../../storage/conditional-writes';
import { ConflictError, NotFoundError } from '../errors';
import { attemptDelivery } from './delivery-attempt';
import { deliveryView, type DeliveryView } from './delivery-view';
import type { EventDeps } from './ports';

/**
 * The checks before a redelivery, shared by `subscription redeliver` and `POST /deliveries/{d}/redeliver`:
 * unknown or expired delivery (past its 30 days it is gone for the workspace, whether or not TTL has removed
 * it yet) or deleted subscription → NotFoundError; disabled subscription → ConflictError.
 */
export function checkRedeliverable(
  found: { delivery: DeliveryItem | undefined; subscription: SubscriptionItem | undefined },
  deliveryId: string,
  now: Date,
): { delivery: DeliveryItem; subscription: SubscriptionItem } {
  const { delivery, subscription } = found;
  if (!delivery || !stillKept(delivery, now)) throw new NotFoundError(messages.admin.ids.unknown.delivery(deliveryId));
  if (!subscription) throw new NotFoundError(messages.delivery.redeliverSubscriptionDeleted(delivery.subscription_id));
  if (!subscription.active) throw new ConflictError(messages.delivery.redeliverDisabled(subscription.id));
  return { delivery, subscription };
}

/**
 * `subscription redeliver` (docs/api.md#outbound-events): a new attempt of the same delivery (same `webhook-id`),
 * sent now, outside the schedule: by the command itself, or by the delivery function for a redelivery
 * queued by the settings API (lib/domain/events/deliver.ts). Success → `delivered`; a failure leaves a pending delivery
 * pending (its schedule goes on untouched) and ends any other `failed`. Unknown or expired delivery, or
 * deleted subscription → NotFoundError; disabled subscription → ConflictError (nothing sent).
 */
export async function redeliver(
  deps: SecretsDeps & Pick<EventDeps, 'send' | 'network'>,
  workspaceId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  const found = await readDeliveryAndSubscription(deps, workspaceId, deliveryId);
  const { delivery, subscription } = checkRedeliverable(found, deliveryId, deps.clock());
  const { secrets } = found;
  const result = await attemptDelivery(deps, delivery, subscription, secrets);
  // The scheduled attempt may change the status meanwhile: the record is conditional on the status
  // read, and decided again from a fresh read when it moved.
  const recorded = await readDecideWrite<Delivery | undefined, Delivery, Delivery>({
    read: async (previous) => ({
      snapshot: previous ? (await readDeliveryAndSubscription(deps, workspaceId, deliveryId)).delivery : delivery,
      consistent: true,
    }),
    decide: (current) => {
      if (!current)
        return { kind: 'refuse', refusal: new NotFoundError(messages.admin.ids.unknown.delivery(deliveryId)) };
      return { kind: 'write', write: current };
    },
    write: async (current) => {
      const status = result.delivered ? 'delivered' : current.status === 'pending' ? 'pending' : 'failed';
      const updated = await recordRedelivery(deps, current, { ...result, status });
      return updated ? { kind: 'written', answer: updated } : { kind: 'lost-race' };
    },
    contended: () => new ConflictError(messages.delivery.redeliverContended),
  });
  return deliveryView(recorded);
}
