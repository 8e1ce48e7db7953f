import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { decodeDecision, type AuthDecision } from '../auth/context';
import type { ApiKeyPrincipal, Principal, WebhookPrincipal } from '../domain/principal';
import type { Deps } from '../deps';
import {
  EndpointIdMalformedError,
  EndpointIdMissingError,
  ForbiddenError,
  RateLimitedError,
  UnauthorizedError,
  UnknownEndpointError,
} from '../domain/errors';
import type { Route } from '../routes';
import { admitRequest } from '../domain/rate-limit';
import { errorResponse } from './error-response';
import { answerOnce, type RequestIdentity } from './idempotency';
import { openWebhookCall, webhookJournal, type JournalContext } from './webhook-journal';
import type { WebhookCallContext } from '../domain/webhook-call';
import { rateLimitHeaders, type HttpResponse } from './response';
import { messages as catalogue } from '../messages';
import { withDynamoDeadline } from '../storage/client';
import { errorFields, logger, observeInvocation } from '../observability/logger';

/** What the gate hands to the handler; optional because the Lambda runtime passes a plain context. */
export type RouteContext<P> = JournalContext & { principal?: P; responseHeaders?: Record<string, string> };

/**
 * What a handler works with. `deps` are the route's, except ids and clock, which a request retried
 * under its Idempotency-Key takes from its first attempt (lib/http/idempotency.ts).
 */
export type RouteRequest<P> = { event: APIGatewayProxyEvent; principal: P; deps: Deps };

type Handle<P> = (request: RouteRequest<P>, context: RouteContext<P>) => Promise<HttpResponse>;

const { access: messages } = catalogue;

export const requestIdHeader = 'x-request-id';

/**
 * API Gateway's id of the request, the one of its access log: every answer carries it and every
 * log line of the request carries it as `correlation_id`, so a caller reporting a problem can quote
 * it and we can find the request.
 */
function requestIdOf(event: APIGatewayProxyEvent): string | undefined {
  return event.requestContext?.requestId || undefined;
}

function requestIdHeaderOf(event: APIGatewayProxyEvent): Record<string, string> {
  const requestId = requestIdOf(event);
  return requestId === undefined ? {} : { [requestIdHeader]: requestId };
}

/**
 * The one wrapper every route handler goes through (middy, error responder first so its onError
 * runs last). Its gate runs before any business code and turns every authorizer outcome other
 * than `allowed` into the route's error, so no handler can act for an unauthenticated caller.
 */
export function apiKeyRoute(route: Route, deps: Deps, handle: Handle<ApiKeyPrincipal>) {
  return compose<ApiKeyPrincipal>(route, deps, apiKeyGate(route, deps), handle);
}

/** A webhook handler also gets the call being answered, which its use case journals with its write. */
type WebhookHandle = (request: RouteRequest<WebhookPrincipal> & { call: WebhookCallContext }) => Promise<HttpResponse>;

export function webhookRoute(route: Route, deps: Deps, handle: WebhookHandle) {
  return compose<WebhookPrincipal>(
    route,
    deps,
    webhookGate(route, deps),
    (request, context) => {
      const call = context.webhookCall;
      if (call === undefined) throw new Error('webhook gate did not open the call');
      return handle({ ...request, call });
    },
    webhookJournal(route, deps),
  );
}

/**
 * After the gate, the handler's answer, success or error, goes through the idempotency record
 * (docs/api.md#idempotency-keys), which replays a first answer or refuses a reused key before the handler runs.
 */
function compose<P extends Principal>(
  route: Route,
  deps: Deps,
  gate: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RouteContext<P>>,
  handle: Handle<P>,
  // Outermost: its after and onError hooks run last, on the final answer (the webhook journal).
  outer?: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RouteContext<P>>,
) {
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RouteContext<P>>()
    .use(outer ? [outer] : [])
    .use(errorResponder(route))
    .use(gate)
    .handler(async (event, context) => {
      const principal = context.principal;
      if (principal === undefined) throw new Error('route gate did not run');
      const run = (identity: RequestIdentity) =>
        handle({ event, principal, deps: { ...deps, ...identity } }, context).catch((error: unknown) =>
          respondWithError(route, error),
        );
      // Idempotency-Key on writes only (docs/api.md#idempotency-keys); a GET has nothing to replay
      // (and no right to write the record).
      const response = route.method === 'GET' ? await run(deps) : await answerOnce(deps, route, event, principal, run);
      return {
        ...response,
        headers: { ...context.responseHeaders, ...response.headers, ...requestIdHeaderOf(event) },
      };
    });
  // One DynamoDB deadline for the whole request (gate, idempotency record, use case): a stalled
  // table ends in the route's clean 5xx before the Lambda timeout (docs/deploy.md, "Timeouts").
  return (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> =>
    observeInvocation(
      deps.metrics,
      { context, correlationId: requestIdOf(event), keys: { route: route.id } },
      async () => {
        const response = await withDynamoDeadline(() => handler(event, context as RouteContext<P>));
        logger.debug('request answered', { status: response.statusCode });
        return response;
      },
    );
}

/** A 5xx is ours to look at: logged with the error, never with anything of the request. */
function respondWithError(route: Route, error: unknown, headers: Record<string, string> = {}): HttpResponse {
  const response = errorResponse(route, error, headers);
  if (response.statusCode >= 500) {
    logger.error('request failed', { status: response.statusCode, ...errorFields(error) });
  }
  return response;
}

function errorResponder<P>(
  route: Route,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RouteContext<P>> {
  return {
    onError: async (request) => {
      const headers = { ...request.context.responseHeaders, ...requestIdHeaderOf(request.event) };
      request.response = respondWithError(route, request.error, headers);
    },
  };
}

function decisionOf(event: APIGatewayProxyEvent): AuthDecision {
  return decodeDecision(event.requestContext?.authorizer as Record<string, unknown> | null | undefined);
}

/**
 * Check order (docs/api.md#check-order): 401, then 403, then 429; every authenticated request not
 * answered 429 counts.
 */
function apiKeyGate(
  route: Route,
  deps: Deps,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RouteContext<ApiKeyPrincipal>> {
  return {
    before: async (request) => {
      request.context.responseHeaders = {};
      const decision = decisionOf(request.event);
      if (decision.outcome === 'failed') throw new Error('authorizer failed');
      if (!('principal' in decision) || decision.principal.kind !== 'api-key') {
        throw new UnauthorizedError(messages.unauthorized);
      }
      const forbidden = decision.outcome === 'forbidden';
      const { admitted, state } = await admitRequest(deps, {
        keyId: decision.principal.keyId,
        now: deps.clock(),
        stageChange: route.countsStageChanges === true && carriesStage(request.event.body),
        enforce: !forbidden,
      });
      request.context.responseHeaders = rateLimitHeaders(state);
      if (forbidden) throw new ForbiddenError(messages.forbidden);
      if (!admitted) throw new RateLimitedError(messages.rateLimited, state.resetSeconds);
      request.context.principal = decision.principal;
    },
  };
}

function webhookGate(
  route: Route,
  deps: Deps,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RouteContext<WebhookPrincipal>> {
  return {
    before: async (request) => {
      request.context.responseHeaders = {};
      const decision = decisionOf(request.event);
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

/** A PATCH counts as a stage change when its body carries `stage`, whatever its outcome (docs/api.md#rate-limits). */
function carriesStage(body: string | null): boolean {
  if (body === null) return false;
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.hasOwn(parsed, 'stage');
  } catch {
    return false;
  }
}
