import { createHash } from 'node:crypto';
import type { ListQuery } from './list-query';

/*
 * What a list's cursor is bound to (docs/adr/0017-lists-of-prospects.md, point 4): the query it was issued for, as
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
