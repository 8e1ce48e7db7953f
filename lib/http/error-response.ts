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
} from '../domain/errors';
import type { ErrorShape, Route } from '../routes';
import { json, type HttpResponse } from './response';
import { messages } from '../messages';

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

/** Idempotency keys on the recruitment webhook: form tools retry a 500, not a 409 (docs/api.md#idempotency-keys). */
const recruitmentRules: readonly Rule[] = [
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
  return route.credential === 'api-key' ? apiKeyRules : recruitmentRules;
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

/** Only errors the rules name are exposed; anything else is a generic 500 that leaks nothing. */
export function errorResponse(
  route: Pick<Route, 'errorShape' | 'credential'>,
  error: unknown,
  headers: Record<string, string> = {},
): HttpResponse {
  const shape = route.errorShape;
  const rule = rulesOf(route).find((candidate) => error instanceof candidate.error);
  const extraHeaders = retryAfter(error);
  if (!rule || !(error instanceof Error)) {
    return render(shape, 500, internal[shape].code, internal[shape].message, undefined, {
      ...headers,
      ...extraHeaders,
    });
  }
  const details = 'details' in error ? error.details : undefined;
  const message = rule.status >= 500 ? internal[shape].message : error.message;
  return render(shape, rule.status, rule.code, message, rule.status >= 500 ? undefined : details, {
    ...headers,
    ...extraHeaders,
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
