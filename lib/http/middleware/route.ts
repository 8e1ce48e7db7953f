import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { type Deps, withDynamoDeadline } from '../../storage/client';
import { noStoreHeaders, type ErrorShape, type Route } from '../../routes';
import {
  ConflictError,
  IdempotencyKeyInFlightError,
  IdempotencyKeyReusedError,
  EndpointIdMalformedError,
  EndpointIdMissingError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  ProtectedStageError,
  RateLimitedError,
  UnauthorizedError,
  UnknownEndpointError,
  UnknownReferenceError,
} from '../../domain/model';
import { messages } from '../../messages';
import { errorFields, logger, observeInvocation } from '../../observability';

/** A route's answer: always a JSON body, with its headers. */
export type HttpResponse = APIGatewayProxyResult & { headers: Record<string, string> };

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/** A path parameter after its one decoding: its text, or the proof that it cannot be read as sent. */
export type DecodedPathParameter = { readable: true; value: string } | { readable: false; raw: string };

/**
 * The one decoding of a path parameter. API Gateway REST hands `path` and `pathParameters` to the
 * function still percent-encoded, as the client sent them; only HTTP APIs decode. AWS's page on the
 * proxy event ("Lambda proxy integrations in API Gateway", input format,
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-lambda-proxy-integrations.html)
 * does not say it: live captures do (github.com/hotsock/voker, vokerhttp/testdata/apigwv1-request.json
 * and ingress-paths.json, relied on in github.com/middleapi/standard-server/pull/93;
 * github.com/dherault/serverless-offline/issues/265: `test%7Cid` reaches the function as sent).
 * So a handler decodes, exactly once: `%2F` is a slash inside the value, `%25` a percent sign,
 * and `+` stays a plus (a path is not a form; github.com/dherault/serverless-offline/issues/638).
 * A malformed escape (`%E9` alone is not UTF-8, `%` alone is no escape) is not an error of ours:
 * each reader answers it as its route's 404 or 400.
 */
export function decodePathParameter(raw: string): DecodedPathParameter {
  try {
    return { readable: true, value: decodeURIComponent(raw) };
  } catch {
    return { readable: false, raw };
  }
}

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
 * A route without credential (sign-in, refresh, password reset: the person's proof is in the body, checked by the
 * identity provider), the one composition of those functions: `responseHeadersAndErrors → handler`, observed.
 */
export const anonymousRoute = (
  route: Route,
  deps: Pick<Deps, 'metrics'>,
  handler: (event: APIGatewayProxyEvent) => Promise<HttpResponse>,
) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>().use(responseHeadersAndErrors(route)).handler(handler),
  );

/**
 * The first middleware of every route, so its hooks run last: every answer, success or error,
 * carries the gate's headers, the request id and `noStoreHeaders`, which no handler can take off
 * (an answer replayed under an Idempotency-Key included); an error becomes the route's error answer
 * (`errorResponse` below).
 */
export function responseHeadersAndErrors(route: Route): RouteMiddleware<RouteContext> {
  return {
    after: async (request) => {
      const response = request.response;
      if (!response) return;
      request.response = {
        ...response,
        headers: {
          ...request.context.responseHeaders,
          ...response.headers,
          ...requestIdHeaderOf(request.event),
          ...noStoreHeaders,
        },
      };
    },
    onError: async (request) => {
      const headers = { ...request.context.responseHeaders, ...requestIdHeaderOf(request.event), ...noStoreHeaders };
      request.response = respondWithError(route, request.error, headers);
    },
  };
}

type Rule = { error: abstract new (...args: never[]) => Error; status: number; code: string };

/**
 * Codes of the Prospect API and the recruitment webhook (docs/api.md#prospect-api-errors,
 * docs/api.md#recruitment-webhook-errors).
 */
const standardRules: readonly Rule[] = [
  { error: InvalidInputError, status: 400, code: 'bad_request' },
  { error: EndpointIdMissingError, status: 400, code: 'bad_request' },
  { error: EndpointIdMalformedError, status: 400, code: 'bad_request' },
  { error: UnauthorizedError, status: 401, code: 'unauthorized' },
  { error: ForbiddenError, status: 403, code: 'forbidden' },
  { error: NotFoundError, status: 404, code: 'not_found' },
  { error: UnknownEndpointError, status: 404, code: 'not_found' },
  { error: ProtectedStageError, status: 409, code: 'conflict' },
  { error: ConflictError, status: 409, code: 'conflict' },
  { error: UnknownReferenceError, status: 422, code: 'unprocessable' },
  { error: RateLimitedError, status: 429, code: 'rate_limited' },
];

/**
 * Idempotency keys on the Prospect API: the in-flight refusal is a 409 the client retries
 * (docs/api.md#idempotency-keys).
 */
const apiKeyRules: readonly Rule[] = [
  { error: IdempotencyKeyReusedError, status: 422, code: 'unprocessable' },
  { error: IdempotencyKeyInFlightError, status: 409, code: 'conflict' },
  ...standardRules,
];

/**
 * Every other route of the standard shape: the recruitment webhook, the settings routes and the anonymous ones
 * (sign-in, password reset). Of them only the recruitment webhook takes an Idempotency-Key: form tools retry a 500,
 * not a 409 (docs/api.md#idempotency-keys).
 */
const webhookAndSettingsRules: readonly Rule[] = [
  { error: IdempotencyKeyReusedError, status: 400, code: 'bad_request' },
  { error: IdempotencyKeyInFlightError, status: 500, code: 'internal' },
  ...standardRules,
];

/** The lead webhook's codes: an unknown endpoint is a 401 there (docs/api.md#lead-webhook-errors). */
const leadRules: readonly Rule[] = [
  { error: IdempotencyKeyReusedError, status: 400, code: 'invalid_payload' },
  { error: IdempotencyKeyInFlightError, status: 500, code: 'ingest_failed' },
  { error: EndpointIdMissingError, status: 404, code: 'not_found' },
  { error: EndpointIdMalformedError, status: 400, code: 'invalid_endpoint_id' },
  { error: InvalidInputError, status: 400, code: 'invalid_payload' },
  { error: UnauthorizedError, status: 401, code: 'unauthorized' },
  { error: UnknownEndpointError, status: 401, code: 'unauthorized' },
];

const internal = {
  standard: { code: 'internal', message: messages.failure.internal },
  lead: { code: 'ingest_failed', message: messages.failure.leadNotSaved },
} as const;

function rulesOf(route: Pick<Route, 'errorShape' | 'credential'>): readonly Rule[] {
  if (route.errorShape === 'lead') return leadRules;
  return route.credential === 'api-key' ? apiKeyRules : webhookAndSettingsRules;
}

/** DynamoDB's own "slow down" answers, already retried by the SDK: the caller may try again shortly. */
const throttlingErrors = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
]);

function retryAfter(error: unknown): Record<string, string> {
  if (error instanceof RateLimitedError) return { 'Retry-After': String(error.retryAfterSeconds) };
  if (error instanceof IdempotencyKeyInFlightError) return { 'Retry-After': '1' };
  if (error instanceof Error && throttlingErrors.has(error.name)) return { 'Retry-After': '1' };
  return {};
}

/**
 * An error as its route answers it, before it is written out: its status and code (what the
 * webhook journal and the refusal counts take), its message and details, and the headers it adds.
 * Only errors the rules name are exposed; anything else is a generic 500 that leaks nothing.
 */
export type MappedError = {
  status: number;
  code: string;
  message: string;
  details: unknown;
  headers: Record<string, string>;
};

export function mappedErrorOf(route: Pick<Route, 'errorShape' | 'credential'>, error: unknown): MappedError {
  const shape = route.errorShape;
  const rule = rulesOf(route).find((candidate) => error instanceof candidate.error);
  const headers = retryAfter(error);
  if (!rule || !(error instanceof Error)) {
    return { status: 500, code: internal[shape].code, message: internal[shape].message, details: undefined, headers };
  }
  const failed = rule.status >= 500;
  const details = 'details' in error ? error.details : undefined;
  return {
    status: rule.status,
    code: rule.code,
    message: failed ? internal[shape].message : error.message,
    details: failed ? undefined : details,
    headers,
  };
}

export function errorResponse(
  route: Pick<Route, 'errorShape' | 'credential'>,
  error: unknown,
  headers: Record<string, string> = {},
): HttpResponse {
  const answer = mappedErrorOf(route, error);
  return render(route.errorShape, answer.status, answer.code, answer.message, answer.details, {
    ...headers,
    ...answer.headers,
  });
}

export function render(
  shape: ErrorShape,
  status: number,
  code: string,
  message: string,
  details: unknown,
  headers: Record<string, string> = {},
): HttpResponse {
  if (shape === 'lead') return json(status, { error: code, message }, headers);
  return json(status, { error: details === undefined ? { code, message } : { code, message, details } }, headers);
}

/** Every answer past the authorizer on the Prospect API states the tighter limit that applies (docs/api.md#rate-limits). */
export function rateLimitHeaders(state: {
  limit: number;
  remaining: number;
  resetSeconds: number;
}): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
  };
}
