import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { admittedWebhookCall, encodeDecision, type AdmittedEndpoint } from '../auth/context';
import type { Deps } from '../deps';
import { InvalidInputError, UnknownReferenceError } from '../domain/errors';
import { encodeCursor, type CursorBinding } from '../http/cursor';
import type { PageRequest } from '../storage/prospect-pages';
import { phoneSettingsOf, type WebhookFields } from '../domain/model';
import { readWebhookBody } from '../domain/webhook-call';
import { messages } from '../messages';
import { routeById, type Route } from '../routes';
import type { WebhookCallItem } from '../storage/table-items';
import { findCallByRequestId, getWorkspaceAndCall, listWebhookCalls } from '../storage/webhook-call-list';
import type { WorkspaceItem } from '../storage/workspace-config';
import { commandLine, type ActingMemberId } from '../domain/audit';
import { recordAudit } from './record-audit';
import { AdminInputError } from './errors';
import { checkedId, notFoundId, unknownId } from './ids';
import { requireWorkspace } from './workspace';

/**
 * One journaled call as the admin commands print it (docs/api.md#webhook-call-journal): never its body; `count`, how
 * many calls the entry stands for (more than 1 only for the entry counting a minute's refusals
 * past the 10th); `body_truncated`, whether the kept body was cut at 64 KB.
 */
export type WebhookCallView = Pick<
  WebhookCallItem,
  'id' | 'at' | 'route' | 'status' | 'outcome' | 'record_id' | 'placement' | 'warnings' | 'request_id'
> & { count: number; body_truncated: boolean };

/**
 * The kept body read as the webhook reads it, `{ raw }` when the webhook refuses to read it or it
 * was cut at 64 KB (the text kept), null when none was kept.
 */
export type KeptBody = WebhookFields | { raw: string } | null;

export type WebhookReplayView = {
  /** The replay's own journal entry; null only when that entry could not be written (the handler logged why). */
  call: WebhookCallView | null;
  response: { status: number; body: unknown };
};

/** `webhook calls --limit`: 1 to this many, 50 when absent. */
export const maxCallsListed = 1000;
export const defaultCallsListed = 50;

/** Routes of lib/routes.ts by journal route name. */
const routeIds = { 'ingest-lead': 'ingestLead', recruitment: 'recruitment' } as const;

/** A replay names itself in the journal and the logs by this request id prefix. */
export const replayRequestIdPrefix = 'admin-replay-';

/** How far before the replay its entry is looked for: the entry's time is read from the same clock, just after. */
const clockStepMargin = 60_000;

export const callView = (call: WebhookCallItem): WebhookCallView => ({
  id: call.id,
  at: call.at,
  route: call.route,
  status: call.status,
  outcome: call.outcome,
  record_id: call.record_id ?? null,
  placement: call.placement ?? null,
  warnings: call.warnings ?? [],
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

/** `webhook call`: one call with its kept body, read as the webhook reads it. */
export async function showCall(
  deps: Deps,
  workspaceId: string,
  callId: string,
): Promise<{ call: WebhookCallView; body: KeptBody }> {
  const { call } = await requireCall(deps, workspaceId, callId);
  return { call: callView(call), body: keptBody(call) };
}

/**
 * What runs a webhook for a replay: the webhook's own function, invoked by the settings API's route
 * (./webhook-functions.ts), or its handler, run in the admin command line's process
 * (tools/admin/commands/webhook-calls.ts).
 */
export type WebhookInvoker = (route: Route, event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;

/**
 * `webhook replay`: the kept body of a call sent again to the same webhook handler, as a new call
 * of the same endpoint that the authorizer allowed (the administrator is the credential: neither
 * the token nor the webhook's active flag is checked), without Idempotency-Key, under a fresh
 * request id `admin-replay-<uuid>`. The call gets what the authorizer gives a live call of its
 * endpoint (`admittedWebhookCall`), with the workspace's phone settings as they stand, read with
 * the call in one round trip (the endpoint carries a copy of them, docs/adr/0009-e164-phone-matching.md). A body cut at
 * 64 KB is not replayed, as none kept. The handler journals it like any call; that entry is looked
 * up by its request id among the calls since, while the audit entry of the replay is written. The
 * webhook's answer is returned whatever it is. `actingMemberId`: the member acting through the
 * settings API (absent: the command line).
 */
export async function replayCall(
  deps: Deps,
  workspaceId: string,
  callId: string,
  invoke: WebhookInvoker,
  actingMemberId: ActingMemberId = commandLine,
): Promise<WebhookReplayView> {
  const { workspace, call } = await requireCall(deps, workspaceId, callId);
  // 422 through the settings API (docs/api.md#settings-api), exit 2 on the command line, as every domain error.
  if (call.body === undefined) throw new UnknownReferenceError(messages.admin.webhook.noBodyKept(call.id));
  if (call.body_truncated === true) throw new UnknownReferenceError(messages.admin.webhook.bodyTruncated(call.id));
  // A workspace has one endpoint for good (`webhook generate` keeps it): a call names another only if damaged.
  if (call.endpoint_id !== workspace.endpoint_id) {
    throw new Error(messages.admin.webhook.endpointMissing(call.endpoint_id, call.workspace_id));
  }
  const endpoint = { id: call.endpoint_id, workspace_id: workspace.id, ...phoneSettingsOf(workspace) };
  const route = routeById(routeIds[call.route]);
  const replayed = {
    requestId: `${replayRequestIdPrefix}${deps.newId()}`,
    since: new Date(deps.clock().getTime() - clockStepMargin),
  };
  const response = await invoke(route, webhookCallEvent(route, endpoint, call, replayed.requestId));
  // The replay is the webhook handler's own writes: its audit entry follows them (docs/api.md#audit-log).
  const [, entry] = await Promise.all([
    recordAudit(deps, {
      workspaceId: call.workspace_id,
      memberId: actingMemberId,
      action: 'webhook_call.replayed',
      targetId: call.id,
      summary: messages.audit.webhookCallReplayed(call.id, response.statusCode),
    }),
    findCallByRequestId(deps, call.workspace_id, replayed, deps.clock()),
  ]);
  return {
    call: entry ? callView(entry) : null,
    response: { status: response.statusCode, body: parsedAnswer(response.body) },
  };
}

/** The workspace and one of its calls, read together; refused as `requireWorkspace` and a call not found. */
async function requireCall(
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

const contentTypeHeader = (call: WebhookCallRequest): Record<string, string> =>
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

/**
 * The proxy event API Gateway would hand the webhook's handler once the authorizer allowed a call
 * of `endpoint`: the authorizer's context for that endpoint (`admittedWebhookCall`), the body as
 * received, its Content-Type, `endpoint_id` in the query, no other header (no token, no
 * Idempotency-Key).
 */
export function webhookCallEvent(
  route: Route,
  endpoint: AdmittedEndpoint,
  call: WebhookCallRequest,
  requestId: string,
): APIGatewayProxyEvent {
  const headers = contentTypeHeader(call);
  return {
    resource: route.path,
    path: route.path,
    httpMethod: route.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: { endpoint_id: endpoint.id },
    multiValueQueryStringParameters: { endpoint_id: [endpoint.id] },
    pathParameters: null,
    stageVariables: null,
    body: call.body ?? null,
    isBase64Encoded: call.body_base64 === true,
    requestContext: {
      requestId,
      httpMethod: route.method,
      path: route.path,
      resourcePath: route.path,
      stage: 'admin-replay',
      authorizer: { ...encodeDecision(admittedWebhookCall(endpoint)), principalId: endpoint.workspace_id },
    } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

function parsedAnswer(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
