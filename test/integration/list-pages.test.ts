import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import {
  listPlan,
  readListPage,
  sortKeyOf,
  type ListPosition,
  type PlanInput,
} from '../../lib/domain/prospect-list/list-page';
import type { InstantRange, ListSort } from '../../lib/domain/prospect-list/list-query';
import type { WorkspaceConfig } from '../../lib/domain/model';
import { productionDeps } from '../../lib/storage/client';
import type { ProspectItem } from '../../lib/storage/table-items';
import { aProspectItem } from '../support/prospect-items';

/**
 * The pages of a list (docs/adr/0017-lists-of-prospects.md), walked to the end against DynamoDB Local, are the
 * prospects a brute-force filter and sort of the whole workspace gives, in that order, each once: for every order,
 * stage selection and range, with a filter the index decides alone (full pages) or one it does not (pages filtered
 * inside a bounded read, possibly short).
 */

const deps = productionDeps();
const workspaceId = randomUUID();
const stages = ['stage-a', 'stage-b', 'stage-c'];
const config = { salesPipelines: [{ stages: stages.map((id) => ({ id })) }] } as unknown as WorkspaceConfig;

/** Minutes of one day: ties of created_at, updated_at and follow-up are common, so ties by id are exercised. */
const instant = (minute: number) => new Date(Date.UTC(2026, 2, 29, 0, minute)).toISOString();

const world: ProspectItem[] = Array.from({ length: 160 }, (_, index) => {
  const created = (index * 7) % 40;
  return aProspectItem(workspaceId, {
    stage_id: index % 5 === 4 ? null : stages[index % 3]!,
    created_at: instant(created),
    updated_at: instant(created + ((index * 13) % 30)),
    next_follow_up_at: index % 3 === 0 ? null : instant((index * 11) % 50),
    first_name: `n${index}`,
  });
});

/** A bulk import: thirty prospects of one instant, more than a batch, ordered by id whichever way a list reads. */
world.push(
  ...Array.from({ length: 30 }, (_, index) =>
    aProspectItem(workspaceId, {
      stage_id: 'stage-b',
      created_at: instant(41),
      updated_at: instant(41),
      next_follow_up_at: index % 2 === 0 ? null : instant(41),
      first_name: `n${200 + index}`,
    }),
  ),
);

beforeAll(async () => {
  for (const item of world) await deps.db.send(new PutCommand({ TableName: deps.tableName, Item: item }));
}, 60_000);

const within = (value: string | null, range: InstantRange | undefined) =>
  range === undefined ||
  (value !== null && (range.from === undefined || value >= range.from) && (range.to === undefined || value < range.to));

/** What the list must show, computed over the whole workspace. */
function expected(input: PlanInput, extra: (prospect: ProspectItem) => boolean): string[] {
  const kept = world.filter(
    (prospect) =>
      (input.ids === undefined || input.ids.includes(prospect.id)) &&
      (input.stageIds === undefined || input.stageIds.includes(prospect.stage_id)) &&
      within(prospect.created_at, input.created) &&
      within(prospect.updated_at, input.updated) &&
      (prospect.next_follow_up_at === null
        ? input.withoutFollowUp
        : input.withFollowUp && within(prospect.next_follow_up_at, input.followUp)) &&
      extra(prospect),
  );
  const key = sortKeyOf(input.sort);
  if (input.sort === 'next_follow_up_at' && input.ids === undefined) {
    // The index-walked list: soonest follow-up first, then those without one in creation order.
    const created = sortKeyOf('created_at');
    const scheduled = kept.filter((prospect) => prospect.next_follow_up_at !== null).sort(byKey(key, false));
    const without = kept.filter((prospect) => prospect.next_follow_up_at === null).sort(byKey(created, false));
    return [...scheduled, ...without].map((prospect) => prospect.id);
  }
  return kept.sort(byKey(key, input.sort.startsWith('-'))).map((prospect) => prospect.id);
}

/** Newest first or oldest first, prospects at one instant by id ascending either way. */
const byKey = (key: (prospect: ProspectItem) => string, descending: boolean) => (a: ProspectItem, b: ProspectItem) => {
  const [instantA, instantB] = [key(a).split('#')[0]!, key(b).split('#')[0]!];
  if (instantA !== instantB) return instantA < instantB !== descending ? -1 : 1;
  return a.id < b.id ? -1 : 1;
};

async function walk(input: PlanInput, limit: number, extra: (prospect: ProspectItem) => boolean, batch?: number) {
  const plan = listPlan(input, workspaceId, config);
  const shown: string[] = [];
  const pageSizes: number[] = [];
  let position: ListPosition | undefined;
  for (let pages = 0; pages < 200; pages += 1) {
    const page = await readListPage(deps, workspaceId, plan, {
      limit,
      position,
      matches: extra,
      ...(batch === undefined ? {} : { batch }),
    });
    shown.push(...page.prospects.map((prospect) => prospect.id));
    pageSizes.push(page.prospects.length);
    if (!page.next) return { shown, pageSizes };
    position = page.next;
  }
  throw new Error('the list did not end');
}

/** Half the queries unbounded; the others from, to, or both, mostly wide. */
const range = fc.option(
  fc
    .tuple(fc.option(fc.integer({ min: 0, max: 30 })), fc.option(fc.integer({ min: 20, max: 80 })))
    .map(([from, to]) => ({
      ...(from === null ? {} : { from: instant(from) }),
      ...(to === null ? {} : { to: instant(to) }),
    })),
  { nil: undefined, freq: 1 },
);

const sorts: ListSort[] = ['-created_at', 'created_at', '-updated_at', 'updated_at', 'next_follow_up_at'];

const queries = fc.record({
  sort: fc.constantFrom(...sorts),
  stageIds: fc.option(fc.subarray([...stages, null], { minLength: 1 }), { nil: undefined }),
  range,
  followUp: fc.constantFrom('both', 'with', 'without'),
  limit: fc.integer({ min: 1, max: 30 }),
  filtered: fc.boolean(),
  batch: fc.option(fc.integer({ min: 2, max: 20 }), { nil: undefined }),
});

describe('a list walked page by page is the whole workspace filtered and sorted', () => {
  test('every order, stage selection, range and page size', async () => {
    await fc.assert(
      fc.asyncProperty(queries, async (query) => {
        // The range applies to the key of the order asked for, as the plan puts it on that index.
        const ranged = query.range === undefined ? {} : rangeFor(query.sort, query.range);
        // A stage selection is indexed by the list by last change only; elsewhere it is a filter.
        const byChange = query.sort.endsWith('updated_at');
        const input: PlanInput = {
          sort: query.sort,
          ...(byChange && query.stageIds ? { stageIds: query.stageIds } : {}),
          ...ranged,
          withFollowUp: query.followUp !== 'without',
          withoutFollowUp: query.followUp !== 'with' && !(query.sort === 'next_follow_up_at' && 'followUp' in ranged),
          exact:
            !query.filtered &&
            (byChange || query.stageIds === undefined) &&
            (query.followUp === 'both' || query.sort === 'next_follow_up_at'),
        };
        const stageFilter = (prospect: ProspectItem) =>
          byChange || query.stageIds === undefined || query.stageIds.includes(prospect.stage_id);
        const followUpFilter = (prospect: ProspectItem) =>
          prospect.next_follow_up_at === null ? input.withoutFollowUp : input.withFollowUp;
        const rangeFilter = (prospect: ProspectItem) =>
          within(prospect.created_at, input.created) &&
          within(prospect.updated_at, input.updated) &&
          (prospect.next_follow_up_at === null || within(prospect.next_follow_up_at, input.followUp));
        const extra = (prospect: ProspectItem) =>
          stageFilter(prospect) &&
          followUpFilter(prospect) &&
          rangeFilter(prospect) &&
          (!query.filtered || Number(prospect.first_name!.slice(1)) % 2 === 0);
        const { shown, pageSizes } = await walk(input, query.limit, extra, query.batch);
        expect(shown).toEqual(expected({ ...input, stageIds: query.stageIds }, extra));
        if (input.exact) {
          // Full pages: every page but the last holds `limit` prospects, and the last is not empty unless alone.
          expect(pageSizes.slice(0, -1).every((size) => size === query.limit)).toBe(true);
          if (pageSizes.length > 1) expect(pageSizes.at(-1)).toBeGreaterThan(0);
        }
      }),
      { numRuns: 20, seed: 38 },
    );
  }, 120_000);

  test('an entry the prospect read no longer holds is passed over: the prospect shows where it now is', async () => {
    // An index copy behind its item (as for the moments after a change): the item says another last change.
    const lagging = aProspectItem(workspaceId, { stage_id: 'stage-z', updated_at: instant(5) });
    await deps.db.send(
      new PutCommand({ TableName: deps.tableName, Item: { ...lagging, gsi5sk: `${instant(1)}#${lagging.id}` } }),
    );
    const input: PlanInput = {
      sort: 'updated_at',
      stageIds: ['stage-z'],
      withFollowUp: true,
      withoutFollowUp: true,
      exact: true,
    };
    expect((await walk(input, 10, () => true)).shown).toEqual([]);
    await deps.db.send(new PutCommand({ TableName: deps.tableName, Item: lagging }));
    expect((await walk(input, 10, () => true)).shown).toEqual([lagging.id]);
  });

  test('by id: the prospects named, in the order asked, a page at a time; unknown ids absent', async () => {
    const named = world.slice(10, 40).map((prospect) => prospect.id);
    const input: PlanInput = {
      sort: '-updated_at',
      ids: [...named, randomUUID()],
      withFollowUp: true,
      withoutFollowUp: true,
      exact: true,
    };
    const { shown, pageSizes } = await walk(input, 7, () => true);
    expect(shown).toEqual(expected(input, () => true));
    expect(pageSizes).toEqual([7, 7, 7, 7, 2]);
  });
});

function rangeFor(sort: ListSort, range: InstantRange): Partial<PlanInput> {
  if (sort.endsWith('created_at')) return { created: range };
  if (sort.endsWith('updated_at')) return { updated: range };
  return { followUp: range };
}
