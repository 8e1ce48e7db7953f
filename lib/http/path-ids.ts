import type { APIGatewayProxyEvent } from 'aws-lambda';
import { NotFoundError } from '../domain/errors';
import { isUuid } from '../ids';
import { messages } from '../messages';

/** A prospect_id that is not a UUID is simply not found, before any read (docs/api.md#path-ids). */
export function prospectIdOf(event: Pick<APIGatewayProxyEvent, 'pathParameters'>): string {
  const id = event.pathParameters?.prospect_id;
  if (!isUuid(id)) throw new NotFoundError(messages.prospect.notFound);
  return id.toLowerCase();
}
