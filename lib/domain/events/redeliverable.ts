import { messages } from '../../messages';
import type { DeliveryItem, SubscriptionItem } from '../../storage/event-items';
import { stillKept } from '../../storage/table-items';
import { ConflictError, NotFoundError } from '../model';

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
