import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import type { Deps, SecretsDeps } from '../deps';
import { ConflictError, InvalidInputError } from '../domain/errors';
import { deliveryView, type DeliveryView } from '../domain/events/delivery-view';
import type { DeliveryQueue, EventDeps, NetworkPolicy } from '../domain/events/ports';
import { checkRedeliverable, redeliver } from '../domain/events/redeliver';
import { rotationOverlapMs } from '../domain/events/signing';
import { checkEventTypes, checkSubscriptionUrl, type Checked } from '../domain/events/subscription-url';
import { messages } from '../messages';
import { listDeliveries } from '../storage/delivery-list';
import { readDeliveryWithSubscription } from '../storage/delivery-attempts';
import { encodeCursor, type CursorBinding } from '../http/cursor';
import type { PageRequest } from '../storage/prospect-pages';
import type { DeliveryStatus } from '../domain/model';
import type { StoredSubscriptionItem, SubscriptionItem } from '../storage/event-items';
import * as store from '../storage/subscriptions';
import { listWorkspaces } from '../storage/workspaces';
import { commandLine, newAuditEntry, type ActingMemberId } from '../domain/audit';
import { recordAudit } from './audit';
import { AdminInputError } from './errors';
import { checkedId, notFoundId } from './ids';
import { requireWorkspace } from './workspace';

/**
 * The admin side of outbound events (docs/api.md#outbound-events): a workspace's subscriptions and the
 * deliveries made for them. Every use case first checks the workspace exists; a subscription or
 * delivery of another workspace is unknown, as is one that never existed.
 */

export type CreatedSubscription = { id: string; url: string; events: string[]; secret: string };
export type SubscriptionView = Pick<SubscriptionItem, 'id' | 'url' | 'events' | 'active' | 'created_at'>;

/** `subscription deliveries --limit`: 1 to this many, 100 when absent. */
export const maxDeliveriesListed = 1000;
export const defaultDeliveriesListed = 100;

const deliveryStatuses: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

/** The Standard Webhooks form: `whsec_` and the base64 of 32 random bytes, the HMAC key. */
const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** A refused URL or event type: 400 naming the field through the settings API, exit 2 on the command line. */
const accepted = <T>(checked: Checked<T>, field: 'url' | 'events'): T => {
  if (!checked.ok) throw new InvalidInputError(checked.reason, { field, message: checked.reason });
  return checked.value;
};

/** Never a secret: one is printed once, by `subscription create` or `rotate-secret`. */
const subscriptionView = (item: StoredSubscriptionItem): SubscriptionView => ({
  id: item.id,
  url: item.url,
  events: item.events,
  active: item.active,
  created_at: item.created_at,
});

/**
 * `subscription create`: an active subscription; its secret is returned here only. `actingMemberId`,
 * here and below: the member acting through the settings API (absent: the command line).
 */
export async function createSubscription(
  deps: SecretsDeps,
  input: {
    workspaceId: string;
    url: string;
    events?: string | undefined;
    network: NetworkPolicy;
    actingMemberId?: ActingMemberId;
  },
): Promise<CreatedSubscription> {
  const url = accepted(checkSubscriptionUrl(input.url, input.network), 'url');
  const events = accepted(checkEventTypes(input.events), 'events');
  const workspace = await requireWorkspace(deps, input.workspaceId);
  const subscription = {
    id: deps.newId(),
    workspace_id: workspace.id,
    url,
    events,
    active: true,
    created_at: deps.clock().toISOString(),
  };
  const secret = newSigningSecret();
  const audit = newAuditEntry(deps.clock(), {
    workspaceId: workspace.id,
    memberId: input.actingMemberId ?? commandLine,
    action: 'subscription.created',
    targetId: subscription.id,
    summary: messages.audit.subscriptionCreated(new URL(url).host),
  });
  await store.createSubscription(deps, subscription, secret, audit);
  return { id: subscription.id, url, events, secret };
}

/**
 * `POST /subscriptions` (docs/api.md#settings-api): `{ url, events? }`, the event types a list (the command line's
 * `--events a,b`, so no type holds a comma); the URL and the types are checked by `createSubscription`.
 */
export const newSubscriptionSchema = z.strictObject({
  url: z.string(),
  events: z.optional(z.array(z.string().check(z.regex(/^[^,]*$/)))),
});

/** `PATCH /subscriptions/{s}`: `{ active }`. */
export const subscriptionActivationSchema = z.strictObject({ active: z.boolean() });

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

/** `subscription enable` / `disable`: events written while it is off are never sent. */
export async function setSubscriptionActive(
  deps: Deps,
  workspaceId: string,
  subscriptionId: string,
  active: boolean,
  actingMemberId: ActingMemberId = commandLine,
): Promise<{ id: string; active: boolean }> {
  const workspace = await requireWorkspace(deps, workspaceId);
  const id = checkedId('subscription', subscriptionId);
  const audit = newAuditEntry(deps.clock(), {
    workspaceId: workspace.id,
    memberId: actingMemberId,
    action: active ? 'subscription.enabled' : 'subscription.disabled',
    targetId: id,
    summary: active ? messages.audit.subscriptionEnabled : messages.audit.subscriptionDisabled,
  });
  if (!(await store.setSubscriptionActive(deps, { workspaceId: workspace.id, id, active }, audit))) {
    throw notFoundId('subscription', subscriptionId);
  }
  return { id, active };
}

/** `subscription delete`: its pending deliveries find no subscription and stop; all expire with their TTL. */
export async function deleteSubscription(
  deps: SecretsDeps,
  workspaceId: string,
  subscriptionId: string,
  actingMemberId: ActingMemberId = commandLine,
): Promise<{ id: string; deleted: true }> {
  const workspace = await requireWorkspace(deps, workspaceId);
  const id = checkedId('subscription', subscriptionId);
  const audit = newAuditEntry(deps.clock(), {
    workspaceId: workspace.id,
    memberId: actingMemberId,
    action: 'subscription.deleted',
    targetId: id,
    summary: messages.audit.subscriptionDeleted,
  });
  if (!(await store.deleteSubscription(deps, workspace.id, id, audit, deps.clock())))
    throw notFoundId('subscription', subscriptionId);
  return { id, deleted: true };
}

/**
 * `subscription rotate-secret` (docs/api.md#outbound-events): a new secret, returned here only. For 24 hours every
 * delivery carries two signatures, the replaced secret's and the new one's, then the new one's only;
 * a rotation within those 24 hours drops the oldest (lib/storage/subscriptions.ts, one conditional
 * update, no read). A subscription whose secret an earlier version left in `WS#` is refused until
 * `subscription migrate-secrets` has moved it.
 */
export async function rotateSubscriptionSecret(
  deps: SecretsDeps,
  workspaceId: string,
  subscriptionId: string,
  actingMemberId: ActingMemberId = commandLine,
): Promise<{ id: string; secret: string }> {
  const workspace = await requireWorkspace(deps, workspaceId);
  const id = checkedId('subscription', subscriptionId);
  const secret = newSigningSecret();
  const at = deps.clock();
  const rotation = { secret, at, previousUntil: new Date(at.getTime() + rotationOverlapMs) };
  const audit = newAuditEntry(deps.clock(), {
    workspaceId: workspace.id,
    memberId: actingMemberId,
    action: 'subscription.secret_rotated',
    targetId: id,
    summary: messages.audit.subscriptionSecretRotated,
  });
  if (await store.rotateSigningSecret(deps, workspace.id, id, rotation, audit)) return { id, secret };
  if (!(await store.getSubscription(deps, workspace.id, id))) throw notFoundId('subscription', subscriptionId);
  throw new ConflictError(messages.admin.subscription.secretNotMoved(id));
}

export type MovedSecret = { workspace_id: string; id: string };

/**
 * `subscription migrate-secrets`: moves the secret of every subscription an earlier version wrote
 * with its secret on the `WS#` item (readable by the routes, and carried by the change stream) to
 * its item in the signing-secrets table, for every workspace or the one named (docs/data-model.md,
 * "Signing secrets"). Run once after deploying this version; a run again moves nothing more.
 */
export async function moveLegacySecrets(
  deps: SecretsDeps,
  workspaceId: string | undefined,
): Promise<{ migrated: MovedSecret[] }> {
  const workspaceIds =
    workspaceId === undefined
      ? (await listWorkspaces(deps)).map((workspace) => workspace.id)
      : [(await requireWorkspace(deps, workspaceId)).id];
  const migrated: MovedSecret[] = [];
  for (const id of workspaceIds) {
    for (const item of await store.listSubscriptions(deps, id)) {
      if (item.secret === undefined) continue;
      if (await store.moveLegacySecret(deps, { ...item, secret: item.secret })) {
        migrated.push({ workspace_id: item.workspace_id, id: item.id });
      }
    }
  }
  return { migrated };
}

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
 * `GET /subscriptions/{s}/deliveries` (docs/api.md#settings-api): a page of the deliveries `subscription deliveries`
 * lists, newest first; `next_cursor` names the last of the page when another follows (one more is read to know it).
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
 * which shares no queue with `npm start`'s, and prints the delivery once the event is sent
 * (docs/api.md#outbound-events). An unknown delivery, a deleted or disabled subscription are the administrator's to
 * correct (exit 2). The attempt is a POST and the writes that record it: its audit entry is written right after them
 * (docs/api.md#audit-log).
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

async function requireSubscription(deps: Deps, workspaceId: string, subscriptionId: string): Promise<SubscriptionItem> {
  const workspace = await requireWorkspace(deps, workspaceId);
  const id = checkedId('subscription', subscriptionId);
  const subscription = await store.getSubscription(deps, workspace.id, id);
  if (!subscription) throw notFoundId('subscription', subscriptionId);
  return subscription;
}
