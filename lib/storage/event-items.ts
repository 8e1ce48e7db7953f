import type { Delivery, SigningSecrets, Subscription } from '../domain/model';
import { keys } from './table-items';

/**
 * Stored shapes of outbound events (docs/data-model.md, "Outbound events"): the domain's model
 * (lib/domain/model.ts) with keys. Event types are the domain's (lib/domain/events/event-types.ts);
 * storage keeps them as the strings they are.
 */

/**
 * A subscription as stored: in its workspace's configuration partition, `WS#<ws>` / `SUB#<id>`, which
 * the routes and the stream handler read, and which the change stream carries; so it holds no secret
 * (its signing secrets are in a table of their own).
 */
export type SubscriptionItem = Subscription & {
  pk: string;
  sk: string;
  type: 'subscription';
  /**
   * Set when the subscription is deleted: no function may delete an item of the `WS#` partition (only the
   * prefixes of `deletablePrefixes` may be, lib/storage/table-items.ts), so a deleted subscription is marked,
   * never read again (`liveSubscription`), and removed by TTL (`expires_at`, set to the deletion's second).
   */
  deleted_at?: string;
  expires_at?: number;
};

/** The subscription unless it was deleted: every reader of subscription items goes through this. */
export const liveSubscription = <T extends SubscriptionItem>(item: T | undefined): T | undefined =>
  item === undefined || item.deleted_at !== undefined ? undefined : item;

/**
 * A subscription written before signing secrets had a table of their own: its `secret` is still
 * on the `WS#` item until `subscription migrate-secrets` moves it (docs/data-model.md, "Signing secrets").
 */
export type StoredSubscriptionItem = SubscriptionItem & { secret?: string };

/**
 * The signing secrets of one subscription: in the signing-secrets table, under the subscription's
 * key (infra/cdk/secrets-table-definition.ts); only the delivery function may read that table
 * (`secretsTableActions` in infra/cdk/route-grants.ts); the admin command line and the settings routes that create, rotate or
 * delete a secret write it (`RouteGrants.secretsTableActions`, writes only).
 */
export type SigningSecretsItem = SigningSecrets & { pk: string; sk: string; type: 'signing_secrets' };

/** A delivery as stored, `DELIVERY#<ws>` / `DELIVERY#<id>`. */
export type DeliveryItem = Delivery & {
  pk: string;
  sk: string;
  type: 'delivery';
  /**
   * Index gsi4, "pending deliveries by next attempt", set while `pending` only (the sweep's
   * index, sparse): `keys.pendingDeliveries(id)` and the next attempt's time.
   */
  gsi4pk?: string;
  gsi4sk?: string;
};

export const eventItems = {
  subscription: (subscription: Subscription): SubscriptionItem => ({
    ...keys.subscription(subscription.workspace_id, subscription.id),
    type: 'subscription',
    ...subscription,
  }),
  signingSecrets: (secrets: SigningSecrets): SigningSecretsItem => ({
    ...keys.signingSecrets(secrets.workspace_id, secrets.subscription_id),
    type: 'signing_secrets',
    ...secrets,
  }),
  delivery: (delivery: Delivery): DeliveryItem => ({
    ...keys.delivery(delivery.workspace_id, delivery.id),
    type: 'delivery',
    ...delivery,
    ...(delivery.status === 'pending' && delivery.next_attempt_at !== null
      ? {
          gsi4pk: keys.pendingDeliveries(delivery.id),
          gsi4sk: keys.pendingDeliveryDue(delivery.next_attempt_at),
        }
      : {}),
  }),
};
