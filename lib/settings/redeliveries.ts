import type { Deps, SecretsDeps } from '../deps';
import { deliveryView, type DeliveryView } from '../domain/events/delivery-view';
import type { DeliveryQueue, EventDeps } from '../domain/events/ports';
import { checkRedeliverable, redeliver } from '../domain/events/redeliver';
import { messages } from '../messages';
import { readDeliveryWithSubscription } from '../storage/delivery-attempts';
import { commandLine, type ActingMemberId } from '../domain/audit';
import { recordAudit } from './record-audit';
import { checkedId } from './ids';
import { requireWorkspace } from './workspace';

/** A delivery attempted again: queued by the settings API, sent by the command line itself. */
/**
 * `POST /deliveries/{d}/redeliver` (docs/api.md#settings-api): the same checks as `subscription redeliver`
 * (lib/domain/events/redeliver.ts), then the new attempt queued at once for the delivery function, which
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

/**
 * `subscription redeliver`: a new attempt of the delivery now, outside its schedule
 * (lib/domain/events/redeliver.ts), made by the command itself: it runs in a process of its own,
 * which shares no queue with `npm start`'s, and prints the delivery once the event is sent (docs/api.md#outbound-events). An
 * unknown delivery, a deleted or disabled subscription are the administrator's to correct (exit 2). The attempt is a POST and the writes that record it: its
 * audit entry is written right after them (docs/api.md#audit-log).
 */
export async function redeliverDelivery(
  deps: SecretsDeps & Pick<EventDeps, 'send' | 'network'>,
  workspaceId: string,
  deliveryId: string,
  actingMemberId: ActingMemberId = commandLine,
): Promise<DeliveryView> {
  const workspace = await requireWorkspace(deps, workspaceId);
  const id = checkedId('delivery', deliveryId);
  const delivery = await redeliver(deps, workspace.id, id);
  await recordAudit(deps, {
    workspaceId: workspace.id,
    memberId: actingMemberId,
    action: 'delivery.redelivered',
    targetId: id,
    summary: messages.audit.deliveryRedelivered(delivery.status),
  });
  return delivery;
}
