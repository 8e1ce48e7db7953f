import { keys, type ProspectItem } from '../../storage/table-items';
import type { IndexSource } from '../../storage/prospect-lists';
import type { WorkspaceConfig } from '../model';
import type { ListPlan } from './list-page';
import type { InstantRange, ListSort } from './list-query';

/**
 * What of a query decides where a list reads (docs/adr/0017-lists-of-prospects.md): the order, the ids, the stages
 * (from `stage` or `pipeline`), the ranges an index key can hold, and whether prospects with and without a follow-up
 * are let in. `exact`: no other parameter was given, so every entry in range is listed (full pages).
 */
export type PlanInput = {
  sort: ListSort;
  ids?: readonly string[];
  stageIds?: readonly (string | null)[];
  created?: InstantRange;
  updated?: InstantRange;
  followUp?: InstantRange;
  withFollowUp: boolean;
  withoutFollowUp: boolean;
  exact: boolean;
};

/** Every stage of every sales pipeline of the workspace, and none (`-`): the partitions of the list by last change. */
const everyStage = (config: WorkspaceConfig): (string | null)[] => [
  ...config.salesPipelines.flatMap((pipeline) => pipeline.stages.map((stage) => stage.id)),
  null,
];

const bounded = (range: InstantRange | undefined) => ({
  ...(range?.from === undefined ? {} : { from: range.from }),
  ...(range?.to === undefined ? {} : { to: range.to }),
});

/** The plan of a query: which index, which partitions, which bounds. */
export function listPlan(input: PlanInput, workspaceId: string, config: WorkspaceConfig): ListPlan {
  if (input.ids !== undefined) return idsPlan(input.ids, input.sort);
  const descending = input.sort.startsWith('-');
  if (input.sort === '-created_at' || input.sort === 'created_at') {
    const source: IndexSource = {
      index: 'creation',
      partition: keys.prospectsOfWorkspace(workspaceId),
      ...bounded(input.created),
    };
    return { kind: 'index', descending, exact: input.exact, phases: [{ sources: [source] }] };
  }
  if (input.sort === '-updated_at' || input.sort === 'updated_at') {
    const stages = input.stageIds ?? everyStage(config);
    const sources = [...new Set(stages)].map((stageId): IndexSource => ({
      index: 'change',
      partition: keys.prospectsOfStage(workspaceId, stageId),
      ...bounded(input.updated),
    }));
    return { kind: 'index', descending, exact: input.exact, phases: [{ sources }] };
  }
  // Soonest follow-up first, then the prospects without one, in creation order (the follow-up index holds only
  // prospects with one: docs/adr/0017-lists-of-prospects.md).
  const phases = [
    ...(input.withFollowUp
      ? [
          {
            sources: [
              { index: 'follow-up', partition: keys.prospectsByFollowUp(workspaceId), ...bounded(input.followUp) },
            ] as IndexSource[],
          },
        ]
      : []),
    ...(input.withoutFollowUp
      ? [
          {
            sources: [{ index: 'creation', partition: keys.prospectsOfWorkspace(workspaceId) }] as IndexSource[],
            accepts: (prospect: ProspectItem) => prospect.next_follow_up_at === null,
          },
        ]
      : []),
  ];
  return { kind: 'index', descending: false, exact: input.exact && !input.withoutFollowUp, phases };
}

/** The sort key of a prospect in memory, as the index of that order writes it (ties by id). */
export function sortKeyOf(sort: ListSort): (prospect: ProspectItem) => string {
  switch (sort) {
    case '-created_at':
    case 'created_at':
      return (prospect) => `${prospect.created_at}#${prospect.id}`;
    case '-updated_at':
    case 'updated_at':
      return (prospect) => `${prospect.updated_at}#${prospect.id}`;
    case 'next_follow_up_at':
      // Prospects without one last: `1` sorts after every `0<instant>`.
      return (prospect) =>
        prospect.next_follow_up_at === null ? `1#${prospect.id}` : `0${prospect.next_follow_up_at}#${prospect.id}`;
  }
}

function idsPlan(ids: readonly string[], sort: ListSort): ListPlan {
  return { kind: 'ids', ids, sortKey: sortKeyOf(sort), descending: sort.startsWith('-') };
}
