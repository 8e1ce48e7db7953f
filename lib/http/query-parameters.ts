import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InvalidInputError, type ContactLookup, isEmailAddress, isUuid } from '../domain/model';
import type { PageRequest, PagePosition } from '../storage/table-items';
import { messages } from '../messages';
import { pathParameterText } from './request-input';
import { createHash } from 'node:crypto';

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

/**
 * Exactly one of `email`, `phone`, `social_url`, and nothing else (docs/api.md#find-a-prospect-by-contact): another
 * parameter beside it is a 400 naming that parameter.
 */
export function contactLookupOf(event: QueryEvent): ContactLookup {
  const given = contactParameters.flatMap((field) => {
    const value = queryValue(event, field);
    return value === undefined ? [] : [{ field, value }];
  });
  const [lookup] = given;
  if (given.length !== 1 || lookup === undefined) throw refuse('query', messages.query.oneContact);
  const other = Object.keys(queryParametersOf(event)).find((name) => name !== lookup.field);
  if (other !== undefined) throw refuse(other, messages.query.contactAlone(other));
  return lookup;
}

/**
 * `email` of the candidates' look-up (docs/api.md#erasure-export-and-retention), and nothing else: absent, given
 * twice, or not an address the recruitment webhook would keep (trimmed, as it trims), a 400 naming `email`; another
 * parameter, a 400 naming it.
 */
export function candidateEmailOf(event: QueryEvent): string {
  const other = Object.keys(queryParametersOf(event)).find((name) => name !== 'email');
  if (other !== undefined) throw refuse(other, messages.candidateLookup.unknownParameter(other));
  const email = queryValue(event, 'email')?.trim();
  if (email === undefined || email === '') throw refuse('email', messages.candidateLookup.missingEmail);
  if (!isEmailAddress(email)) throw refuse('email', messages.candidateLookup.invalidEmail);
  return email;
}

/** The query string as API Gateway passes it: each parameter's values in the order sent (none: empty). */
export function queryParametersOf(event: QueryEvent): Record<string, string[]> {
  if (event.multiValueQueryStringParameters) {
    return Object.fromEntries(
      Object.entries(event.multiValueQueryStringParameters).map(([name, values]) => [name, values ?? []]),
    );
  }
  return Object.fromEntries(
    Object.entries(event.queryStringParameters ?? {}).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, [value]]],
    ),
  );
}

/** Whether the request names a contact (`email`, `phone`, `social_url`): the look-up, not the list. */
export const namesContact = (event: QueryEvent): boolean =>
  contactParameters.some((name) => (queryParametersOf(event)[name]?.length ?? 0) > 0);

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

/**
 * The opaque `cursor` of the read routes' lists (docs/api.md#pagination): the position of the
 * previous page's last item, bound to the list, the workspace and the prospect it was issued for
 * (the audit log's, to the workspace alone).
 * It is validated, not trusted: a cursor of another list, prospect or workspace, or one that does
 * not decode to a reception time and a UUID, is a 400; and the start key is built from the
 * caller's own workspace and prospect (lib/storage/prospect-pages.ts), so no cursor can reach
 * another partition.
 */
export type CursorBinding =
  | { list: 'notes' | 'changes'; workspaceId: string; prospectId: string }
  /** The audit log of a workspace (docs/api.md#audit-log): a position is an entry's time and id. */
  | { list: 'audit'; workspaceId: string }
  /** The changes made with an API key (`GET /api-keys/{k}/changes`, docs/api.md#settings-api). */
  | { list: 'key-changes'; workspaceId: string; keyId: string }
  /**
   * The webhook call journal of a workspace (docs/api.md#webhook-call-journal, #settings-api), all calls or the failed
   * ones only.
   */
  | { list: 'webhook-calls' | 'failed-webhook-calls'; workspaceId: string }
  /** The deliveries of one subscription (docs/api.md#outbound-events, #settings-api), any status or one. */
  | { list: 'deliveries'; workspaceId: string; subscriptionId: string; status: string };

/** Far above any cursor issued (about 130 characters), far below the gateway's URL limit. */
const maxCursorLength = 512;
/** Reception times are written by `Date.prototype.toISOString`: exactly this layout. */
const receptionTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** What, besides the list and the workspace, a cursor is bound to. */
const narrowing = (binding: CursorBinding): string => {
  if ('prospectId' in binding) return binding.prospectId;
  if ('keyId' in binding) return binding.keyId;
  if ('subscriptionId' in binding) return `${binding.subscriptionId}\n${binding.status}`;
  return '';
};

const bindingOf = (binding: CursorBinding): string =>
  createHash('sha256')
    .update(`${binding.list}\n${binding.workspaceId}\n${narrowing(binding)}`, 'utf8')
    .digest('base64url')
    .slice(0, 22);

export function encodeCursor(binding: CursorBinding, position: PagePosition): string {
  return Buffer.from(JSON.stringify({ b: bindingOf(binding), a: position.at, i: position.id }), 'utf8').toString(
    'base64url',
  );
}

export function decodeCursor(cursor: string, binding: CursorBinding): PagePosition {
  const decoded = cursor.length <= maxCursorLength ? parse(cursor) : undefined;
  if (
    decoded === undefined ||
    decoded.b !== bindingOf(binding) ||
    typeof decoded.a !== 'string' ||
    !receptionTime.test(decoded.a) ||
    Number.isNaN(Date.parse(decoded.a)) ||
    new Date(decoded.a).toISOString() !== decoded.a ||
    !isUuid(decoded.i) ||
    Object.keys(decoded).length !== 3
  ) {
    throw new InvalidInputError(messages.query.invalidCursor, {
      field: 'cursor',
      message: messages.query.invalidCursor,
    });
  }
  return { at: decoded.a, id: decoded.i.toLowerCase() };
}

function parse(cursor: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
