import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  type ApiKeyPrincipal,
  type WebhookPrincipal,
  IdempotencyKeyInFlightError,
  IdempotencyKeyReusedError,
  InvalidInputError,
} from '../../domain/model';

/**
 * Who may write with an Idempotency-Key: the Prospect API and the webhooks; no settings answer is ever kept
 * (docs/api.md#settings-api).
 */
type Principal = ApiKeyPrincipal | WebhookPrincipal;
import { type Deps, withDynamoGrace } from '../../storage/client';
import { errorFields, logger } from '../../observability';
import { functionTimeoutSeconds, type Route } from '../../routes';
import { createHash } from 'node:crypto';
import {
  claimIdempotencyKey,
  recordAnswer,
  type AnswerAbout,
  releaseIdempotencyKey,
  type Claim,
  type StoredAnswer,
} from '../../storage/idempotency';
import { keys, sha256Hex, type ItemKey } from '../../storage/table-items';
import { messages as catalogue } from '../../messages';
import { decodePathParameter, respondWithError, type HttpResponse } from './route';

const headerName = 'idempotency-key';
export const maxIdempotencyKeyLength = 255;

const messages = { ...catalogue.idempotency, tooLong: catalogue.idempotency.tooLong(maxIdempotencyKeyLength) };

const detail = (message: string) => ({ field: 'Idempotency-Key', message });

function idempotencyKeyOf(event: Pick<APIGatewayProxyEvent, 'headers'>): string | undefined {
  const name = Object.keys(event.headers ?? {}).find((candidate) => candidate.toLowerCase() === headerName);
  const value = name === undefined ? undefined : event.headers[name]?.trim();
  if (!value) return undefined;
  if (value.length > maxIdempotencyKeyLength) throw new InvalidInputError(messages.tooLong, detail(messages.tooLong));
  return value;
}

/** The ids and clock a request writes with: under an Idempotency-Key, those of its first attempt. */
export type RequestIdentity = Pick<Deps, 'clock' | 'newId'>;

type KeyedEvent = Pick<APIGatewayProxyEvent, 'headers' | 'body'> & {
  pathParameters?: APIGatewayProxyEvent['pathParameters'];
};

/**
 * A key stands for one request (docs/api.md#idempotency-keys): its method, its concrete path (the prospect id and
 * the tag in it) and its body; reused for anything else it gets the "different body" answer,
 * never another resource's answer. The path is written in one canonical encoding, so `a+b`,
 * `a%2Bb` and `a%2bb` are one path. An unreadable parameter stays as received: no canonical
 * encoding has a `%` without two hex digits or an escape that is not UTF-8, so it is no other path.
 */
function requestHash(route: Route, event: KeyedEvent): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const parameter = decodePathParameter(event.pathParameters?.[name] ?? '');
    return parameter.readable ? encodeURIComponent(parameter.value) : parameter.raw;
  });
  return sha256Hex(`${route.method} ${path}\n${event.body ?? ''}`);
}

/**
 * Leaves the key to a retry after a request that keeps no answer. Best effort: if even this write
 * fails, the claim is taken over once the function's timeout has passed. Callers run it inside
 * `withDynamoGrace`, so that a request that has spent its DynamoDB time still gives its key back.
 */
async function release(deps: Pick<Deps, 'db' | 'tableName'>, route: Route, key: ItemKey, claimant: string) {
  try {
    await releaseIdempotencyKey(deps, key, claimant);
  } catch (error) {
    logger.error('idempotency key not released', { route: route.id, ...errorFields(error) });
  }
}

/** A claim whose Lambda can no longer be running (its timeout passed, with a margin for clocks). */
const abandonedAfterSeconds = functionTimeoutSeconds + 5;

/**
 * An answer as an Idempotency-Key keeps it: the HTTP answer, and for a webhook call what its
 * journal entry says of it (`StoredAnswer`), so that a replay is journaled from that value.
 */
export type Replayable = { response: HttpResponse; journal?: StoredAnswer['journal'] };

/**
 * With an Idempotency-Key (docs/api.md#idempotency-keys), the first answer (status and body) is recorded for 24 hours,
 * per workspace and credential, and replayed for the same request; another request under the same
 * key, or a first call still running, is refused. A request that keeps no answer (a 5xx, an
 * answer too large to store, a failure of its own claim) releases the key, yet its writes may have
 * landed: the retry runs again with the first attempt's ids and time, so it rewrites the same
 * items (conditional puts make that a no-op) instead of adding new ones. Without the header
 * nothing is read or written. `replayed` makes a kept answer the caller's value again.
 */
export async function oncePerIdempotencyKey<Answer extends Replayable>(
  deps: Pick<Deps, 'db' | 'tableName' | 'clock' | 'newId' | 'metrics'>,
  route: Route,
  event: KeyedEvent,
  principal: Principal,
  answer: (identity: RequestIdentity) => Promise<Answer>,
  replayed: (kept: Replayable) => Answer,
): Promise<Answer> {
  const idempotencyKey = idempotencyKeyOf(event);
  if (idempotencyKey === undefined) return answer({ clock: deps.clock, newId: deps.newId });
  const credential = principal.kind === 'api-key' ? principal.keyId : principal.endpointId;
  const key = keys.idempotency(`${principal.workspaceId}\n${credential}`, idempotencyKey);
  const claimant = deps.newId();
  let claim: Claim;
  try {
    claim = await claimIdempotencyKey(deps, key, {
      requestHash: requestHash(route, event),
      now: deps.clock(),
      claimant,
      abandonedAfterSeconds,
    });
  } catch (error) {
    // The claim may have landed with its answer lost: give it back rather than block the retries.
    await withDynamoGrace(() => release(deps, route, key, claimant));
    throw error;
  }
  if (claim.kind === 'other_request') throw new IdempotencyKeyReusedError(messages.reused, detail(messages.reused));
  if (claim.kind === 'in_flight') throw new IdempotencyKeyInFlightError(messages.inFlight, detail(messages.inFlight));
  if (claim.kind === 'replay') {
    deps.metrics.count('IdempotentReplays');
    const { statusCode, body, contentType, journal } = claim.answer;
    const response = { statusCode, body, headers: { 'Content-Type': contentType } };
    return replayed(journal === undefined ? { response } : { response, journal });
  }
  const firstAt = new Date(claim.attempt.firstAt);
  let answered: Answer;
  try {
    answered = await answer({ clock: () => firstAt, newId: seededIds(claim.attempt.seed) });
  } catch (error) {
    await withDynamoGrace(() => release(deps, route, key, claimant));
    throw error;
  }
  const { response, journal } = answered;
  if (response.statusCode >= 500) {
    await withDynamoGrace(() => release(deps, route, key, claimant));
    return answered;
  }
  // One grace for both writes: keeping the answer, and giving the key back if that fails.
  await withDynamoGrace(async () => {
    try {
      const contentType = response.headers['Content-Type'] ?? 'application/json; charset=utf-8';
      await recordAnswer(
        deps,
        key,
        claimant,
        {
          statusCode: response.statusCode,
          body: response.body,
          contentType,
          ...(journal === undefined ? {} : { journal }),
        },
        answerAbout(route, event, principal.workspaceId, journal),
      );
    } catch (error) {
      // The change itself is done: answer it. An answer that cannot be stored (too large, or the
      // write failed) releases the key, so a retry runs the request again (docs/api.md#idempotency-keys).
      logger.error('idempotency answer not recorded', { route: route.id, ...errorFields(error) });
      await release(deps, route, key, claimant);
    }
  });
  return answered;
}

/**
 * The record a kept answer names, so that its erasure finds it (docs/adr/0019-erasure-in-the-background.md): the
 * prospect of a Prospect API path, the prospect or candidate a webhook call matched or created.
 */
function answerAbout(
  route: Route,
  event: KeyedEvent,
  workspaceId: string,
  journal: StoredAnswer['journal'],
): AnswerAbout | undefined {
  if (journal?.record_id) {
    return { workspaceId, kind: route.id === 'recruitment' ? 'candidate' : 'prospect', recordId: journal.record_id };
  }
  const prospectId = event.pathParameters?.prospect_id;
  return prospectId ? { workspaceId, kind: 'prospect', recordId: prospectId.toLowerCase() } : undefined;
}

/** A write route's handler, given the deps its request writes with: under an Idempotency-Key, the first attempt's ids and clock. */
type WriteHandle<C> = (event: APIGatewayProxyEvent, context: C, deps: Deps) => Promise<HttpResponse>;

/**
 * The handler of a write route, behind its Idempotency-Key: its answer, success or error, goes
 * through the idempotency record (`oncePerIdempotencyKey`), which replays a first answer or refuses a reused
 * key before the handler runs. A read route has nothing to replay, and no right to write the record.
 */
export function withIdempotencyKey<C extends { principal: Principal }>(
  route: Route,
  deps: Deps,
  handle: WriteHandle<C>,
) {
  return async (event: APIGatewayProxyEvent, context: C): Promise<HttpResponse> => {
    const { response } = await oncePerIdempotencyKey(
      deps,
      route,
      event,
      context.principal,
      async (identity) => ({
        response: await handle(event, context, { ...deps, ...identity }).catch((error: unknown) =>
          respondWithError(route, error),
        ),
      }),
      (kept) => kept,
    );
    return response;
  };
}

/**
 * Ids derived from a seed, in order: the same seed gives the same ids, so a request replayed under
 * its Idempotency-Key writes the same items as its first attempt (UUID v4 layout, variant 10).
 */
function seededIds(seed: string): () => string {
  let counter = 0;
  return () => {
    const hex = createHash('sha256')
      .update(`${seed}:${(counter += 1)}`)
      .digest('hex');
    const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
}
