import type { SecretsDeps } from '../../storage/client';
import { messages } from '../../messages';
import { readDeliveryAndSubscription, recordRedelivery } from '../../storage/delivery-attempts';
import { type Delivery, ConflictError, NotFoundError } from '../model';
import { readDecideWrite } from '../../storage/conditional-writes';
import { attemptDelivery } from './delivery-attempt';
import { checkRedeliverable } from './redeliverable';
import { deliveryView, type DeliveryView } from './delivery-view';
import type { EventDeps } from './ports';

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
