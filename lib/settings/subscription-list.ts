import type { Deps } from '../storage/client';
import type { StoredSubscriptionItem, SubscriptionItem } from '../storage/event-items';
import * as store from '../storage/subscription-reads';
import { requireWorkspace } from './admin-input';

/** `subscription list` and `GET /subscriptions`: what a listing shows of a subscription, never its secret nor its deliveries. */
export type SubscriptionView = Pick<SubscriptionItem, 'id' | 'url' | 'events' | 'active' | 'created_at'>;

/** Never a secret: one is printed once, by `subscription create` or `rotate-secret`. */
const subscriptionView = (item: StoredSubscriptionItem): SubscriptionView => ({
  id: item.id,
  url: item.url,
  events: item.events,
  active: item.active,
  created_at: item.created_at,
});

/** `subscription list`: oldest first. */
export async function listSubscriptions(
  deps: Deps,
  workspaceId: string,
): Promise<{ subscriptions: SubscriptionView[] }> {
  const workspace = await requireWorkspace(deps, workspaceId);
  const items = await store.listSubscriptions(deps, workspace.id);
  items.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  return { subscriptions: items.map(subscriptionView) };
}
