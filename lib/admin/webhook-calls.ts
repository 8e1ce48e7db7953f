import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { admittedWebhookCall } from '../auth/authorize';
import { encodeDecision } from '../auth/context';
import type { Deps } from '../deps';
import { InvalidInputError, UnknownReferenceError } from '../domain/errors';
import { encodeCursor, type CursorBinding } from '../http/cursor';
import type { PageRequest } from '../storage/prospect-pages';
import type { WebhookFields } from '../domain/model';
import { readWebhookBody } from '../domain/webhook-call';
import { messages } from '../messages';
import { routeById, type Route } from '../routes';
import { getEndpoint, type EndpointItem } from '../storage/credentials';
import type { WebhookCallItem } from '../storage/table-items';
import { getWebhookCall, listWebhookCalls } from '../storage/webhook-call-list';
import { commandLine, type ActingMemberId } from '../domain/audit';
import { recordAudit } from './audit';
import { AdminInputError } from './errors';
import { checkedId, notFoundId } from './ids';
import { requireWorkspace } from './workspace';

/**
 * One journaled call as the admin commands print it (decisions 6.3): never its body; `count`, how
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

/** How many of the newest calls are searched for the replay's entry (other calls may land meanwhile). */
const replaySearchDepth = 100;

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
 * `GET /webhook/calls` (decisions 7.2): a page of the journal, newest first, the same calls as `webhook calls`
 * lists; `next_cursor` names the last call of the page when another follows (one more is read to know it).
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
  const call = await requireCall(deps, workspaceId, callId);
  return { call: callView(call), body: keptBody(call) };
}

/**
 * What runs a webhook's handler (functions/ingest-lead.ts or functions/recruitment.ts): lib/ does
 * not import functions/, the admin command line passes it in (tools/admin/commands/webhook-calls.ts).
 */
export type WebhookInvoker = (route: Route, event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;

/**
 * `webhook replay`: the kept body of a call sent again to the same webhook handler, as a new call
 * of the same endpoint that the authorizer allowed (the administrator is the credential: neither
 * the token nor the webhook's active flag is checked), without Idempotency-Key, under a fresh
 * request id `admin-replay-<uuid>`. The endpoint is read as it stands, and the call gets what the
 * authorizer gives a live call of it (`admittedWebhookCall`: the workspace's phone matching
 * included). A body cut at 64 KB is not replayed, as none kept. The handler journals it like any
 * call; that entry is looked up by its request id among the newest calls. The webhook's answer is
 * returned whatever it is, after the audit entry of the replay. `actingMemberId`: the member acting
 * through the settings API (absent: the command line).
 */
export async function replayCall(
  deps: Deps,
  workspaceId: string,
  callId: string,
  invoke: WebhookInvoker,
  actingMemberId: ActingMemberId = commandLine,
): Promise<WebhookReplayView> {
  const call = await requireCall(deps, workspaceId, callId);
  // 422 through the settings API (decisions 7.2), exit 2 on the command line, as every domain error.
  if (call.body === undefined) throw new UnknownReferenceError(messages.admin.webhook.noBodyKept(call.id));
  if (call.body_truncated === true) throw new UnknownReferenceError(messages.admin.webhook.bodyTruncated(call.id));
  const endpoint = await getEndpoint(deps, call.endpoint_id);
  if (endpoint?.workspace_id !== call.workspace_id) {
    throw new Error(messages.admin.webhook.endpointMissing(call.endpoint_id, call.workspace_id));
  }
  const route = routeById(routeIds[call.route]);
  const requestId = `${replayRequestIdPrefix}${deps.newId()}`;
  const response = await invoke(route, webhookCallEvent(route, endpoint, call, requestId));
  // The replay is the webhook handler's own writes: its audit entry follows them (decisions 7.4).
  await recordAudit(deps, {
    workspaceId: call.workspace_id,
    memberId: actingMemberId,
    action: 'webhook_call.replayed',
    targetId: call.id,
    summary: messages.audit.webhookCallReplayed(call.id, response.statusCode),
  });
  const newest = await listWebhookCalls(deps, call.workspace_id, {
    failed: false,
    limit: replaySearchDepth,
    now: deps.clock(),
  });
  const replayed = newest.find((entry) => entry.request_id === requestId);
  return {
    call: replayed ? callView(replayed) : null,
    response: { status: response.statusCode, body: parsedAnswer(response.body) },
  };
}

async function requireCall(deps: Deps, workspaceId: string, callId: string): Promise<WebhookCallItem> {
  const workspace = await requireWorkspace(deps, workspaceId);
  const id = checkedId('webhookCall', callId);
  const call = await getWebhookCall(deps, workspace.id, id, deps.clock());
  if (!call) throw notFoundId('webhookCall', callId);
  return call;
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
  endpoint: EndpointItem,
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
