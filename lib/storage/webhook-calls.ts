import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { keys, items } from './table-items';
import { putIfAbsent } from './conditional-writes';
import type { WebhookCall, WebhookRoute } from '../domain/model';

/**
 * The webhook call journal (docs/data-model.md, "Webhook call journal"), as the webhooks write it
 * (the admin reads it: lib/storage/webhook-call-list.ts). A call that writes
 * something journals itself inside that write's transaction (`journalEntryPut`); a call that
 * writes nothing else (a refusal, an error, a replayed answer) has the journal entry as its one
 * write (`journalWebhookCall`); a call refused for its token past the 10th of its minute is added
 * to that minute's counting entry instead (`countRefusedCall`, `countIntoEntry`).
 */
export const journalEntryPut = (store: Store, call: WebhookCall) => putIfAbsent(store, items.webhookCall(call));

/** The entry as the call's one write; the same id written twice (an SDK retry whose first answer was lost) is one entry. */
export async function journalWebhookCall(store: Store, call: WebhookCall): Promise<void> {
  try {
    await store.db.send(new PutCommand(journalEntryPut(store, call).Put));
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** The minute's counter outlives it by an hour; TTL only cleans up, the minute is in the key. */
const refusalCounterRetentionSeconds = 3600;

/**
 * Access pattern "calls refused for their token, per endpoint, route and minute": one UpdateItem
 * adds 1 and answers with the new value, the call's rank in its minute. ADD is applied atomically
 * by DynamoDB, so concurrent calls each get a rank of their own, without any read
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html,
 * "ADD"; the item is created by the first call of the minute).
 */
export async function countRefusedCall(
  store: Store,
  refusal: { workspaceId: string; endpointId: string; route: WebhookRoute; minute: string; minuteEnd: Date },
): Promise<number> {
  const { Attributes } = await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.refusedCalls(refusal.workspaceId, refusal.endpointId, refusal.route, refusal.minute),
      UpdateExpression: 'ADD refused :one SET expires_at = if_not_exists(expires_at, :expiresAt)',
      ExpressionAttributeValues: {
        ':one': 1,
        ':expiresAt': Math.floor(refusal.minuteEnd.getTime() / 1000) + refusalCounterRetentionSeconds,
      },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.refused);
}

/**
 * Access pattern "count a refusal into its minute's counting entry": one UpdateItem on the entry's
 * derived key adds 1 to `count`; every other attribute is set only if absent (`if_not_exists`), so
 * the first call to reach it creates it with its own `at` and `request_id`, and the later ones only
 * count. The entry is a journal entry like the others: listed at once, read by its id.
 */
export async function countIntoEntry(store: Store, entry: Omit<WebhookCall, 'count'>): Promise<void> {
  const { pk, sk, ...attributes } = items.webhookCall(entry);
  const names = Object.keys(attributes);
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { pk, sk },
      UpdateExpression: `SET ${names.map((_, i) => `#a${i} = if_not_exists(#a${i}, :a${i})`).join(', ')} ADD #count :one`,
      ExpressionAttributeNames: {
        ...Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
        '#count': 'count',
      },
      ExpressionAttributeValues: {
        ...Object.fromEntries(names.map((name, i) => [`:a${i}`, attributes[name as keyof typeof attributes]])),
        ':one': 1,
      },
    }),
  );
}
