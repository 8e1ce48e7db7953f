import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { keys } from './keys';
import { newestFirst } from './newest-first';
import { items, type WebhookCall, type WebhookCallItem } from './records';
import { putIfAbsent } from './transactions';

/**
 * The webhook call journal (docs/data-model.md, "Webhook call journal"). A call that writes
 * something journals itself inside that write's transaction (`journalEntryPut`); a call that
 * writes nothing else (a refusal, an error, a replayed answer) has the journal entry as its one
 * write (`journalWebhookCall`).
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

/**
 * Access pattern "calls of a workspace, newest first": a Query of the workspace's journal
 * partition read backwards (ids are time-ordered), strongly consistent; `failed` keeps the calls
 * answered with an error (status 400 or more), read on until `limit` are found.
 */
export function listWebhookCalls(
  store: Store,
  workspaceId: string,
  options: { failed: boolean; limit: number },
): Promise<WebhookCallItem[]> {
  return newestFirst<WebhookCallItem>(
    store,
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: {
        ':pk': keys.webhookCallsPk(workspaceId),
        ...(options.failed ? { ':error': 400 } : {}),
      },
      ...(options.failed
        ? { FilterExpression: '#status >= :error', ExpressionAttributeNames: { '#status': 'status' } }
        : {}),
      filtered: options.failed,
    },
    options.limit,
  );
}

/** Access pattern "one call by id": GetItem, strongly consistent; another workspace's call is not found. */
export async function getWebhookCall(
  store: Store,
  workspaceId: string,
  callId: string,
): Promise<WebhookCallItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.webhookCall(workspaceId, callId), ConsistentRead: true }),
  );
  return Item as WebhookCallItem | undefined;
}
