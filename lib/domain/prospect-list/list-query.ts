import type { FieldDefinition } from '../model';

/*
 * What `GET /prospects` lists, once its parameters are read (docs/api.md#lists-of-prospects): every reference
 * resolved to ids, every date to an instant, every custom field's value to the form its type answers. A filter left
 * out (absent) lets every prospect through; different filters combine with AND, the values of one with OR.
 */

/** The orders of a list: by creation or last change, either way, or soonest follow-up first. */
export const listSorts = ['-created_at', 'created_at', '-updated_at', 'updated_at', 'next_follow_up_at'] as const;
export type ListSort = (typeof listSorts)[number];
export const defaultListSort: ListSort = '-created_at';

/** `follow_up`'s windows: before now, the workspace's current day, up to its end, without one, with one. */
export const followUpWindows = ['overdue', 'today', 'due', 'none', 'any'] as const;
export type FollowUpWindow = (typeof followUpWindows)[number];

/** Instants as `toISOString` writes them: `from` included, `to` excluded, an absent bound open. */
export type InstantRange = { from?: string; to?: string };

/** The workspace's current day, as `WorkspaceDays.today` gives it. */
export type DayBounds = { start: string; end: string };

/**
 * The days of a workspace in its time zone: what a date alone and `follow_up=today` mean there. Instants are ISO 8601
 * (parseListQuery writes them again as `toISOString` does).
 */
export interface WorkspaceDays {
  /** The first instant of the day `date` (`YYYY-MM-DD`, a real date) in the workspace's time zone. */
  startOf(date: string): string;
  /** The workspace's day at `now`: its first instant and the first instant of the next day (23 h or 25 h on DST days). */
  today(now: Date): DayBounds;
}

/** `setter_id` or `closer_id`: these members, or (`none`) no one. */
export type MemberChoice = { memberIds: string[]; none: boolean };

/**
 * `follow_up`: the windows asked for, and the workspace's day they were read on (`today` and `due` end with it;
 * `overdue` ends at the moment the prospects are read).
 */
export type FollowUpChoice = { windows: FollowUpWindow[]; day: DayBounds };

/**
 * `fields.<key>`: the values its type answers, any of which a prospect's value matches (`text` values as names
 * compare, `nameKey`; a `multi_choice` value given lists its options, each a value here).
 */
export type FieldFilterValue = string | number | boolean;
export type FieldFilter = {
  definition: Pick<FieldDefinition, 'key' | 'type' | 'options'>;
  values: FieldFilterValue[];
};

/** A prospect's attribute a range of instants is asked on (`created_from`/`created_to`, …). */
export type RangedAttribute = 'created_at' | 'updated_at' | 'next_follow_up_at';

export type ListQuery = {
  /** `id`: lower case, each once. */
  ids?: string[];
  pipelineIds?: string[];
  stageIds?: string[];
  setters?: MemberChoice;
  closers?: MemberChoice;
  /** `member_id`: the setter or the closer is one of them. */
  memberIds?: string[];
  tagIds?: string[];
  followUp?: FollowUpChoice;
  ranges: Partial<Record<RangedAttribute, InstantRange>>;
  /** By key. */
  fields: FieldFilter[];
  sort: ListSort;
  limit: number;
  /** As sent, not read: what it holds is the list's to check against the query (`listQueryDigest`). */
  cursor?: string;
};

/** The values of the repeatable filters, `id` apart, a query may give in all. */
export const maxFilterValues = 20;
/** The ids `id` may give. */
export const maxListIds = 100;
