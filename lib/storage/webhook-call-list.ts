import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { stillKept, stillKeptFilter } from './expiring-items';
import { keys } from './table-items';
import { queryNewestFirst } from './expiring-items';
import type { WebhookCallItem } from './table-items';

/**
 * Access pattern "calls of a workspace, newest first": a Query of the workspace's journal
 * partition read backwards (ids are time-ordered), strongly consistent, without the entries past
 * their `expires_at` that TTL has not removed yet (lib/storage/expiring-items.ts); `failed` keeps the calls
 * answered with an error (status 400 or more), read on until `limit` are found; `afterId`, from the
 * call after that one (a page of the settings API). Expired entries
 * sit at the partition's old end, so without `failed` each page asks for just what is missing.
 */
export function listWebhookCalls(
  store: Store,
  workspaceId: string,
  options: { failed: boolean; limit: number; now: Date; afterId?: string | undefined },
): Promise<WebhookCallItem[]> {
  const kept = stillKeptFilter(options.now);
  return queryNewestFirst<WebhookCallItem>(
    store,
    {
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: options.failed ? `${kept.expression} AND #status >= :error` : kept.expression,
      ExpressionAttributeNames: { ...kept.names, ...(options.failed ? { '#status': 'status' } : {}) },
      ExpressionAttributeValues: {
        ':pk': keys.webhookCallsPk(workspaceId),
        ...kept.values,
        ...(options.failed ? { ':error': 400 } : {}),
      },
      filtered: options.failed,
    },
    options.limit,
    options.afterId === undefined ? undefined : keys.webhookCall(workspaceId, options.afterId),
  );
}

/**
 * Access pattern "one call by id": GetItem, strongly consistent; another workspace's call, or one
 * past its `expires_at` (lib/storage/expiring-items.ts), is not found.
 */
export async function getWebhookCall(
  store: Store,
  workspaceId: string,
  callId: string,
  now: Date,
): Promise<WebhookCallItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.webhookCall(workspaceId, callId), ConsistentRead: true }),
  );
  const call = Item as WebhookCallItem | undefined;
  return call && stillKept(call, now) ? call : undefined;
}
