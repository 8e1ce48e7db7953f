import { commandLine, recordAudit, type ActingMemberId } from '../../../lib/storage/audit-log';
import type { DeliveryView } from '../../../lib/domain/events/delivery-view';
import type { EventDeps } from '../../../lib/domain/events/ports';
import { redeliver } from '../../../lib/domain/events/redeliver';
import { messages } from '../../../lib/messages';
import { checkedId, requireWorkspace } from '../../../lib/settings/admin-input';
import type { SecretsDeps } from '../../../lib/storage/client';

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
