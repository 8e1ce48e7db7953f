import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Principal } from '../auth/context';
import type { Deps } from '../deps';
import { IdempotencyKeyInFlightError, IdempotencyKeyReusedError, InvalidInputError } from '../errors';
import { logError } from '../log';
import type { Route } from '../routes';
import { seededIds } from '../ids';
import { claimIdempotencyKey, markAttemptFailed, recordAnswer } from '../storage/idempotency';
import { keys, sha256Hex } from '../storage/keys';
import type { HttpResponse } from './response';

const headerName = 'idempotency-key';
export const maxIdempotencyKeyLength = 255;

const messages = {
  tooLong: `L'en-tête Idempotency-Key dépasse ${maxIdempotencyKeyLength} caractères.`,
  reused:
    'Cette clé Idempotency-Key a déjà servi pour un autre contenu : utilisez une nouvelle clé pour une nouvelle requête.',
  inFlight: 'Une requête avec cette clé Idempotency-Key est encore en cours : réessayez dans une seconde.',
} as const;

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

/**
 * Decisions 5: with an Idempotency-Key, the first answer (status and body) is recorded for 24 hours,
 * per workspace, credential and route, and replayed for the same key and body; another body, or a
 * first call still running, is refused. A 5xx is not an answer to keep, yet its writes may have
 * landed: the retry runs again with the first attempt's ids and time, so it rewrites the same items
 * (conditional puts make that a no-op) instead of adding new ones. Without the header nothing is
 * read or written.
 */
export async function answerOnce(
  deps: Pick<Deps, 'db' | 'tableName' | 'clock' | 'newId'>,
  route: Route,
  event: Pick<APIGatewayProxyEvent, 'headers' | 'body'>,
  principal: Principal,
  answer: (identity: RequestIdentity) => Promise<HttpResponse>,
): Promise<HttpResponse> {
  const idempotencyKey = idempotencyKeyOf(event);
  if (idempotencyKey === undefined) return answer({ clock: deps.clock, newId: deps.newId });
  const credential = principal.kind === 'api-key' ? principal.keyId : principal.endpointId;
  const key = keys.idempotency(`${principal.workspaceId}\n${credential}\n${route.id}`, idempotencyKey);
  const claim = await claimIdempotencyKey(deps, key, {
    bodyHash: sha256Hex(event.body ?? ''),
    now: deps.clock(),
    seed: deps.newId(),
  });
  if (claim.kind === 'other_body') throw new IdempotencyKeyReusedError(messages.reused, detail(messages.reused));
  if (claim.kind === 'in_flight') throw new IdempotencyKeyInFlightError(messages.inFlight, detail(messages.inFlight));
  if (claim.kind === 'replay') {
    const { statusCode, body, contentType } = claim.answer;
    return { statusCode, body, headers: { 'Content-Type': contentType } };
  }
  const firstAt = new Date(claim.attempt.firstAt);
  const response = await answer({ clock: () => firstAt, newId: seededIds(claim.attempt.seed) });
  try {
    if (response.statusCode >= 500) await markAttemptFailed(deps, key);
    else {
      const contentType = response.headers['Content-Type'] ?? 'application/json; charset=utf-8';
      await recordAnswer(deps, key, { statusCode: response.statusCode, body: response.body, contentType });
    }
  } catch (error) {
    // The change itself is done: answer it. The key stays "in flight" until abandoned, so a retry
    // in the meantime is refused rather than run twice.
    logError('idempotency record not updated', error, { route: route.id });
  }
  return response;
}
