import { createHash } from 'node:crypto';
import { InvalidInputError } from '../model';
import { messages } from '../../messages';
import type { ListPosition } from './list-page';
import type { ListQuery } from './list-query';

/*
 * The `cursor` of a list of prospects (docs/api.md#lists-of-prospects): where the previous page stopped (the phase of
 * the list and the last key examined, `<instant>#<id>`), bound to the digest of the query it was issued for
 * (`listQueryDigest`: its parameters, `limit` and the workspace). Any other query, or a cursor that does not decode
 * to such a position, is a 400: a cursor is read, never trusted, and the partitions read are the caller's own.
 */

const maxCursorLength = 512;
/** An index key of a list: an instant (or an order's mark, `0…`/`1`) then `#` and a prospect's id. */
const positionKey = /^[0-9A-Za-z:.+-]{1,40}#[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const maxPhase = 1;

export function encodeListCursor(digest: string, position: ListPosition): string {
  const body = { d: digest, p: position.phase, k: position.key, ...(position.tie ? { t: 1 } : {}) };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

export function decodeListCursor(cursor: string, digest: string): ListPosition {
  const decoded = cursor.length <= maxCursorLength ? parse(cursor) : undefined;
  const valid =
    decoded !== undefined &&
    decoded.d === digest &&
    Number.isInteger(decoded.p) &&
    (decoded.p as number) >= 0 &&
    (decoded.p as number) <= maxPhase &&
    typeof decoded.k === 'string' &&
    (decoded.k === '' || positionKey.test(decoded.k)) &&
    (decoded.t === undefined || decoded.t === 1) &&
    Object.keys(decoded).every((name) => ['d', 'p', 'k', 't'].includes(name));
  if (!valid) {
    throw new InvalidInputError(messages.query.invalidCursor, {
      field: 'cursor',
      message: messages.query.invalidCursor,
    });
  }
  return { phase: decoded.p as number, key: decoded.k as string, ...(decoded.t === 1 ? { tie: true } : {}) };
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

/*
 * The digest a cursor is bound to (docs/adr/0017-lists-of-prospects.md, point 4): the query it was issued for, as
 * read (ids, not the names they were given by; instants, not how they were written), `limit` included, and the
 * workspace. The cursor itself is left out, so every page of one list has the same digest.
 */

/** JSON text orders values of any type alike, so that no order of sending survives. */
const sortedSet = <T>(values: readonly T[]): T[] => {
  const byText = new Map(values.map((value) => [JSON.stringify(value), value]));
  return [...byText.keys()].sort().map((text) => byText.get(text) as T);
};

/**
 * The query in one canonical form: every list of values each value once, in one order; keys in a fixed order. The
 * workspace's day `follow_up` was read on is left out: a list read across midnight keeps its pages.
 */
function canonical(query: ListQuery, workspaceId: string): unknown[] {
  const members = (choice: ListQuery['setters']) => choice && [sortedSet(choice.memberIds), choice.none];
  const list = (values: readonly string[] | undefined) => values && sortedSet(values);
  return [
    workspaceId,
    list(query.ids),
    list(query.pipelineIds),
    list(query.stageIds),
    members(query.setters),
    members(query.closers),
    list(query.memberIds),
    list(query.tagIds),
    list(query.followUp?.windows),
    (['created_at', 'updated_at', 'next_follow_up_at'] as const).map((attribute) => {
      const range = query.ranges[attribute];
      return range && [range.from, range.to];
    }),
    [...query.fields]
      .sort((a, b) => (a.definition.key < b.definition.key ? -1 : a.definition.key > b.definition.key ? 1 : 0))
      .map((filter) => [filter.definition.key, sortedSet(filter.values)]),
    query.sort,
    query.limit,
  ];
}

/** 22 base64url characters (132 bits) of a SHA-256: as long as the read routes' cursor bindings. */
export function listQueryDigest(query: ListQuery, workspaceId: string): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(query, workspaceId)), 'utf8')
    .digest('base64url')
    .slice(0, 22);
}
