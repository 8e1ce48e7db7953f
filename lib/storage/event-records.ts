import { keys } from './keys';

/**
 * Stored shapes of outbound events (docs/data-model.md, "Outbound events"). Event types are the
 * domain's (lib/domain/events/event-types.ts); storage keeps them as the strings they are.
 */

/**
 * A subscription of a workspace: in its configuration partition, `WS#<ws>` / `SUB#<id>`, which the
 * routes and the stream handler read, and which the change stream carries; so it holds no secret
 * (its signing secrets are below, in a table of their own).
 */
export type SubscriptionItem = {
  pk: string;
  sk: string;
  type: 'subscription';
  id: string;
  workspace_id: string;
  url: string;
  events: string[];
  active: boolean;
  created_at: string;
};

/**
 * A subscription written before signing secrets had a table of their own: its `secret` is still
 * on the `WS#` item until `subscription migrate-secrets` moves it (docs/data-model.md, "Signing secrets").
 */
export type StoredSubscriptionItem = SubscriptionItem & { secret?: string };

/**
 * The signing secrets of one subscription: in the signing-secrets table, under the subscription's
 * key (lib/storage/secrets-table.ts); only the delivery function may read that table
 * (`secretsTableActions` in lib/routes.ts), and the admin command line writes it.
 */
export type SigningSecretsItem = {
  pk: string;
  sk: string;
  type: 'signing_secrets';
  workspace_id: string;
  subscription_id: string;
  /** `whsec_…`: the Standard Webhooks secret that signs every delivery, printed once, never listed. */
  secret: string;
  /** The secret the last rotation replaced: it signs too, until `previous_until` (ISO 8601). */
  previous_secret?: string;
  previous_until?: string;
  rotated_at?: string;
};

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * One event for one subscription, `DELIVERY#<ws>` / `DELIVERY#<id>`. Its id is derived from the
 * event id and the subscription id (lib/ids.ts `derivedTimeOrderedId`), so it is created once
 * however often the stream delivers the write. TTL 30 days.
 */
export type DeliveryItem = {
  pk: string;
  sk: string;
  type: 'delivery';
  id: string;
  workspace_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  /** The exact JSON body POSTed (`{ type, timestamp, data }`), the same bytes on every attempt. */
  payload: string;
  status: DeliveryStatus;
  /** Every attempt made, redeliveries included. */
  attempts: number;
  /** The step of the retry schedule the next scheduled attempt runs (lib/domain/events/retry-schedule.ts). */
  step: number;
  /** An attempt in progress: its step and start, so a duplicate queue message does not POST twice. */
  claimed_step?: number;
  claimed_at?: string;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  expires_at: number;
  /**
   * Index gsi4, "pending deliveries by next attempt", set while `pending` only (the sweep's
   * index, sparse): `keys.pendingDeliveries(id)` and the next attempt's time.
   */
  gsi4pk?: string;
  gsi4sk?: string;
};

export type Subscription = Omit<SubscriptionItem, 'pk' | 'sk' | 'type'>;
export type Delivery = Omit<DeliveryItem, 'pk' | 'sk' | 'type' | 'gsi4pk' | 'gsi4sk'>;
export type SigningSecrets = Omit<SigningSecretsItem, 'pk' | 'sk' | 'type'>;

export const eventRecords = {
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
