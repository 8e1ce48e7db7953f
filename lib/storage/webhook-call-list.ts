import { batchGetItems, sameKey, type Store } from './client';
import { stillKept, stillKeptFilter, timeOrderedIdPrefix, keys, type WebhookCallItem } from './table-items';
import { queryNewestFirst } from './newest-first';
import type { WorkspaceItem } from './workspace-config';

/**
 * Access pattern "calls of a workspace, newest first": a Query of the workspace's journal
 * partition read backwards (ids are time-ordered), strongly consistent, without the entries past
 * their `expires_at` that TTL has not removed yet (lib/storage/table-items.ts); `failed` keeps the calls
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
 * Access pattern "one call by id, with its workspace": the workspace's configuration item and the call in one
 * BatchGetItem, both strongly consistent; each absent when not found, another workspace's call, or one past its `expires_at`
 * (lib/storage/table-items.ts), is not found.
 */
export async function getWorkspaceAndCall(
  store: Store,
  workspaceId: string,
  callId: string,
  now: Date,
): Promise<{ workspace: WorkspaceItem | undefined; call: WebhookCallItem | undefined }> {
  const [workspaceKey, callKey] = [keys.workspace(workspaceId), keys.webhookCall(workspaceId, callId)];
  const found = await batchGetItems(store, [workspaceKey, callKey], { consistentRead: true });
  const call = found.find((item) => sameKey(item, callKey)) as WebhookCallItem | undefined;
  return {
    workspace: found.find((item) => sameKey(item, workspaceKey)) as WorkspaceItem | undefined,
    call: call && stillKept(call, now) ? call : undefined,
  };
}

/**
 * Access pattern "a call by its request id, journaled since a time": a Query of the workspace's journal partition
 * from the first id of that millisecond (ids are time-ordered, lib/storage/table-items.ts), newest first, filtered on `request_id`,
 * strongly consistent. It reads the calls journaled since then only: the replay's own, and any landing meanwhile.
 */
export async function findCallByRequestId(
  store: Store,
  workspaceId: string,
  call: { requestId: string; since: Date },
  now: Date,
): Promise<WebhookCallItem | undefined> {
  const kept = stillKeptFilter(now);
  const [found] = await queryNewestFirst<WebhookCallItem>(
    store,
    {
      KeyConditionExpression: 'pk = :pk AND sk >= :since',
      FilterExpression: `${kept.expression} AND request_id = :request`,
      ExpressionAttributeNames: kept.names,
      ExpressionAttributeValues: {
        ':pk': keys.webhookCallsPk(workspaceId),
        ':since': keys.webhookCall(workspaceId, timeOrderedIdPrefix(call.since)).sk,
        ':request': call.requestId,
        ...kept.values,
      },
      filtered: true,
    },
    1,
  );
  return found;
}
