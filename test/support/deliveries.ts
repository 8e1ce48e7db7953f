import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Delivery } from '../../lib/domain/model';
import { productionDeps, type Store } from '../../lib/storage/client';
import { eventItems, type DeliveryItem } from '../../lib/storage/event-items';
import { keys, type WebhookCallItem } from '../../lib/storage/table-items';
import { readPartition } from './table-reads';

/**
 * A delivery of a subscription given up after its eighth attempt (503), as the stream handler and the delivery
 * function leave one, written in the test run's table: something to list and redeliver. Its id.
 */
export async function plantFailedDelivery(workspaceId: string, subscriptionId: string): Promise<string> {
  const id = randomUUID();
  const deps = productionDeps();
  await deps.db.send(
    new PutCommand({
      TableName: deps.tableName,
      Item: eventItems.delivery({
        id,
        workspace_id: workspaceId,
        subscription_id: subscriptionId,
        event_id: randomUUID(),
        event_type: 'prospect.created',
        payload: '{}',
        status: 'failed',
        step: 7,
        attempts: 8,
        last_status_code: 503,
        last_error: 'Réponse 503',
        next_attempt_at: null,
        created_at: new Date().toISOString(),
        expires_at: Math.floor(Date.now() / 1000) + 86_400,
      }),
    }),
  );
  deps.db.destroy();
  return id;
}

/**
 * A delivered event about `data` (`data.prospect` or `data.candidate`), as the stream handler and the delivery function
 * leave one, written in `store`'s table: a copy of a person for their export and their erasure. Its id.
 */
export async function plantDelivery(
  store: Store,
  workspaceId: string,
  event: { type: string; data: Record<string, unknown>; expiresAt?: number },
): Promise<string> {
  const id = randomUUID();
  const delivery: Delivery = {
    id,
    workspace_id: workspaceId,
    subscription_id: randomUUID(),
    event_id: randomUUID(),
    event_type: event.type,
    payload: JSON.stringify({ type: event.type, timestamp: new Date().toISOString(), data: event.data }),
    status: 'delivered',
    step: 0,
    attempts: 1,
    last_status_code: 204,
    last_error: null,
    next_attempt_at: null,
    created_at: new Date().toISOString(),
    expires_at: event.expiresAt ?? Math.floor(Date.now() / 1000) + 86_400,
  };
  await store.db.send(new PutCommand({ TableName: store.tableName, Item: eventItems.delivery(delivery) }));
  return id;
}

/**
 * What the table keeps of a person outside their record's partition, read independently of the export's own readers:
 * the calls that name them or failed with a body holding one of `contacts` (as written there), the deliveries whose
 * event is about them; those still kept.
 */
export async function copiesInTable(
  store: Store,
  workspaceId: string,
  person: { kind: 'prospect' | 'candidate'; id: string; contacts: readonly string[] },
) {
  const now = Math.floor(Date.now() / 1000);
  const calls = (await readPartition<WebhookCallItem>(store, keys.webhookCallsPk(workspaceId))).filter(
    (call) =>
      call.expires_at > now &&
      (call.record_id === person.id ||
        (call.status >= 400 &&
          person.contacts.some((contact) => (call.body ?? '').toLowerCase().includes(contact.toLowerCase())))),
  );
  const deliveries = (await readPartition<DeliveryItem>(store, keys.deliveriesPk(workspaceId))).filter((delivery) => {
    const { data } = JSON.parse(delivery.payload) as { data: Record<string, { id: string } | undefined> };
    return data[person.kind]?.id === person.id && delivery.expires_at > now;
  });
  return { calls, deliveries };
}
