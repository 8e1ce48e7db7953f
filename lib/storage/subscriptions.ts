import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { secretsTableOf, type SecretsStore, type Store } from './client';
import { eventItems, type SigningSecretsItem, type SubscriptionItem } from './event-items';
import { epochSeconds, keys } from './table-items';
import type { Subscription } from '../domain/model';
import { putIfAbsent, transactUnlessRefused } from './conditional-writes';
import { auditPut, type AuditEntry } from './audit-log';

/**
 * A workspace's subscriptions (docs/data-model.md, "Outbound events"): items `WS#<ws>` / `SUB#<id>`
 * in its configuration partition, and their signing secrets under the same key in the
 * signing-secrets table ("Signing secrets"), written only by the admin command line and the settings
 * routes that create, rotate or delete a subscription's secret (read by the delivery function alone).
 */

/**
 * A new subscription and its signing secret, in one transaction across the two tables ("These
 * actions can target items in different tables, but not in different AWS accounts or Regions",
 * "TransactWriteItems", DynamoDB API Reference:
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html), so
 * neither exists without the other; each put refuses to overwrite an item of the same id. The audit
 * entry (never the secret) is one more item of it, as it is of every change below (docs/api.md#audit-log).
 */
export async function createSubscription(
  store: SecretsStore,
  subscription: Subscription,
  secret: string,
  audit: AuditEntry,
): Promise<void> {
  const secrets = eventItems.signingSecrets({
    workspace_id: subscription.workspace_id,
    subscription_id: subscription.id,
    secret,
  });
  await store.db.send(
    new TransactWriteCommand({
      TransactItems: [
        createdByUpdate(store, eventItems.subscription(subscription)),
        putIfAbsent(secretsTableOf(store), secrets),
        auditPut(store, audit),
      ],
    }),
  );
}

/**
 * The subscription written by an UpdateItem that creates it ("Edits an existing item's attributes, or adds a new
 * item to the table if it does not already exist", "UpdateItem", DynamoDB API Reference:
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html), refusing an item of the
 * same key: no function is granted PutItem on `WS#`, which could replace the workspace's configuration item
 * (IAM tells items apart by partition key only).
 */
function createdByUpdate(store: Store, item: SubscriptionItem) {
  const { pk, sk, ...attributes } = item;
  const names = Object.keys(attributes);
  return {
    Update: {
      TableName: store.tableName,
      Key: { pk, sk },
      UpdateExpression: `SET ${names.map((_, index) => `#a${index} = :a${index}`).join(', ')}`,
      ConditionExpression: 'attribute_not_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#a${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(
        names.map((name, index) => [`:a${index}`, attributes[name as keyof typeof attributes]]),
      ),
    },
  };
}

/**
 * Changes a subscription: turns it on or off (`active`), replaces its event types (`events`), or both, with its
 * audit entries (one per part changed), in one transaction; false when it does not exist (the condition keeps the
 * update from creating an item: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ConditionExpressions.html).
 * `events` is written whole; the fan-out reads it for each batch of the change stream (lib/domain/events/fan-out.ts):
 * the deliveries already made stay, the writes it reads from then on are sent by the new list.
 */
export async function changeSubscription(
  store: Store,
  subscription: { workspaceId: string; id: string; active?: boolean | undefined; events?: string[] | undefined },
  audits: AuditEntry[],
): Promise<boolean> {
  const parts = Object.entries({ active: subscription.active, events: subscription.events }).filter(
    ([, value]) => value !== undefined,
  );
  if (parts.length === 0) throw new Error('changeSubscription: nothing to change');
  return transactUnlessRefused(
    store,
    [
      {
        Update: {
          TableName: store.tableName,
          Key: keys.subscription(subscription.workspaceId, subscription.id),
          UpdateExpression: `SET ${parts.map(([name]) => `#${name} = :${name}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
          ExpressionAttributeNames: Object.fromEntries(parts.map(([name]) => [`#${name}`, name])),
          ExpressionAttributeValues: Object.fromEntries(parts.map(([name, value]) => [`:${name}`, value])),
        },
      },
      ...audits.map((audit) => auditPut(store, audit)),
    ],
    0,
  );
}

/**
 * Deletes a subscription and its signing secrets in one transaction across the two tables (its
 * deliveries expire with their TTL); false when the subscription did not exist or was deleted. The
 * subscription, in the `WS#` partition no function may delete from, is marked deleted (never read again:
 * `liveSubscription`) and expires now: "DynamoDB typically deletes expired items within two days of
 * expiration" ("UpdateTimeToLive", DynamoDB API Reference,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTimeToLive.html). Its secrets are
 * deleted at once. One written before the secrets table existed has no secrets item: an unconditional delete
 * of an absent item is no error ("Unless you specify conditions, the DeleteItem is an idempotent operation",
 * "DeleteItem", DynamoDB API Reference).
 */
export async function deleteSubscription(
  store: SecretsStore,
  workspaceId: string,
  subscriptionId: string,
  audit: AuditEntry,
  now: Date,
): Promise<boolean> {
  return transactUnlessRefused(
    store,
    [
      {
        Update: {
          TableName: store.tableName,
          Key: keys.subscription(workspaceId, subscriptionId),
          UpdateExpression: 'SET active = :inactive, deleted_at = :now, expires_at = :expires REMOVE secret',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
          ExpressionAttributeValues: {
            ':inactive': false,
            ':now': now.toISOString(),
            ':expires': epochSeconds(now),
          },
        },
      },
      { Delete: { TableName: store.secretsTableName, Key: keys.signingSecrets(workspaceId, subscriptionId) } },
      auditPut(store, audit),
    ],
    0,
  );
}

/**
 * A new signing secret: the current one becomes `previous_secret`, signing beside it until
 * `previousUntil`; whatever `previous_secret` held is dropped, so two secrets at most ever sign.
 * One update whose new values DynamoDB computes from the stored item (an update expression's
 * operand may be a path: "Using update expressions in DynamoDB",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html):
 * no read, so two rotations at once apply one after the other. With its audit entry, in one
 * transaction across the two tables. False when the subscription has no secrets item (unknown, or
 * its secret not yet moved out of `WS#`); the condition keeps the update from creating one.
 */
export async function rotateSigningSecret(
  store: SecretsStore,
  workspaceId: string,
  subscriptionId: string,
  rotation: { secret: string; at: Date; previousUntil: Date },
  audit: AuditEntry,
): Promise<boolean> {
  return transactUnlessRefused(
    store,
    [
      {
        Update: {
          TableName: store.secretsTableName,
          Key: keys.signingSecrets(workspaceId, subscriptionId),
          UpdateExpression: 'SET previous_secret = secret, secret = :secret, previous_until = :until, rotated_at = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: {
            ':secret': rotation.secret,
            ':until': rotation.previousUntil.toISOString(),
            ':at': rotation.at.toISOString(),
          },
        },
      },
      auditPut(store, audit),
    ],
    0,
  );
}

/**
 * Moves the secret of a subscription written before the secrets table existed out of `WS#`, in one
 * transaction across the two tables: its secrets item gets it (an UpdateItem creates the item when
 * absent; `if_not_exists` keeps a secret already there), and the `WS#` item loses it on the
 * condition that it still holds the secret read. False when that condition failed (deleted or
 * moved meanwhile): nothing changed.
 */
export async function moveLegacySecret(
  store: SecretsStore,
  legacy: SubscriptionItem & { secret: string },
): Promise<boolean> {
  return transactUnlessRefused(
    store,
    [
      {
        Update: {
          TableName: store.secretsTableName,
          Key: keys.signingSecrets(legacy.workspace_id, legacy.id),
          UpdateExpression:
            'SET #type = :type, workspace_id = :workspace, subscription_id = :subscription, secret = if_not_exists(secret, :secret)',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':type': 'signing_secrets' satisfies SigningSecretsItem['type'],
            ':workspace': legacy.workspace_id,
            ':subscription': legacy.id,
            ':secret': legacy.secret,
          },
        },
      },
      {
        Update: {
          TableName: store.tableName,
          Key: keys.subscription(legacy.workspace_id, legacy.id),
          UpdateExpression: 'REMOVE secret',
          ConditionExpression: 'secret = :secret',
          ExpressionAttributeValues: { ':secret': legacy.secret },
        },
      },
    ],
    1,
  );
}
