import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { decodeDecision } from '../../auth/context';
import type { Deps } from '../../storage/client';
import {
  EndpointIdMalformedError,
  EndpointIdMissingError,
  UnauthorizedError,
  UnknownEndpointError,
  type WebhookPrincipal,
  type WebhookCall,
  type WebhookFields,
  type WebhookRoute,
} from '../../domain/model';
import {
  callEntry,
  countingEntryOf,
  journaledOneByOne,
  keptBodyOf,
  readWebhookBody,
  refusalMinuteOf,
  refusalReport,
  replayReport,
  type CallReport,
  type WebhookAnswer,
  type WebhookCallContext,
} from '../../domain/webhook-call';
import { timeOrderedId } from '../../storage/table-items';
import { messages as catalogue } from '../../messages';
import { errorFields, logger } from '../../observability';
import type { Route } from '../../routes';
import { countIntoEntry, countRefusedCall, journalWebhookCall } from '../../storage/webhook-calls';
import { oncePerIdempotencyKey } from './idempotency';
import {
  mappedErrorOf,
  responseHeadersAndErrors,
  json,
  observed,
  respondWithError,
  type HttpResponse,
  type RouteContext,
  type RouteMiddleware,
} from './route';

/**
 * A webhook route, the one composition of both webhooks: `webhookJournal → responseHeadersAndErrors → webhookGate →
 * journaledWebhookHandler(use case)`. The gate opens the call; the handler answers it from the use case's value and
 * journals it; the journal middleware journals the calls an error answered around the handler, the gate's
 * refusals among them. Built by the webhooks' functions, and by the replay route, which runs a kept call again
 * through the same composition (docs/api.md#webhook-call-journal).
 */
export const webhookRoute = (route: Route, deps: Deps, useCase: WebhookUseCase) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(webhookJournal(route, deps))
      .use(responseHeadersAndErrors(route))
      .use(webhookGate(route, deps))
      .handler(journaledWebhookHandler(route, deps, useCase)),
  );

/** What the webhook gate leaves for the journal: the call being answered, once the gate admitted it. */
export type JournalContext = Context & { webhookCall?: WebhookCallContext };

/** What a webhook handler is given: the endpoint let in, and the call being answered. */
export type WebhookContext = RouteContext & { principal: WebhookPrincipal; webhookCall: WebhookCallContext };

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
    ...(endpoint.phone === undefined ? {} : { phone: endpoint.phone }),
  };
}

const { access: messages } = catalogue;

/**
 * The gate of both webhooks, before any business code: every authorizer outcome other than
 * `allowed` becomes the route's error (docs/api.md#webhook-endpoint-checks); an allowed call is opened
 * for the journal.
 */
export function webhookGate(route: Route, deps: Deps): RouteMiddleware<WebhookContext> {
  return {
    before: async (request) => {
      request.context.responseHeaders = {};
      const decision = decodeDecision(request.event.requestContext?.authorizer);
      switch (decision.outcome) {
        case 'endpoint_missing':
          throw new EndpointIdMissingError(messages.endpointMissing);
        case 'endpoint_malformed':
          throw new EndpointIdMalformedError(messages.endpointMalformed);
        case 'endpoint_unknown':
          throw new UnknownEndpointError(messages.endpointUnknown);
        case 'failed':
          throw new Error('authorizer failed');
        case 'allowed':
          if (decision.principal.kind === 'webhook') {
            request.context.principal = decision.principal;
            request.context.webhookCall = openWebhookCall(route, request.event, decision.principal, deps.clock);
            return;
          }
          throw new UnauthorizedError(messages.webhookUnauthorized);
        default:
          throw new UnauthorizedError(messages.webhookUnauthorized);
      }
    },
  };
}

/** A webhook call answered, as values: the HTTP answer, and what it reports to the journal and the metrics. */
export type WebhookCallOutcome = CallReport & { response: HttpResponse };

/** A webhook's use case (`ingestLead`, `receiveApplication`): the deps its request writes with, the call, its fields. */
export type WebhookUseCase = (
  deps: Deps,
  call: WebhookCallContext,
  fields: WebhookFields,
) => Promise<WebhookAnswer<unknown>>;

/** A use case's answer made the HTTP answer: its body, with the status of a success. */
export const successOutcome = (call: WebhookCallContext, value: WebhookAnswer<unknown>): WebhookCallOutcome => ({
  response: json(call.successStatus, value.answer),
  journal: value.journal,
  journaledWithChange: value.journaledWithChange,
  counts: value.counts,
});

/**
 * The handler of both webhooks, behind their gate: the use case's answer, a value, goes through the
 * Idempotency-Key (`oncePerIdempotencyKey`, which keeps the journal's outcome next to the answer it records,
 * and replays both); the route turns it into the HTTP answer, journals the call unless its entry
 * was written with its change, and counts what it reports. An error of the use case is answered
 * in the route's shape and reported with its code, as the error mapping gives it (`mappedErrorOf`).
 * An error thrown before the use case runs (a key refused or not claimed) is the journal
 * middleware's (`webhookJournal`).
 */
export function journaledWebhookHandler(route: Route, deps: Deps, useCase: WebhookUseCase) {
  return async (event: APIGatewayProxyEvent, context: WebhookContext): Promise<HttpResponse> => {
    const call = context.webhookCall;
    const answered = await oncePerIdempotencyKey<WebhookCallOutcome>(
      deps,
      route,
      event,
      context.principal,
      async (identity) => {
        try {
          return successOutcome(call, await useCase({ ...deps, ...identity }, call, readWebhookBody(event)));
        } catch (error) {
          const { code, message } = mappedErrorOf(route, error);
          return { response: respondWithError(route, error), ...refusalReport(call.route, code, message) };
        }
      },
      (kept) => ({ response: kept.response, ...replayReport(call.route, kept.response.statusCode, kept.journal) }),
    );
    await report(deps, route, event, { call, authenticated: true }, answered.response.statusCode, answered);
    return answered.response;
  };
}

/**
 * The journal of both webhooks (docs/api.md#webhook-call-journal) for an answer that is an error
 * thrown around the handler: a refusal of the gate, or of the Idempotency-Key before the use case
 * runs. Its status and code are the error mapping's (`mappedErrorOf`). An authenticated call is
 * journaled with its body (to show and replay it); a refusal of a known endpoint (wrong token,
 * disabled webhook), without any of the request's values, is counted in its minute first
 * (`journalRefusedCall`); every refusal is counted by its code.
 */
export function webhookJournal(
  route: Route,
  deps: Deps,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, JournalContext> {
  return {
    onError: async ({ event, context, error }) => {
      const { status, code, message } = mappedErrorOf(route, error);
      const decision = decodeDecision(event.requestContext?.authorizer as Record<string, unknown> | null | undefined);
      const call =
        context.webhookCall ??
        ('refusedEndpoint' in decision
          ? openWebhookCall(route, event, decision.refusedEndpoint, deps.clock)
          : undefined);
      await report(
        deps,
        route,
        event,
        call && { call, authenticated: context.webhookCall !== undefined },
        status,
        refusalReport(webhookRouteOf(route), code, message),
      );
    },
  };
}

/**
 * Counts what an answer reports, and journals its call (`known`: a call naming a known endpoint,
 * authenticated or refused for its token) unless its entry went with its change. A journal that
 * cannot be written never changes the answer.
 */
async function report(
  deps: Deps,
  route: Route,
  event: APIGatewayProxyEvent,
  known: { call: WebhookCallContext; authenticated: boolean } | undefined,
  status: number,
  reported: CallReport,
): Promise<void> {
  for (const { metric, dimensions, value } of reported.counts) deps.metrics.count(metric, dimensions, value);
  if (!known || reported.journaledWithChange) return;
  try {
    const entry = journalEntryOf(known.call, event, status, reported, { keepBody: known.authenticated });
    await (known.authenticated ? journalWebhookCall(deps, entry) : journalRefusedCall(deps, entry));
  } catch (error) {
    logger.error('webhook call not journaled', { route: route.id, ...errorFields(error) });
  }
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

/**
 * The entry of a call from its status and what its answer reports. An authenticated call that did
 * not succeed keeps its body (to show and replay it); a call refused for its token keeps none of
 * the request's values.
 */
export function journalEntryOf(
  call: WebhookCallContext,
  event: Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded' | 'headers'>,
  status: number,
  reported: Pick<CallReport, 'journal'>,
  options: { keepBody: boolean },
): WebhookCall {
  const keepBody = options.keepBody && status >= 400 && event.body !== null;
  return {
    ...callEntry(call, status, reported.journal),
    ...(keepBody ? { ...keptBody(event), content_type: headerValue(event, 'content-type') } : {}),
  };
}

/** The body as the journal keeps it: its first 64 KB (lib/domain/webhook-call.ts), `body_truncated` when cut. */
function keptBody(
  event: Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded'>,
): Pick<WebhookCall, 'body' | 'body_base64' | 'body_truncated'> {
  const { body, truncated } = keptBodyOf(event.body ?? '', event.isBase64Encoded);
  return { body, body_base64: event.isBase64Encoded, ...(truncated ? { body_truncated: true } : {}) };
}

function headerValue(event: Pick<APIGatewayProxyEvent, 'headers'>, name: string): string | null {
  const entry = Object.entries(event.headers ?? {}).find(([header]) => header.toLowerCase() === name);
  return entry?.[1] ?? null;
}
