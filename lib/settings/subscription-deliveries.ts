import type { Deps } from '../storage/client';
import { InvalidInputError, type DeliveryStatus } from '../domain/model';
import { deliveryView, type DeliveryView } from '../domain/events/delivery-view';
import { messages } from '../messages';
import { listDeliveries } from '../storage/delivery-list';
import { encodeCursor, type CursorBinding } from '../http/query-parameters';
import type { PageRequest } from '../storage/table-items';
import type { SubscriptionItem } from '../storage/event-items';
import * as store from '../storage/subscription-reads';
import { AdminInputError, checkedId, notFoundId, requireWorkspace } from './admin-input';

/** A subscription's deliveries as `subscription deliveries` and `GET /subscriptions/{s}/deliveries` list them. */
/** `subscription deliveries --limit`: 1 to this many, 100 when absent. */
export const maxDeliveriesListed = 1000;
export const defaultDeliveriesListed = 100;

const deliveryStatuses: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

/** `--limit` as typed: a whole number from 1 to 1000; absent, 100. */
export function readDeliveriesLimit(value: string | undefined): number {
  if (value === undefined) return defaultDeliveriesListed;
  const text = value.trim();
  const limit = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1 && limit <= maxDeliveriesListed)) {
    throw new AdminInputError(messages.admin.webhook.invalidLimit(value, maxDeliveriesListed));
  }
  return limit;
}

/** `--status` as typed: pending, delivered or failed. */
export function readDeliveryStatus(value: string | undefined): DeliveryStatus | undefined {
  if (value === undefined) return undefined;
  const status = deliveryStatuses.find((known) => known === value.trim());
  if (status === undefined) {
    const message = messages.admin.subscription.invalidStatus(value);
    throw new InvalidInputError(message, { field: 'status', message });
  }
  return status;
}

/** `subscription deliveries`: the subscription's deliveries (30 days), newest first. */
export async function listSubscriptionDeliveries(
  deps: Deps,
  workspaceId: string,
  subscriptionId: string,
  options: { status?: string | undefined; limit?: string | undefined },
): Promise<{ deliveries: DeliveryView[] }> {
  const status = readDeliveryStatus(options.status);
  const limit = readDeliveriesLimit(options.limit);
  const subscription = await requireSubscription(deps, workspaceId, subscriptionId);
  const deliveries = await listDeliveries(deps, subscription.workspace_id, {
    subscriptionId: subscription.id,
    status,
    limit,
    now: deps.clock(),
  });
  return { deliveries: deliveries.map(deliveryView) };
}

/**
 * `GET /subscriptions/{s}/deliveries` (docs/api.md#settings-api): a page of the deliveries `subscription deliveries` lists,
 * newest first; `next_cursor` names the last of the page when another follows (one more is read to know it).
 */
export async function pageOfDeliveries(
  deps: Deps,
  workspaceId: string,
  subscriptionId: string,
  options: { status?: DeliveryStatus | undefined; page: PageRequest },
): Promise<{ deliveries: DeliveryView[]; next_cursor: string | null }> {
  const subscription = await requireSubscription(deps, workspaceId, subscriptionId);
  const { limit, after } = options.page;
  const found = await listDeliveries(deps, subscription.workspace_id, {
    subscriptionId: subscription.id,
    status: options.status,
    limit: limit + 1,
    now: deps.clock(),
    afterId: after?.id,
  });
  const deliveries = found.slice(0, limit).map(deliveryView);
  const last = deliveries.at(-1);
  const binding = deliveriesBinding(subscription.workspace_id, subscription.id, options.status);
  return {
    deliveries,
    next_cursor: found.length > limit && last ? encodeCursor(binding, { at: last.created_at, id: last.id }) : null,
  };
}

/** A cursor is bound to the subscription and the status filter it was issued for. */
export const deliveriesBinding = (
  workspaceId: string,
  subscriptionId: string,
  status: DeliveryStatus | undefined,
): CursorBinding => ({ list: 'deliveries', workspaceId, subscriptionId, status: status ?? '' });

async function requireSubscription(deps: Deps, workspaceId: string, subscriptionId: string): Promise<SubscriptionItem> {
  const workspace = await requireWorkspace(deps, workspaceId);
  const id = checkedId('subscription', subscriptionId);
  const subscription = await store.getSubscription(deps, workspace.id, id);
  if (!subscription) throw notFoundId('subscription', subscriptionId);
  return subscription;
}
