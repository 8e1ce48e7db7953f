import type { APIGatewayProxyEvent } from 'aws-lambda';
import { NotFoundError } from '../errors';
import { isUuid } from '../ids';

export const prospectNotFound = 'Prospect introuvable dans cet espace.';

/** Decisions 3: a prospect_id that is not a UUID is simply not found, before any read. */
export function prospectIdOf(event: Pick<APIGatewayProxyEvent, 'pathParameters'>): string {
  const id = event.pathParameters?.prospect_id;
  if (!isUuid(id)) throw new NotFoundError(prospectNotFound);
  return id.toLowerCase();
}
