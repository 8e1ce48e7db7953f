import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { decodeDecision } from '../../auth/context';
import type { Deps } from '../../storage/client';
import { ForbiddenError, RateLimitedError, UnauthorizedError, type ApiKeyPrincipal } from '../../domain/model';
import { admitRequest } from '../../storage/rate-limit';
import { messages as catalogue } from '../../messages';
import type { Route } from '../../routes';
import {
  responseHeadersAndErrors,
  observed,
  rateLimitHeaders,
  type HttpResponse,
  type RouteContext,
  type RouteMiddleware,
} from './route';

const { access: messages } = catalogue;

/** What the handler of a Prospect API route is given: the key the authorizer let in. */
export type ApiKeyContext = RouteContext & { principal: ApiKeyPrincipal };

/**
 * What a Prospect API route does once its gate let the key in: its answer, from the request and the key. A write
 * route's handler is `withIdempotencyKey(...)`, its answer kept per Idempotency-Key; a read route's is the handler alone.
 */
export type ApiKeyHandler = (event: APIGatewayProxyEvent, context: ApiKeyContext) => Promise<HttpResponse>;

/** A Prospect API route, the one composition of every key-gated function: `responseHeadersAndErrors → apiKeyGate → handler`, observed. */
export const apiKeyRoute = (route: Route, deps: Deps, handler: ApiKeyHandler) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(responseHeadersAndErrors(route))
      .use(apiKeyGate(route, deps))
      .handler(handler),
  );

/**
 * The gate of every Prospect API route, before any business code: it turns every authorizer
 * outcome other than `allowed` into the route's error, so no handler acts for an unauthenticated
 * caller. Check order (docs/api.md#check-order): 401, then 403, then 429; every authenticated
 * request not answered 429 counts.
 */
function apiKeyGate(route: Route, deps: Deps): RouteMiddleware<ApiKeyContext> {
  return {
    before: async (request) => {
      request.context.responseHeaders = {};
      const decision = decodeDecision(request.event.requestContext?.authorizer);
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
