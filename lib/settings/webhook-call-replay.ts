import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { admittedWebhookCall, encodeDecision, type AdmittedEndpoint } from '../auth/context';
import type { Deps } from '../storage/client';
import { UnknownReferenceError, phoneSettingsOf } from '../domain/model';
import { messages } from '../messages';
import { routeById, type Route } from '../routes';
import { findCallByRequestId } from '../storage/webhook-call-list';
import { commandLine, type ActingMemberId, recordAudit } from '../storage/audit-log';
import {
  callView,
  contentTypeHeader,
  type WebhookCallRequest,
  type WebhookCallView,
} from '../domain/webhook-call-view';
import { requireCall } from './webhook-call-reads';

export type WebhookReplayView = {
  /** The replay's own journal entry; null only when that entry could not be written (the handler logged why). */
  call: WebhookCallView | null;
  response: { status: number; body: unknown };
};

/** Routes of lib/routes.ts by journal route name. */
const routeIds = { 'ingest-lead': 'ingestLead', recruitment: 'recruitment' } as const;

/** A replay names itself in the journal and the logs by this request id prefix. */
export const replayRequestIdPrefix = 'admin-replay-';

/** How far before the replay its entry is looked for: the entry's time is read from the same clock, just after. */
const clockStepMargin = 60_000;

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
