import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InvalidInputError } from '../domain/errors';
import type { ContactLookup } from '../domain/model';
import type { PageRequest } from '../storage/prospect-pages';
import { messages } from '../messages';
import { decodeCursor, type CursorBinding } from './cursor';
import { pathParameterText } from './request-input';

type QueryEvent = Pick<APIGatewayProxyEvent, 'queryStringParameters' | 'multiValueQueryStringParameters'>;

const refuse = (field: string, message: string) => new InvalidInputError(message, { field, message });

/**
 * One query parameter's value. API Gateway passes a repeated parameter's last value in
 * `queryStringParameters` and all of them in `multiValueQueryStringParameters` ("Set up Lambda
 * proxy integrations in API Gateway", input format): a parameter given twice is ambiguous, a 400.
 */
export function queryValue(event: QueryEvent, name: string): string | undefined {
  const values = event.multiValueQueryStringParameters?.[name];
  if (values && values.length > 1) throw refuse(name, messages.query.repeated(name));
  return values?.[0] ?? event.queryStringParameters?.[name] ?? undefined;
}

export const defaultPageLimit = 50;
export const maxPageLimit = 100;

/** `limit` of a list (docs/api.md#pagination): decimal digits, 1 to 100, default 50. */
export function pageLimitOf(event: QueryEvent): number {
  const limitText = queryValue(event, 'limit');
  const limit = limitText === undefined ? defaultPageLimit : Number(limitText);
  if (limitText !== undefined && (!/^\d{1,3}$/.test(limitText) || limit < 1 || limit > maxPageLimit)) {
    throw refuse('limit', messages.query.invalidLimit);
  }
  return limit;
}

/**
 * `limit` and `cursor` of a list (docs/api.md#pagination), both checked before the prospect is
 * looked for (400 before 404).
 */
export function pageRequestOf(event: QueryEvent, binding: CursorBinding): PageRequest {
  const limit = pageLimitOf(event);
  const cursor = queryValue(event, 'cursor');
  return cursor === undefined ? { limit } : { limit, after: decodeCursor(cursor, binding) };
}

const contactParameters = ['email', 'phone', 'social_url'] as const;

/** Exactly one of `email`, `phone`, `social_url` (docs/api.md#find-a-prospect-by-contact). */
export function contactLookupOf(event: QueryEvent): ContactLookup {
  const given = contactParameters.flatMap((field) => {
    const value = queryValue(event, field);
    return value === undefined ? [] : [{ field, value }];
  });
  const [lookup] = given;
  if (given.length !== 1 || lookup === undefined) throw refuse('query', messages.query.oneContact);
  return lookup;
}

/**
 * A list route's request (docs/api.md#pagination): the page asked for, read before the path's
 * prospect id is checked (400 before 404), and the cursor binding of its next page.
 */
export function listRequestOf(
  event: QueryEvent & Pick<APIGatewayProxyEvent, 'pathParameters'>,
  list: 'notes' | 'changes',
  workspaceId: string,
): { page: PageRequest; binding: CursorBinding } {
  const binding = { list, workspaceId, prospectId: pathParameterText(event, 'prospect_id').toLowerCase() };
  return { page: pageRequestOf(event, binding), binding };
}
