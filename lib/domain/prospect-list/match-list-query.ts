import type { Prospect } from '../model';
import { fieldFilterMatches } from './field-filters';
import { followUpSelection, inRange } from './follow-up-selection';
import type { ListQuery, MemberChoice } from './list-query';

/*
 * Whether a prospect, as read strongly from the table, is one a list asks for (docs/adr/0017-lists-of-prospects.md:
 * the index says where to look, the prospect itself decides, so a list never shows one that no longer matches).
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
