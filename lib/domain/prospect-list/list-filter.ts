import { nameKey, type FieldDefinition, type FieldValue, type Prospect } from '../model';
import { readFieldValue } from '../fields/field-values';
import type {
  DayBounds,
  FieldFilter,
  FieldFilterValue,
  FollowUpWindow,
  InstantRange,
  ListQuery,
  MemberChoice,
} from './list-query';

/*
 * What a list selects (docs/api.md#lists-of-prospects): whether a prospect, as read strongly from the table, is one
 * the query asks for (docs/adr/0017-lists-of-prospects.md: the index says where to look, the prospect itself decides,
 * so a list never shows one that no longer matches), and which follow-ups it asks for.
 */

const chosen = (choice: MemberChoice | undefined, memberId: string | null): boolean =>
  choice === undefined || (memberId === null ? choice.none : choice.memberIds.includes(memberId));

const among = (ids: readonly string[] | undefined, id: string | null): boolean =>
  ids === undefined || (id !== null && ids.includes(id));

/** Every filter of the query holds (docs/api.md#lists-of-prospects), `overdue` meaning before `now`. */
export function matchesListQuery(
  prospect: Pick<
    Prospect,
    | 'id'
    | 'pipeline_id'
    | 'stage_id'
    | 'setter_id'
    | 'closer_id'
    | 'tag_ids'
    | 'next_follow_up_at'
    | 'created_at'
    | 'updated_at'
    | 'fields'
  >,
  query: ListQuery,
  now: Date,
): boolean {
  const { ranges } = query;
  const followUps = followUpSelection(query, now);
  const followUp = prospect.next_follow_up_at;
  return (
    among(query.ids, prospect.id) &&
    among(query.pipelineIds, prospect.pipeline_id) &&
    among(query.stageIds, prospect.stage_id) &&
    chosen(query.setters, prospect.setter_id) &&
    chosen(query.closers, prospect.closer_id) &&
    (query.memberIds === undefined ||
      among(query.memberIds, prospect.setter_id) ||
      among(query.memberIds, prospect.closer_id)) &&
    (query.tagIds === undefined || query.tagIds.some((tagId) => prospect.tag_ids?.has(tagId) === true)) &&
    (followUp === null ? followUps.withoutFollowUp : followUps.ranges.some((range) => inRange(followUp, range))) &&
    (ranges.created_at === undefined || inRange(prospect.created_at, ranges.created_at)) &&
    (ranges.updated_at === undefined || inRange(prospect.updated_at, ranges.updated_at)) &&
    query.fields.every((filter) => fieldFilterMatches(filter, prospect.fields?.[filter.definition.key]))
  );
}

/*
 * Which follow-ups a list asks for: `follow_up`'s windows, any of them, and `follow_up_from`/`follow_up_to` with them.
 * Instants compare as the strings `toISOString` writes, the order of the follow-up index's keys
 * (docs/adr/0017-lists-of-prospects.md).
 */

/** The instants of the follow-ups asked for, in order and apart, and whether prospects without one are in too. */
type FollowUpSelection = { ranges: InstantRange[]; withoutFollowUp: boolean };

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

const inRange = (instant: string, { from, to }: InstantRange): boolean =>
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

/*
 * `fields.<key>`: the values asked for (`fieldFilterOf`, read as the field's type reads a PATCH's) are compared with
 * the prospect's value as the type answers it.
 */

/**
 * The values a field's value compares as, asked for or stored: a `multi_choice`'s options each, `text` as names
 * compare (docs/api.md#names-as-references): `Paris` finds ` paris `.
 */
export const comparableValues = (definition: Pick<FieldDefinition, 'type'>, value: FieldValue): FieldFilterValue[] => {
  if (Array.isArray(value)) return value;
  return [definition.type === 'text' && typeof value === 'string' ? nameKey(value) : value];
};

/**
 * Whether a prospect's stored value is one the filter asks for: read as its field now reads it (`fieldsView`
 * shows it so), a `multi_choice` carrying any option asked. A prospect without a value never matches.
 */
function fieldFilterMatches(filter: FieldFilter, stored: FieldValue | undefined): boolean {
  if (stored === undefined) return false;
  const reading = readFieldValue(filter.definition, stored);
  if (reading.kind !== 'value') return false;
  return comparableValues(filter.definition, reading.value).some((value) => filter.values.includes(value));
}
