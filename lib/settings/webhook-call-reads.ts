import type { Deps } from '../storage/client';
import { encodeCursor, type CursorBinding } from '../http/query-parameters';
import type { PageRequest, WebhookCallItem } from '../storage/table-items';
import { callDocument, callView, type CallDocument, type WebhookCallView } from '../domain/webhook-call-view';
import { messages } from '../messages';
import { getWorkspaceAndCall, listWebhookCalls } from '../storage/webhook-call-list';
import type { WorkspaceItem } from '../storage/workspace-config';
import { AdminInputError, checkedId, notFoundId, unknownId, requireWorkspace } from './admin-input';

/** `webhook calls --limit`: 1 to this many, 50 when absent. */
export const maxCallsListed = 1000;
export const defaultCallsListed = 50;

/** `--limit` as typed: a whole number from 1 to 1000; absent, 50. */
export function readLimitOption(value: string | undefined): number {
  if (value === undefined) return defaultCallsListed;
  const text = value.trim();
  const limit = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1 && limit <= maxCallsListed)) {
    throw new AdminInputError(messages.admin.webhook.invalidLimit(value, maxCallsListed));
  }
  return limit;
}

/** `webhook calls`: the workspace's journaled calls, newest first; `failed`, those answered 400 or more. */
export async function listCalls(
  deps: Deps,
  workspaceId: string,
  options: { failed: boolean; limit?: string },
): Promise<{ calls: WebhookCallView[] }> {
  const limit = readLimitOption(options.limit);
  const workspace = await requireWorkspace(deps, workspaceId);
  const calls = await listWebhookCalls(deps, workspace.id, { failed: options.failed, limit, now: deps.clock() });
  return { calls: calls.map(callView) };
}

/**
 * `GET /webhook/calls` (docs/api.md#settings-api): a page of the journal, newest first, the same calls as `webhook
 * calls` lists; `next_cursor` names the last call of the page when another follows (one more is read to know it).
 */
export async function pageOfCalls(
  deps: Deps,
  workspaceId: string,
  options: { failed: boolean; page: PageRequest },
): Promise<{ calls: WebhookCallView[]; next_cursor: string | null }> {
  const workspace = await requireWorkspace(deps, workspaceId);
  const { limit, after } = options.page;
  const found = await listWebhookCalls(deps, workspace.id, {
    failed: options.failed,
    limit: limit + 1,
    now: deps.clock(),
    afterId: after?.id,
  });
  const calls = found.slice(0, limit);
  const last = calls.at(-1);
  return {
    calls: calls.map(callView),
    next_cursor: found.length > limit && last ? encodeCursor(callsBinding(workspace.id, options.failed), last) : null,
  };
}

/** The cursor binding of a page of the journal: a cursor of the failed calls is refused on the whole list. */
export const callsBinding = (workspaceId: string, failed: boolean): CursorBinding => ({
  list: failed ? 'failed-webhook-calls' : 'webhook-calls',
  workspaceId,
});

/** `webhook call`: one call with its kept body. */
export async function showCall(deps: Deps, workspaceId: string, callId: string): Promise<CallDocument> {
  const { call } = await requireCall(deps, workspaceId, callId);
  return callDocument(call);
}

/** The workspace and one of its calls, read together; refused as `requireWorkspace` and a call not found. */
export async function requireCall(
  deps: Deps,
  workspaceId: string,
  callId: string,
): Promise<{ workspace: WorkspaceItem; call: WebhookCallItem }> {
  const ids = { workspace: checkedId('workspace', workspaceId), call: checkedId('webhookCall', callId) };
  const { workspace, call } = await getWorkspaceAndCall(deps, ids.workspace, ids.call, deps.clock());
  if (!workspace) throw unknownId('workspace', workspaceId);
  if (!call) throw notFoundId('webhookCall', callId);
  return { workspace, call };
}
