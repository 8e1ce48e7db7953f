import {
  ConflictError,
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
} from '../errors';
import type { ErrorShape } from '../routes';
import { json, type HttpResponse } from './response';

type Rule = { error: abstract new (...args: never[]) => Error; status: number; code: string };

/** Sections 7.1 and 7.2 with decisions 3 and 4. */
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

/** Section 7.3 with decisions 4: an unknown endpoint is a 401 on the lead webhook. */
const leadRules: readonly Rule[] = [
  { error: EndpointIdMissingError, status: 404, code: 'not_found' },
  { error: EndpointIdMalformedError, status: 400, code: 'invalid_endpoint_id' },
  { error: InvalidInputError, status: 400, code: 'invalid_payload' },
  { error: UnauthorizedError, status: 401, code: 'unauthorized' },
  { error: UnknownEndpointError, status: 401, code: 'unauthorized' },
];

const internal = {
  standard: { code: 'internal', message: 'Erreur interne : réessayez dans quelques instants.' },
  lead: {
    code: 'ingest_failed',
    message: "Le prospect n'a pas pu être enregistré : réessayez dans quelques instants.",
  },
} as const;

/** Only errors the rules name are exposed; anything else is a generic 500 that leaks nothing. */
export function errorResponse(shape: ErrorShape, error: unknown, headers: Record<string, string> = {}): HttpResponse {
  const rules = shape === 'lead' ? leadRules : standardRules;
  const rule = rules.find((candidate) => error instanceof candidate.error);
  const extraHeaders: Record<string, string> =
    error instanceof RateLimitedError ? { 'Retry-After': String(error.retryAfterSeconds) } : {};
  if (!rule || !(error instanceof Error)) {
    return render(shape, 500, internal[shape].code, internal[shape].message, undefined, headers);
  }
  const details = 'details' in error ? error.details : undefined;
  return render(shape, rule.status, rule.code, error.message, details, { ...headers, ...extraHeaders });
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
