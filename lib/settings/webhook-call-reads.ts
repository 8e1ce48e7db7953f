import type { Deps } from '../storage/client';
import { InvalidInputError, type WebhookFields } from '../domain/model';
import { encodeCursor, type CursorBinding } from '../http/query-parameters';
import type { PageRequest, WebhookCallItem } from '../storage/table-items';
import { readWebhookBody } from '../domain/webhook-call';
import { messages } from '../messages';
import { getWorkspaceAndCall, listWebhookCalls } from '../storage/webhook-call-list';
import type { WorkspaceItem } from '../storage/workspace-config';
import { AdminInputError, checkedId, notFoundId, unknownId, requireWorkspace } from './admin-input';

/**
 * One journaled call as the admin commands print it (docs/api.md#webhook-call-journal): never its body; `count`, how
 * many calls the entry stands for (more than 1 only for the entry counting a minute's refusals
 * past the 10th); `body_truncated`, whether the kept body was cut at 64 KB.
 */
export type WebhookCallView = Pick<
  WebhookCallItem,
  'id' | 'at' | 'route' | 'status' | 'outcome' | 'record_id' | 'placement' | 'warnings' | 'request_id'
> & {
  pipeline_id: string | null;
  stage_id: string | null;
  message: string | null;
  count: number;
  body_truncated: boolean;
};

/**
 * The kept body read as the webhook reads it, `{ raw }` when the webhook refuses to read it or it
 * was cut at 64 KB (the text kept), null when none was kept.
 */
export type KeptBody = WebhookFields | { raw: string } | null;

/** `webhook calls --limit`: 1 to this many, 50 when absent. */
export const maxCallsListed = 1000;
export const defaultCallsListed = 50;

export const callView = (call: WebhookCallItem): WebhookCallView => ({
  id: call.id,
  at: call.at,
  route: call.route,
  status: call.status,
  outcome: call.outcome,
  record_id: call.record_id ?? null,
  placement: call.placement ?? null,
  pipeline_id: call.pipeline_id ?? null,
  stage_id: call.stage_id ?? null,
  warnings: call.warnings ?? [],
  message: call.message ?? null,
  request_id: call.request_id ?? null,
  count: call.count ?? 1,
  body_truncated: call.body_truncated === true,
});

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

/** One call with its kept body, read as the webhook reads it: `webhook call`'s document, and an export's. */
export type CallDocument = { call: WebhookCallView; body: KeptBody };

export const callDocument = (call: WebhookCallItem): CallDocument => ({ call: callView(call), body: keptBody(call) });

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

const bodyText = (call: WebhookCallRequest): string =>
  call.body_base64 === true ? Buffer.from(call.body ?? '', 'base64').toString('utf8') : (call.body ?? '');

export const contentTypeHeader = (call: WebhookCallRequest): Record<string, string> =>
  call.content_type ? { 'Content-Type': call.content_type } : {};

/**
 * The webhook's own reader (readWebhookBody, lib/domain/webhook-call.ts); a body it refuses, or one cut at 64 KB
 * (never read: its end is missing), is shown as the text kept.
 */
function keptBody(call: WebhookCallItem): KeptBody {
  if (call.body === undefined) return null;
  if (call.body_truncated === true) return { raw: bodyText(call) };
  try {
    return readWebhookBody({
      body: call.body,
      isBase64Encoded: call.body_base64 === true,
      headers: contentTypeHeader(call),
    });
  } catch (error) {
    if (error instanceof InvalidInputError) return { raw: bodyText(call) };
    throw error;
  }
}

/** What a webhook call event carries of a request: a journaled call's kept body, or a test's. */
export type WebhookCallRequest = Pick<WebhookCallItem, 'body' | 'body_base64' | 'content_type'>;
