import type { Store } from '../../storage/client';
import {
  maxProspectsPerRead,
  readIndexEntries,
  readProspects,
  type IndexEntry,
  type IndexSource,
} from '../../storage/prospect-lists';
import { keys, type ProspectItem } from '../../storage/table-items';

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
export type IndexPhase = { sources: readonly IndexSource[]; accepts?: (prospect: ProspectItem) => boolean };

/** Where the previous page stopped: the phase and the last key examined (or shown) in it. */
export type ListPosition = { phase: number; key: string };

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
    const after = page.position?.phase === phase ? page.position.key : undefined;
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
    const listed = (entry: IndexEntry & { source: IndexSource }): ProspectItem | undefined => {
      const prospect = fresh.get(entry.prospectId);
      if (!prospect || seen.has(prospect.id) || !holds(prospect, entry) || !page.matches(prospect)) return undefined;
      return step.accepts === undefined || step.accepts(prospect) ? prospect : undefined;
    };
    for (const [at, entry] of candidates.entries.entries()) {
      const prospect = listed(entry);
      if (!prospect) continue;
      if (shown.length === page.limit)
        return { prospects: shown, next: { phase, key: candidates.entries[at - 1]!.key } };
      shown.push(prospect);
      seen.add(prospect.id);
    }
    const last = candidates.entries.at(-1);
    if (candidates.more && last) {
      // What follows was not read: the page stops at the last entry examined, full or not.
      return { prospects: shown, next: { phase, key: last.key } };
    }
    if (shown.length === page.limit && phase + 1 < plan.phases.length) {
      return { prospects: shown, next: { phase: phase + 1, key: '' } };
    }
  }
  return { prospects: shown, next: undefined };
}

/**
 * The entries of a phase's partitions, merged in key order: the first `perSource` entries of each partition, of
 * which the first `perSource` merged are the phase's next ones (an entry a partition did not return comes after its
 * last one returned, so after all these).
 */
async function readCandidates(
  store: Store,
  phase: IndexPhase,
  options: { descending: boolean; after: string | undefined; perSource: number },
): Promise<{ entries: (IndexEntry & { source: IndexSource })[]; more: boolean }> {
  const limit = Math.min(options.perSource, maxProspectsPerRead);
  const reads = await Promise.all(
    phase.sources.map(async (source) => ({
      source,
      ...(await readIndexEntries(store, source, {
        descending: options.descending,
        ...(options.after ? { after: options.after } : {}),
        limit,
      })),
    })),
  );
  const before = (a: string, b: string) => (options.descending ? a > b : a < b);
  const merged = reads
    .flatMap((read) => read.entries.map((entry) => ({ ...entry, source: read.source })))
    .sort((a, b) => (a.key === b.key ? 0 : before(a.key, b.key) ? -1 : 1));
  const entries = merged.slice(0, limit);
  return { entries, more: merged.length > entries.length || reads.some((read) => read.more) };
}

/** Whether the prospect read still has the index entry it was found by. */
function holds(prospect: ProspectItem, entry: IndexEntry & { source: IndexSource }): boolean {
  switch (entry.source.index) {
    case 'creation':
      return true;
    case 'change':
      return (
        keys.prospectsOfStage(prospect.workspace_id, prospect.stage_id) === entry.source.partition &&
        keys.prospectByChange(prospect.updated_at, prospect.id) === entry.key
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
    .sort((a, b) => (a.key === b.key ? 0 : a.key < b.key !== plan.descending ? -1 : 1))
    .filter(({ key }) => after === undefined || (plan.descending ? key < after : key > after));
  const shown = ordered.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    prospects: shown.map(({ prospect }) => prospect),
    next: ordered.length > shown.length && last ? { phase: 0, key: last.key } : undefined,
  };
}
