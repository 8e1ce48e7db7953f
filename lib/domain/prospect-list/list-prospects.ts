import type { Deps } from '../../storage/client';
import { loadWorkspaceConfig } from '../../storage/workspace-config';
import { liveFields, type WorkspaceConfig } from '../model';
import { prospectReadView, type ProspectReadView } from '../prospect/read-views';
import { dayAt, dayOf } from '../time-zone';
import { decodeListCursor, encodeListCursor, listQueryDigest } from './list-cursor';
import { followUpSelection, matchesListQuery } from './list-filter';
import { listPlan, readListPage, type PlanInput } from './list-page';
import type { InstantRange, ListQuery, WorkspaceDays } from './list-query';
import { parseListQuery, type ListParameters } from './read-list-query';

export type ProspectList = { prospects: ProspectReadView[]; next_cursor: string | null };

/**
 * `GET /prospects` without a contact, and `GET /workspaces/{w}/prospects` (docs/api.md#lists-of-prospects): the query
 * read against the workspace's configuration and in its time zone, the page read by the plan of its order
 * (docs/adr/0017-lists-of-prospects.md), each prospect as the read routes show it.
 */
export async function listProspects(
  deps: Deps,
  workspaceId: string,
  parameters: ListParameters,
  now: Date,
): Promise<ProspectList> {
  const config = await loadWorkspaceConfig(deps, workspaceId);
  const query = parseListQuery(parameters, config, workspaceDays(config.settings.time_zone), now);
  const digest = listQueryDigest(query, workspaceId);
  const position = query.cursor === undefined ? undefined : decodeListCursor(query.cursor, digest);
  const page = await readListPage(deps, workspaceId, listPlan(planInputOf(query, config, now), workspaceId, config), {
    limit: query.limit,
    position,
    matches: (prospect) => matchesListQuery(prospect, query, now),
  });
  const definitions = liveFields(config);
  return {
    prospects: page.prospects.map((prospect) => prospectReadView(prospect, config.tags, definitions)),
    next_cursor: page.next ? encodeListCursor(digest, page.next) : null,
  };
}

/** The days of a time zone, as the list's dates and `follow_up=today` read them. */
export const workspaceDays = (zone: string): WorkspaceDays => ({
  startOf: (date) => dayOf(date, zone).start.toISOString(),
  today: (now) => {
    const day = dayAt(now, zone);
    return { start: day.start.toISOString(), end: day.end.toISOString() };
  },
});

/** The smallest range holding all of `ranges` (none: everything); the list filters inside it exactly. */
function spanOf(ranges: readonly InstantRange[]): InstantRange | undefined {
  if (ranges.length === 0) return undefined;
  const froms = ranges.map((range) => range.from);
  const tos = ranges.map((range) => range.to);
  const from = froms.includes(undefined) ? undefined : [...(froms as string[])].sort()[0];
  const to = tos.includes(undefined) ? undefined : [...(tos as string[])].sort().at(-1);
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/**
 * Where the query's order reads, and whether its index decides every parameter given (full pages): by creation, the
 * creation range alone; by last change, a stage or a pipeline and the change range; by follow-up, the follow-up
 * windows and range, without the prospects that have none.
 */
function planInputOf(query: ListQuery, config: WorkspaceConfig, now: Date): PlanInput {
  const followUp = followUpSelection(query, now);
  const span = spanOf(followUp.ranges);
  const stageIds =
    query.stageIds ??
    (query.pipelineIds === undefined
      ? undefined
      : config.salesPipelines
          .filter((pipeline) => query.pipelineIds!.includes(pipeline.id))
          .flatMap((pipeline) => pipeline.stages.map((stage) => stage.id)));
  const given = new Set<string>([
    ...(query.pipelineIds ? ['pipeline'] : []),
    ...(query.stageIds ? ['stage'] : []),
    ...(query.setters ? ['setter'] : []),
    ...(query.closers ? ['closer'] : []),
    ...(query.memberIds ? ['member'] : []),
    ...(query.tagIds ? ['tag'] : []),
    ...(query.followUp ? ['follow_up'] : []),
    ...Object.keys(query.ranges),
    ...(query.fields.length > 0 ? ['fields'] : []),
  ]);
  const only = (...decided: string[]) => [...given].every((name) => decided.includes(name));
  const exact = query.sort.endsWith('created_at')
    ? only('created_at')
    : query.sort.endsWith('updated_at')
      ? only('pipeline', 'updated_at') || only('stage', 'updated_at')
      : only('follow_up', 'next_follow_up_at') && !followUp.withoutFollowUp;
  return {
    sort: query.sort,
    ...(query.ids === undefined ? {} : { ids: query.ids }),
    ...(stageIds === undefined ? {} : { stageIds }),
    ...(query.ranges.created_at ? { created: query.ranges.created_at } : {}),
    ...(query.ranges.updated_at ? { updated: query.ranges.updated_at } : {}),
    ...(span ? { followUp: span } : {}),
    withFollowUp: followUp.ranges.length > 0,
    withoutFollowUp: followUp.withoutFollowUp,
    exact,
  };
}
