import type { Deps } from '../storage/client';
import { deliveryView, type DeliveryView } from '../domain/events/delivery-view';
import type { DeliveryQueue } from '../domain/events/ports';
import { checkRedeliverable } from '../domain/events/redeliverable';
import { messages } from '../messages';
import { readDeliveryWithSubscription } from '../storage/delivery-attempts';
import { type ActingMemberId, recordAudit } from '../storage/audit-log';
import { checkedId, requireWorkspace } from './admin-input';

/**
 * `POST /deliveries/{d}/redeliver` (docs/api.md#settings-api): the same checks as `subscription redeliver`
 * (lib/domain/events/redeliverable.ts), then the new attempt queued at once for the delivery function, which
 * signs and sends it (lib/domain/events/deliver.ts): the caller reads no signing secret and POSTs
 * nothing itself. The delivery as it stands when queued, after the audit entry.
 */
export async function queueRedelivery(
  deps: Deps & { queue: DeliveryQueue },
  workspaceId: string,
  deliveryId: string,
  actingMemberId: ActingMemberId,
): Promise<DeliveryView> {
  const workspace = await requireWorkspace(deps, workspaceId);
  const id = checkedId('delivery', deliveryId);
  const now = deps.clock();
  const { delivery, subscription } = await readDeliveryWithSubscription(deps, workspace.id, id);
  const redeliverable = checkRedeliverable({ delivery, subscription }, id, now);
  await deps.queue.send([
    {
      message: {
        workspace_id: workspace.id,
        delivery_id: redeliverable.delivery.id,
        subscription_id: redeliverable.subscription.id,
        step: redeliverable.delivery.step,
        not_before: now.toISOString(),
        redelivery: true,
      },
      delaySeconds: 0,
    },
  ]);
  await recordAudit(deps, {
    workspaceId: workspace.id,
    memberId: actingMemberId,
    action: 'delivery.redelivered',
    targetId: id,
    summary: messages.audit.deliveryRedeliveryQueued,
  });
  return deliveryView(redeliverable.delivery);
}
