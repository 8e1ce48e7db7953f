import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { decodeDecision } from '../../auth/context';
import type { Deps } from '../../deps';
import type { WebhookPrincipal, WebhookCall, WebhookRoute } from '../../domain/model';
import {
  countingEntryOf,
  journaledOneByOne,
  keptBodyOf,
  refusalMinuteOf,
  type WebhookCallContext,
} from '../../domain/webhook-call';
import { timeOrderedId } from '../../ids';
import { errorFields, logger } from '../../observability';
import type { Route } from '../../routes';
import { countIntoEntry, countRefusedCall, journalWebhookCall } from '../../storage/webhook-calls';

/** What the webhook gate leaves for the handler and the journal: the call being answered. */
export type JournalContext = Context & { webhookCall?: WebhookCallContext };

const webhookRouteOf = (route: Route): WebhookRoute => (route.id === 'recruitment' ? 'recruitment' : 'ingest-lead');

/** A call of `route` for `endpoint`, as its journal entry will name it: a time-ordered id, now. */
export function openWebhookCall(
  route: Route,
  event: APIGatewayProxyEvent,
  endpoint: Omit<WebhookPrincipal, 'kind'>,
  clock: () => Date,
): WebhookCallContext {
  const now = clock();
  return {
    id: timeOrderedId(now),
    at: now.toISOString(),
    route: webhookRouteOf(route),
    workspaceId: endpoint.workspaceId,
    endpointId: endpoint.endpointId,
    requestId: event.requestContext?.requestId ?? null,
    successStatus: 200,
    journaled: false,
    ...(endpoint.phone === undefined ? {} : { phone: endpoint.phone }),
  };
}

/**
 * The journal of both webhooks (docs/api.md#webhook-call-journal), as a middleware that sees every
 * answer, the gate's refusals included. A call the use case journaled inside its own write is left
 * alone; any other call of a known endpoint gets its entry here, as its one write: an
 * authenticated call that did not succeed with its body (to show and replay it), a replayed or
 * otherwise unwritten success with neither; a refusal of a known endpoint (wrong token, disabled
 * webhook), without any of the request's values, is counted in its minute first
 * (`journalRefusedCall`). A journal that cannot be written never changes the answer.
 */
export function webhookJournal(
  route: Route,
  deps: Deps,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, JournalContext> {
  const settle = async (request: {
    event: APIGatewayProxyEvent;
    context: JournalContext;
    response: APIGatewayProxyResult | null | undefined;
  }) => {
    const { event, context, response } = request;
    if (!response) return;
    countRefusal(route, deps, response);
    const authenticated = context.webhookCall;
    const decision = decodeDecision(event.requestContext?.authorizer as Record<string, unknown> | null | undefined);
    const call =
      authenticated ??
      ('refusedEndpoint' in decision ? openWebhookCall(route, event, decision.refusedEndpoint, deps.clock) : undefined);
    if (!call || call.journaled) return;
    try {
      const entry = entryOfAnswer(call, event, response, { keepBody: authenticated !== undefined });
      await (authenticated ? journalWebhookCall(deps, entry) : journalRefusedCall(deps, entry));
      call.journaled = true;
    } catch (error) {
      logger.error('webhook call not journaled', { route: route.id, ...errorFields(error) });
    }
  };
  return { after: settle, onError: settle };
}

/**
 * A call refused for its token (docs/data-model.md, "Webhook call journal"): ranked in its endpoint,
 * route and minute by an atomic counter; the first 10 of the minute get an entry each, every later
 * one is counted into the minute's one counting entry. Two writes, neither conditional on a read.
 */
async function journalRefusedCall(deps: Deps, entry: WebhookCall): Promise<void> {
  const rank = await countRefusedCall(deps, {
    workspaceId: entry.workspace_id,
    endpointId: entry.endpoint_id,
    route: entry.route,
    ...refusalMinuteOf(entry),
  });
  await (journaledOneByOne(rank) ? journalWebhookCall(deps, entry) : countIntoEntry(deps, countingEntryOf(entry)));
}

type AnswerBody = {
  error?: string | { code?: string };
  status?: string;
  action?: string;
  prospect_id?: string;
  talent_id?: string;
  placement?: string;
  warnings?: string[];
};

/** The entry of a call from the answer it got: its status, its outcome (the error code of a refusal), what it names. */
function entryOfAnswer(
  call: WebhookCallContext,
  event: APIGatewayProxyEvent,
  response: APIGatewayProxyResult,
  options: { keepBody: boolean },
): WebhookCall {
  const body = parsed(response.body);
  const failed = response.statusCode >= 400;
  const code = errorCodeOf(body);
  const keepBody = options.keepBody && failed && event.body !== null;
  return {
    id: call.id,
    workspace_id: call.workspaceId,
    endpoint_id: call.endpointId,
    at: call.at,
    route: call.route,
    status: response.statusCode,
    outcome: (failed ? code : (body.status ?? body.action)) ?? String(response.statusCode),
    record_id: failed ? null : (body.prospect_id ?? body.talent_id ?? null),
    placement: failed ? null : (body.placement ?? null),
    warnings: failed || !options.keepBody ? [] : (body.warnings ?? []),
    request_id: call.requestId,
    ...(keepBody ? { ...keptBody(event), content_type: headerValue(event, 'content-type') } : {}),
  };
}

/** The body as the journal keeps it: its first 64 KB (lib/domain/webhook-call.ts), `body_truncated` when cut. */
function keptBody(event: APIGatewayProxyEvent): Pick<WebhookCall, 'body' | 'body_base64' | 'body_truncated'> {
  const { body, truncated } = keptBodyOf(event.body ?? '', event.isBase64Encoded);
  return { body, body_base64: event.isBase64Encoded, ...(truncated ? { body_truncated: true } : {}) };
}

const errorCodeOf = (body: AnswerBody): string | undefined =>
  typeof body.error === 'string' ? body.error : body.error?.code;

/**
 * LeadsRefused / CandidatesRefused by the code answered: here, since this middleware sees every
 * final answer of a webhook, the gate's refusals of an unknown or malformed endpoint (which get no
 * journal entry) and 5xx answers included. A replayed refusal counts again, being answered again.
 * Successes are counted by their use case.
 */
function countRefusal(route: Route, deps: Deps, response: APIGatewayProxyResult): void {
  if (response.statusCode < 400) return;
  const code = errorCodeOf(parsed(response.body)) ?? String(response.statusCode);
  deps.metrics.count(route.id === 'recruitment' ? 'CandidatesRefused' : 'LeadsRefused', { code });
}

function parsed(text: string): AnswerBody {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as AnswerBody) : {};
  } catch {
    return {};
  }
}

function headerValue(event: APIGatewayProxyEvent, name: string): string | null {
  const entry = Object.entries(event.headers ?? {}).find(([header]) => header.toLowerCase() === name);
  return entry?.[1] ?? null;
}
