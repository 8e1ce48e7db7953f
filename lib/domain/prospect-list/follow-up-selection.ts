import type { DayBounds, FollowUpWindow, InstantRange, ListQuery } from './list-query';

/*
 * Which follow-ups a list asks for (docs/api.md#lists-of-prospects): `follow_up`'s windows, any of them, and
 * `follow_up_from`/`follow_up_to` with them. Instants compare as the strings `toISOString` writes, the order of the
 * follow-up index's keys (docs/adr/0017-lists-of-prospects.md).
 */

/** The instants of the follow-ups asked for, in order and apart, and whether prospects without one are in too. */
export type FollowUpSelection = { ranges: InstantRange[]; withoutFollowUp: boolean };

/** A range with its absent bounds left out, not set to undefined. */
const rangeOf = (from: string | undefined, to: string | undefined): InstantRange => ({
  ...(from === undefined ? {} : { from }),
  ...(to === undefined ? {} : { to }),
});

/** Of two bounds, absent meaning none (before or after everything), the one that keeps less. */
const higherStart = (a?: string, b?: string) => (a === undefined ? b : b === undefined || a > b ? a : b);
const lowerEnd = (a?: string, b?: string) => (a === undefined ? b : b === undefined || a < b ? a : b);
/** Of two upper bounds, the one that keeps more. */
const higherEnd = (a?: string, b?: string) => (a === undefined || b === undefined ? undefined : a > b ? a : b);

export const inRange = (instant: string, { from, to }: InstantRange): boolean =>
  (from === undefined || instant >= from) && (to === undefined || instant < to);

const isEmpty = ({ from, to }: InstantRange) => from !== undefined && to !== undefined && from >= to;

const byStart = (a: InstantRange, b: InstantRange) =>
  a.from === b.from ? 0 : a.from === undefined ? -1 : b.from === undefined ? 1 : a.from < b.from ? -1 : 1;

/** Ranges that overlap or touch become one, so that no follow-up is in two of them; empty ones are dropped. */
function merged(ranges: InstantRange[]): InstantRange[] {
  const result: InstantRange[] = [];
  for (const range of ranges.filter((candidate) => !isEmpty(candidate)).sort(byStart)) {
    const last = result[result.length - 1];
    if (last && (last.to === undefined || range.from === undefined || range.from <= last.to)) {
      result[result.length - 1] = rangeOf(last.from, higherEnd(last.to, range.to));
    } else {
      result.push(range);
    }
  }
  return result;
}

function windowRange(window: Exclude<FollowUpWindow, 'none'>, day: DayBounds, now: Date): InstantRange {
  switch (window) {
    case 'overdue':
      return { to: now.toISOString() };
    case 'today':
      return { from: day.start, to: day.end };
    case 'due':
      return { to: day.end };
    case 'any':
      return {};
  }
}

/**
 * What `follow_up` and `follow_up_from`/`follow_up_to` select at `now`: `overdue` before `now`, `today` within the
 * workspace's day the query was read on, `due` up to its end, `any` every follow-up, `none` the prospects without one;
 * a range keeps only the follow-ups within it (so no prospect without one). Neither given: everything.
 */
export function followUpSelection(query: Pick<ListQuery, 'followUp' | 'ranges'>, now: Date): FollowUpSelection {
  const { followUp } = query;
  const asked =
    followUp === undefined
      ? [{}]
      : followUp.windows.flatMap((window) => (window === 'none' ? [] : [windowRange(window, followUp.day, now)]));
  const range = query.ranges.next_follow_up_at;
  return {
    ranges: merged(
      range === undefined
        ? asked
        : asked.map(({ from, to }) => rangeOf(higherStart(from, range.from), lowerEnd(to, range.to))),
    ),
    withoutFollowUp: range === undefined && (followUp === undefined || followUp.windows.includes('none')),
  };
}
