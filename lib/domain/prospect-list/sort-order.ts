import type { Prospect } from '../model';
import type { ListSort } from './list-query';

/*
 * The orders of a list (docs/api.md#lists-of-prospects), as the index of each holds them
 * (docs/adr/0017-lists-of-prospects.md): instants compare as the strings `toISOString` writes, ties by id ascending,
 * so that two prospects changed in the same millisecond keep one order from page to page.
 */

export type SortedProspect = Pick<Prospect, 'id' | 'created_at' | 'updated_at' | 'next_follow_up_at'>;

const ascending = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Soonest first; a prospect without a follow-up after every one with one. */
const followUpOrder = (a: string | null, b: string | null): number =>
  a === null ? (b === null ? 0 : 1) : b === null ? -1 : ascending(a, b);

const keyOrders: Record<ListSort, (a: SortedProspect, b: SortedProspect) => number> = {
  '-created_at': (a, b) => ascending(b.created_at, a.created_at),
  created_at: (a, b) => ascending(a.created_at, b.created_at),
  '-updated_at': (a, b) => ascending(b.updated_at, a.updated_at),
  updated_at: (a, b) => ascending(a.updated_at, b.updated_at),
  next_follow_up_at: (a, b) => followUpOrder(a.next_follow_up_at, b.next_follow_up_at),
};

/** The comparator of `sort`, for `Array.prototype.sort`: its key, then the id ascending. */
export function compareForSort(sort: ListSort): (a: SortedProspect, b: SortedProspect) => number {
  const byKey = keyOrders[sort];
  return (a, b) => byKey(a, b) || ascending(a.id, b.id);
}
