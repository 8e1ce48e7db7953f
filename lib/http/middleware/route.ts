import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Deps } from '../../deps';
import type { Route } from '../../routes';
import { errorResponse } from '../error-response';
import type { HttpResponse } from '../response';
import { withDynamoDeadline } from '../../storage/client';
import { errorFields, logger, observeInvocation } from '../../observability/logger';

/** What every route's middlewares share: the headers a gate states on every answer (rate limits). */
export type RouteContext = Context & { responseHeaders?: Record<string, string> };

export type RouteMiddleware<C extends RouteContext> = MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  C
>;

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
 * Around a route's middy chain: its log lines carry the request and the route, its metrics are
 * published at its end, and one DynamoDB deadline covers the whole request (gate, idempotency
 * record, use case), so a stalled table ends in the route's clean 5xx before the Lambda timeout
 * (docs/deploy.md, "Timeouts"). The Lambda runtime passes a plain context; the gates fill it in.
 */
export function observed<C extends RouteContext>(
  route: Route,
  deps: Pick<Deps, 'metrics'>,
  chain: (event: APIGatewayProxyEvent, context: C) => Promise<APIGatewayProxyResult>,
) {
  return (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> =>
    observeInvocation(
      deps.metrics,
      { context, correlationId: requestIdOf(event), keys: { route: route.id } },
      async () => {
        const response = await withDynamoDeadline(() => chain(event, context as C));
        logger.debug('request answered', { status: response.statusCode });
        return response;
      },
    );
}

/** A 5xx is ours to look at: logged with the error, never with anything of the request. */
export function respondWithError(route: Route, error: unknown, headers: Record<string, string> = {}): HttpResponse {
  const response = errorResponse(route, error, headers);
  if (response.statusCode >= 500) {
    logger.error('request failed', { status: response.statusCode, ...errorFields(error) });
  }
  return response;
}

/**
 * The first middleware of every route, so its hooks run last: every answer, success or error,
 * carries the gate's headers and the request id; an error becomes the route's error answer
 * (lib/http/error-response.ts).
 */
export function errorAnswers(route: Route): RouteMiddleware<RouteContext> {
  return {
    after: async (request) => {
      const response = request.response;
      if (!response) return;
      request.response = {
        ...response,
        headers: { ...request.context.responseHeaders, ...response.headers, ...requestIdHeaderOf(request.event) },
      };
    },
    onError: async (request) => {
      const headers = { ...request.context.responseHeaders, ...requestIdHeaderOf(request.event) };
      request.response = respondWithError(route, request.error, headers);
    },
  };
}
