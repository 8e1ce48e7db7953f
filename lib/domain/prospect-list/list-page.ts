import type { Store } from '../../storage/client';
import {
  highestKey,
  lowestKey,
  maxProspectsPerRead,
  readEntriesAt,
  readIndexEntries,
  readProspects,
  type IndexEntry,
  type IndexSource,
} from '../../storage/prospect-lists';
import { keys, type ProspectItem } from '../../storage/table-items';
import type { WorkspaceConfig } from '../model';
import type { InstantRange, ListSort } from './list-query';

/**
 * How a page of a list is read (docs/adr/0017-lists-of-prospects.md): the index of the order asked for, its partitions
 * and bounds, in phases (a list by follow-up walks the prospects with one, then, when the query lets them in, those
 * without); or, for `id`, the prospects themselves.
 */
export type ListPlan =
  | { kind: 'index'; descending: boolean; phases: readonly IndexPhase[]; exact: boolean }
  | { kind: 'ids'; ids: readonly string[]; sortKey: (prospect: ProspectItem) => string; descending: boolean };

/**
 * One phase: partitions of one index, merged in key order. `exact` plans (the index's key decides every parameter
 * given) read `limit + 1` entries per partition; the others read a bounded batch and filter it.
 */
type IndexPhase = { sources: readonly IndexSource[]; accepts?: (prospect: ProspectItem) => boolean };

/**
 * Where the previous page stopped: the phase and the last key examined (or shown) in it, and whether prospects of
 * that key's instant follow it (`tie`: read backwards, they are read again).
 */
export type ListPosition = { phase: number; key: string; tie?: boolean };

export type ListPage = { prospects: ProspectItem[]; next: ListPosition | undefined };

/**
 * A page asked for: at most `limit` prospects `matches` accepts, from `position` on, examining at most `batch`
 * entries per phase (and per partition) when the plan filters (100 by default: one BatchGetItem).
 */
export type ListPageRequest = {
  limit: number;
  position: ListPosition | undefined;
  matches: (prospect: ProspectItem) => boolean;
  batch?: number;
};

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

/**
 * A page of at most `limit` prospects that `matches` accepts, from `position` on. Every prospect shown was read
 * strongly, and an index entry is taken only while the prospect read still holds it (a change the index has not
 * caught up with shows the prospect where it now is, never twice nor with older values).
 */
export async function readListPage(
  store: Store,
  workspaceId: string,
  plan: ListPlan,
  page: ListPageRequest,
): Promise<ListPage> {
  if (plan.kind === 'ids') return readIdsPage(store, workspaceId, plan, page);
  const batch = Math.min(page.batch ?? maxProspectsPerRead, maxProspectsPerRead);
  const shown: ProspectItem[] = [];
  const seen = new Set<string>();
  for (let phase = page.position?.phase ?? 0; phase < plan.phases.length; phase += 1) {
    // A phase is entered from its start (`key` empty) or resumed after a position in it.
    const after = page.position?.phase === phase && page.position.key !== '' ? page.position : undefined;
    const step = plan.phases[phase]!;
    const candidates = await readCandidates(store, step, {
      descending: plan.descending,
      after,
      perSource: plan.exact ? page.limit - shown.length + 1 : batch,
    });
    const fresh = await readProspects(
      store,
      workspaceId,
      candidates.entries.map((entry) => entry.prospectId),
    );
    const listed = (entry: SourcedEntry): ProspectItem | undefined => {
      const prospect = fresh.get(entry.prospectId);
      if (!prospect || seen.has(prospect.id) || !holds(prospect, entry) || !page.matches(prospect)) return undefined;
      return step.accepts === undefined || step.accepts(prospect) ? prospect : undefined;
    };
    for (const [at, entry] of candidates.entries.entries()) {
      const prospect = listed(entry);
      if (!prospect) continue;
      if (shown.length === page.limit) {
        // The next page starts with this prospect: after the entry before it, in the middle of its instant or not.
        const key = candidates.entries[at - 1]!.key;
        return { prospects: shown, next: { phase, key, tie: instantOf(entry.key) === instantOf(key) } };
      }
      shown.push(prospect);
      seen.add(prospect.id);
    }
    const last = candidates.entries.at(-1);
    if (candidates.more && last) {
      // What follows was not read: the page stops at the last entry examined, full or not.
      return { prospects: shown, next: { phase, key: last.key, ...(candidates.tie ? { tie: true } : {}) } };
    }
    if (shown.length === page.limit && phase + 1 < plan.phases.length) {
      return { prospects: shown, next: { phase: phase + 1, key: '' } };
    }
  }
  return { prospects: shown, next: undefined };
}

/** `<instant>#<id>`: the instant, and the id. */
const instantOf = (key: string) => key.slice(0, key.lastIndexOf('#'));
const idOf = (key: string) => key.slice(key.lastIndexOf('#') + 1);

/**
 * Whether entry key `a` comes before `b` in a list: by instant (the latest first when `descending`), prospects at one
 * instant by id ascending either way (docs/api.md#lists-of-prospects). Ascending, that is the keys' own order.
 */
export const comesBefore = (a: string, b: string, descending: boolean): boolean => {
  if (!descending) return a < b;
  const [instantA, instantB] = [instantOf(a), instantOf(b)];
  return instantA === instantB ? idOf(a) < idOf(b) : instantA > instantB;
};

/**
 * The entries of a phase's partitions after `after`, merged in list order, and whether prospects of the last one's
 * instant may follow it (`tie`). Each partition gives its first `perSource` entries. Read backwards, the prospects of
 * one instant come by id ascending, the reverse of the read: an instant cut off at the end of a read, or the
 * position's own instant when prospects of it follow, is read apart, forwards from the id reached, a batch at a time;
 * an instant read only in part ends what the partition gives (the rest of it comes first next time). The first
 * `perSource` merged are then the phase's next ones: an entry a partition did not give comes after its last one given.
 */
async function readCandidates(
  store: Store,
  phase: IndexPhase,
  options: { descending: boolean; after: ListPosition | undefined; perSource: number },
): Promise<{ entries: SourcedEntry[]; more: boolean; tie: boolean }> {
  const { descending, after } = options;
  const limit = Math.min(options.perSource, maxProspectsPerRead);
  const reads = await Promise.all(
    phase.sources.map((source) => readPartition(store, source, descending, after, limit)),
  );
  const before = (a: SourcedEntry, b: SourcedEntry) => comesBefore(a.key, b.key, descending);
  // Past the last entry of an instant read in part, an entry of another partition could come after unread ones.
  const partial = reads.flatMap((read) => (read.partialThrough ? [read.partialThrough] : []));
  const boundary = partial.sort((a, b) => (a.key === b.key ? 0 : before(a, b) ? -1 : 1))[0];
  const merged = reads
    .flatMap((read) => read.entries)
    .filter((entry) => boundary === undefined || entry.key === boundary.key || before(entry, boundary))
    .sort((a, b) => (a.key === b.key ? 0 : before(a, b) ? -1 : 1));
  const entries = merged.slice(0, limit);
  const last = entries.at(-1);
  const next = merged[entries.length];
  const tie =
    last !== undefined &&
    ((next !== undefined && instantOf(next.key) === instantOf(last.key)) || last.key === boundary?.key);
  return { entries, more: merged.length > entries.length || reads.some((read) => read.more), tie };
}

type SourcedEntry = IndexEntry & { source: IndexSource };

/**
 * One partition's next entries after the position. Backwards, one entry more than needed tells whether the last
 * instant was read whole; one that was not is read apart, by id ascending (`readEntriesAt`), as is the rest of the
 * position's instant when prospects of it follow.
 */
async function readPartition(
  store: Store,
  source: IndexSource,
  descending: boolean,
  after: ListPosition | undefined,
  limit: number,
): Promise<{ entries: SourcedEntry[]; more: boolean; partialThrough?: SourcedEntry }> {
  const sourced = (entries: readonly IndexEntry[]) => entries.map((entry) => ({ ...entry, source }));
  const inRange = (entry: IndexEntry) =>
    entry.key >= (source.from ?? lowestKey) && entry.key < (source.to ?? highestKey);
  if (descending && after?.tie) {
    // The rest of the position's instant first; all of it read, what is older follows.
    const rest = await readEntriesAt(store, source, instantOf(after.key), { afterId: idOf(after.key), limit });
    const kept = sourced(rest.entries.filter(inRange));
    if (rest.more) return { entries: kept, more: true, partialThrough: kept.at(-1)! };
    const older = await readPartition(store, source, descending, { ...after, tie: false }, limit);
    return { ...older, entries: [...kept, ...older.entries] };
  }
  const bounds = boundsAfter(source, descending, after?.key);
  const read = await readIndexEntries(store, source, {
    descending,
    ...bounds,
    limit: limit + (after && !descending ? 1 : 0) + (descending ? 1 : 0),
  });
  const entries = read.entries.filter((entry) => after === undefined || comesBefore(after.key, entry.key, descending));
  const last = read.entries.at(-1);
  if (!descending || !read.more || !last) return { entries: sourced(entries), more: read.more };
  // Read backwards and cut off: the last instant is left for the next read, or, when it is all the read holds, read
  // apart (forwards, by id, a batch at a time).
  const cutInstant = instantOf(last.key);
  const whole = entries.filter((entry) => instantOf(entry.key) !== cutInstant);
  if (whole.length > 0) return { entries: sourced(whole), more: true };
  const group = await readEntriesAt(store, source, cutInstant, { limit });
  const kept = sourced(group.entries.filter(inRange));
  return {
    entries: kept,
    more: true,
    ...(group.more ? { partialThrough: kept.at(-1)! } : {}),
  };
}

/**
 * The key bounds of a partition's next read: the source's range, narrowed to what follows `after`. Read backwards,
 * the entries before the position's instant (the instant itself, when prospects of it follow, is read whole apart).
 */
function boundsAfter(source: IndexSource, descending: boolean, after: string | undefined) {
  let [low, high] = [source.from ?? lowestKey, source.to ?? highestKey];
  if (after !== undefined) {
    // A bare instant sorts before every `<instant>#<id>` key and after every key of an earlier instant.
    if (descending) high = instantOf(after) < high ? instantOf(after) : high;
    else if (after > low) low = after;
  }
  return { low, high };
}

/** Whether the prospect read still has the index entry it was found by. */
function holds(prospect: ProspectItem, entry: SourcedEntry): boolean {
  switch (entry.source.index) {
    case 'creation':
      return true;
    case 'change':
      return (
        keys.prospectsOfStage(prospect.workspace_id, prospect.stage_id) === entry.source.partition &&
        keys.recordByChange(prospect.updated_at, prospect.id) === entry.key
      );
    case 'follow-up':
      return (
        prospect.next_follow_up_at !== null &&
        keys.prospectByFollowUp(prospect.next_follow_up_at, prospect.id) === entry.key
      );
  }
}

/** `id`: the prospects named (at most 100), read at once and ordered in memory; a page resumes after a sort key. */
async function readIdsPage(
  store: Store,
  workspaceId: string,
  plan: Extract<ListPlan, { kind: 'ids' }>,
  page: ListPageRequest,
): Promise<ListPage> {
  const found = await readProspects(store, workspaceId, plan.ids);
  const after = page.position?.key;
  const ordered = [...found.values()]
    .filter(page.matches)
    .map((prospect) => ({ prospect, key: plan.sortKey(prospect) }))
    .sort((a, b) => (a.key === b.key ? 0 : comesBefore(a.key, b.key, plan.descending) ? -1 : 1))
    .filter(({ key }) => after === undefined || comesBefore(after, key, plan.descending));
  const shown = ordered.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    prospects: shown.map(({ prospect }) => prospect),
    next: ordered.length > shown.length && last ? { phase: 0, key: last.key } : undefined,
  };
}
