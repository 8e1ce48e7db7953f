import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import type { Deps, SecretsDeps } from '../storage/client';
import { ConflictError, InvalidInputError } from '../domain/model';
import type { NetworkPolicy } from '../outbound/address-policy';
import { rotationOverlapMs } from '../domain/events/signing';
import { checkEventTypes, checkSubscriptionUrl, type Checked } from '../domain/events/subscription-url';
import { messages } from '../messages';
import * as store from '../storage/subscriptions';
import { getSubscription, listSubscriptions } from '../storage/subscription-reads';
import { listWorkspaces } from '../storage/workspace-config';
import { commandLine, newAuditEntry, type ActingMemberId, type AuditAction } from '../storage/audit-log';
import { checkedId, notFoundId, requireWorkspace } from './admin-input';
/**
 * The admin side of outbound events (docs/api.md#outbound-events): a workspace's subscriptions and the
 * deliveries made for them. Every use case first checks the workspace exists; a subscription or
 * delivery of another workspace is unknown, as is one that never existed.
 */

export type CreatedSubscription = { id: string; url: string; events: string[]; secret: string };
/** The Standard Webhooks form: `whsec_` and the base64 of 32 random bytes, the HMAC key. */
const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** A refused URL or event type: 400 naming the field through the settings API, exit 2 on the command line. */
const accepted = <T>(checked: Checked<T>, field: 'url' | 'events'): T => {
  if (!checked.ok) throw new InvalidInputError(checked.reason, { field, message: checked.reason });
  return checked.value;
};

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

/** `events` as `POST` and `PATCH /subscriptions` take it: a list of strings, none with a comma (see below). */
const eventTypeList = z.array(
  z.string(messages.rules.eventTypeList).check(z.regex(/^[^,]*$/, messages.rules.eventTypeList)),
  messages.rules.eventTypeList,
);

/**
 * `POST /subscriptions` (docs/api.md#settings-api): `{ url, events? }`, the event types a list (the command line's
 * `--events a,b`, so no type holds a comma); the URL and the types are checked by `createSubscription`.
 */
export const newSubscriptionSchema = z.strictObject({
  url: z.string(),
  events: z.optional(eventTypeList),
});

/** What `PATCH /subscriptions/{s}` may change, by member. */
const changeableParts = {
  active: z.optional(z.boolean(messages.rules.trueOrFalse)),
  events: z.optional(eventTypeList),
};

/**
 * `PATCH /subscriptions/{s}`: `{ active?, events? }`, at least one; `events` replaces the subscription's list (checked
 * by `changeSubscription` as `createSubscription` checks it: known types, at least one).
 */
export const subscriptionChangeSchema = z
  .strictObject(changeableParts)
  .check(
    z.refine(
      (body) => Object.keys(body).length > 0,
      messages.rules.oneSettingToChange(Object.keys(changeableParts).join(', ')),
    ),
  );

export type SubscriptionChange = { active?: boolean | undefined; events?: string[] | undefined };
export type SubscriptionState = { id: string; active: boolean; events: string[] };

/**
 * The change written, with one audit entry per part changed (`subscription.enabled` / `disabled`,
 * `subscription.events_changed` naming the types), in one transaction; the subscription's id, or a 404.
 */
async function writeChange(
  deps: Deps,
  workspaceId: string,
  subscriptionId: string,
  change: SubscriptionChange,
  actingMemberId: ActingMemberId,
): Promise<{ workspaceId: string; id: string }> {
  const events = change.events === undefined ? undefined : accepted(checkEventTypes(change.events.join(',')), 'events');
  const workspace = await requireWorkspace(deps, workspaceId);
  const id = checkedId('subscription', subscriptionId);
  const entry = (action: AuditAction, summary: string) =>
    newAuditEntry(deps.clock(), { workspaceId: workspace.id, memberId: actingMemberId, action, targetId: id, summary });
  const audits = [
    ...(change.active === undefined
      ? []
      : [
          change.active
            ? entry('subscription.enabled', messages.audit.subscriptionEnabled)
            : entry('subscription.disabled', messages.audit.subscriptionDisabled),
        ]),
    ...(events === undefined
      ? []
      : [entry('subscription.events_changed', messages.audit.subscriptionEventsChanged(events.join(', ')))]),
  ];
  const written = await store.changeSubscription(
    deps,
    { workspaceId: workspace.id, id, active: change.active, events },
    audits,
  );
  if (!written) throw notFoundId('subscription', subscriptionId);
  return { workspaceId: workspace.id, id };
}

/** `subscription enable` / `disable`: events written while it is off are never sent. */
export async function setSubscriptionActive(
  deps: Deps,
  workspaceId: string,
  subscriptionId: string,
  active: boolean,
  actingMemberId: ActingMemberId = commandLine,
): Promise<{ id: string; active: boolean }> {
  const { id } = await writeChange(deps, workspaceId, subscriptionId, { active }, actingMemberId);
  return { id, active };
}

/**
 * `PATCH /subscriptions/{s}` (docs/api.md#outbound-events): turns it on or off and/or replaces its event types (an
 * existing subscription takes a type added since it was created only so). The answer: the subscription as stored
 * now, read after the write. Events written while it listed a type keep their deliveries; from now on, only the
 * types listed make new ones.
 */
export async function changeSubscription(
  deps: Deps,
  input: { workspaceId: string; subscriptionId: string; change: SubscriptionChange; actingMemberId: ActingMemberId },
): Promise<SubscriptionState> {
  const written = await writeChange(deps, input.workspaceId, input.subscriptionId, input.change, input.actingMemberId);
  const stored = await getSubscription(deps, written.workspaceId, written.id);
  // Deleted between the write and the read: gone now, as a later call would say.
  if (stored === undefined) throw notFoundId('subscription', input.subscriptionId);
  return { id: stored.id, active: stored.active, events: stored.events };
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
  if (!(await getSubscription(deps, workspace.id, id))) throw notFoundId('subscription', subscriptionId);
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
    for (const item of await listSubscriptions(deps, id)) {
      if (item.secret === undefined) continue;
      if (await store.moveLegacySecret(deps, { ...item, secret: item.secret })) {
        migrated.push({ workspace_id: item.workspace_id, id: item.id });
      }
    }
  }
  return { migrated };
}
