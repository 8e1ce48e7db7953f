/**
 * Domain errors. lib/http/middleware/route.ts is the one place that turns them into HTTP
 * answers, per route error shape. Messages come from the catalogue (lib/messages.ts): they reach people.
 */
export abstract class DomainError extends Error {
  readonly details: unknown;
  constructor(message: string, details?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.details = details;
  }
}

/** Body or parameter that cannot be accepted as sent. */
export class InvalidInputError extends DomainError {}

/** Missing, invalid or revoked credential, disabled webhook, credential in the URL. */
export class UnauthorizedError extends DomainError {}

/** The API key lacks the scope of the route. */
export class ForbiddenError extends DomainError {}

/** Prospect (or candidate, or pipeline) that does not exist in the caller's workspace. */
export class NotFoundError extends DomainError {}

/** A move from or to a protected stage (Closé, Acompte). */
export class ProtectedStageError extends DomainError {}

/** Several records answer to one name, or a concurrent request holds the resource. */
export class ConflictError extends DomainError {}

/** A stage, tag or member that the workspace does not have; a workspace lacking what the call needs. */
export class UnknownReferenceError extends DomainError {}

export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Webhook URL without endpoint_id. */
export class EndpointIdMissingError extends DomainError {}

/** endpoint_id that is not a UUID. */
export class EndpointIdMalformedError extends DomainError {}

/** A well-formed endpoint_id that designates no webhook. */
export class UnknownEndpointError extends DomainError {}

/** DynamoDB still failing after the bounded retries: the caller should retry later. */
export class StorageUnavailableError extends DomainError {}

/** An Idempotency-Key already used with another body (docs/api.md#idempotency-keys). */
export class IdempotencyKeyReusedError extends DomainError {}

/** An Idempotency-Key whose first call is still running (docs/api.md#idempotency-keys): retry in a second. */
export class IdempotencyKeyInFlightError extends DomainError {}
