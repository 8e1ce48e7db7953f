import { checkBudgets, formatBytes, type Baseline, type BenchResults } from '../../tools/bench/figures';
import type { LoadRun } from '../../tools/bench/load';
import { operations, type OperationMeasure } from '../../tools/bench/operations';
import { benchFields, newLeadWithFieldsBody } from '../../tools/bench/workspace';
import { withNewField } from '../../lib/domain/fields/field-definitions';
import { interpretLead } from '../../lib/domain/lead/lead';
import { liveFields, type FieldEntry } from '../../lib/domain/model';

type Inputs = Parameters<typeof checkBudgets>[0];
const fn = (name: string, bytes: number, totalMs: number) =>
  ({ name, bytes, coldStart: { totalMs } }) as unknown as BenchResults['functions'][number];
const measure = (id: string, roundTrips: number, write = 10, read = 3) =>
  ({ id, roundTrips, billed: { read, write }, latencyMs: 10 }) as OperationMeasure;
/** A new lead, and one with five field values, of these write units. */
const leads = (without: number, withValues: number) => [
  measure('newLead', 3, without),
  measure('newLeadWithFields', 3, withValues),
];
/** The lists' full pages, each of these read units. */
const listPages = (read: number) =>
  operations.filter((operation) => operation.fullPage).map((operation) => measure(operation.id, 5, 1, read));
const run = (errors: number, non2xx: number, status5xx: number) =>
  ({ scenario: 'lead', connections: 50, errors, non2xx, status5xx }) as LoadRun;
/** What the baseline measured: the write units of a new lead and a stage change. */
const baselineOf = (newLead: number, patchStage: number) =>
  ({
    operations: {
      newLead: { calls: [], billed: { read: 4, write: newLead }, latencyMs: 16 },
      patchStage: { calls: [], billed: { read: 3, write: patchStage }, latencyMs: 21 },
    },
  }) as unknown as Baseline;
/** Every phase: a new lead (with field values and without), a known lead and a stage change of these write units. */
const writers = (newLead: number, knownLead: number, patchStage: number) => [
  ...leads(newLead, newLead),
  measure('knownLead', 3, knownLead),
  measure('patchStage', 4, patchStage),
];

const within: Inputs = {
  functions: [fn('listPipelines', 400_000, 200), fn('ingestLead', 420_000, 140), fn('authorizer', 390_000, 100)],
  reference: fn('reference', 200_000, 100),
  operations: {
    empty: [measure('listPipelines', 3), ...leads(10, 10), ...listPages(52)],
    bulk: [measure('patchStage', 3), ...leads(10, 11), ...listPages(52)],
  },
  load: { empty: [run(0, 0, 0)], bulk: [] },
  baseline: baselineOf(7, 9),
};
/** `within`, its new lead, known lead and stage change of these write units in both workspaces. */
const writing = (newLead: number, knownLead: number, patchStage: number): Inputs => ({
  ...within,
  operations: {
    empty: [...writers(newLead, knownLead, patchStage), ...listPages(52)],
    bulk: [...writers(newLead, knownLead, patchStage), ...listPages(52)],
  },
});

const okOf = (inputs: Inputs) => checkBudgets(inputs).map((check) => check.ok);

describe('budgets', () => {
  it('holds when every figure is within its budget (round trips at or under their target)', () => {
    expect(okOf(writing(9, 6, 11))).toEqual([true, true, true, true, true, true, true, true]);
  });

  it('judges the cold start of the heaviest bundle, not of the slowest function', () => {
    expect(checkBudgets(within)[0]?.measured).toBe('ingestLead: 1.40 × (140 ms against 100 ms)');
    const slowHeaviest = { ...within, functions: [fn('ingestLead', 420_000, 151), fn('authorizer', 390_000, 100)] };
    expect(okOf(slowHeaviest)[0]).toBe(false);
    expect(checkBudgets(slowHeaviest)[0]?.measured).toContain('1.51 ×');
  });

  it('breaks past 1 MB (1,000,000 bytes)', () => {
    const heavy = { ...within, functions: [fn('ingestLead', 1_000_001, 140), fn('authorizer', 390_000, 100)] };
    expect(okOf(heavy)[1]).toBe(false);
    expect(formatBytes(869_665)).toBe('869.7 KB');
  });

  it('breaks on one round trip above the target, and names the operation', () => {
    const over = { ...within, operations: { ...within.operations, bulk: [measure('addNote', 4), ...leads(10, 10)] } };
    expect(okOf(over)[2]).toBe(false);
    expect(checkBudgets(over)[2]?.measured).toBe('POST /prospects/{id}/notes (bulk): 4 round trips, target 3');
    expect(checkBudgets(within)[2]).toMatchObject({
      budget: 'DynamoDB round trips within their targets',
      measured: '20 of 20 operations within their target',
    });
  });

  it('judges the median: half a round trip over the target breaks it', () => {
    const varies = { ...within, operations: { empty: [measure('patchStage', 4.5)], bulk: leads(10, 10) } };
    expect(okOf(varies)[2]).toBe(false);
  });

  it('holds every operation of the bench to its round-trip target (docs/adr/0007-fewer-round-trips.md)', () => {
    expect(Object.fromEntries(operations.map((operation) => [operation.id, operation.target]))).toEqual({
      newLead: 3,
      newLeadWithFields: 3,
      knownLead: 3,
      candidateCreated: 3,
      candidateExisting: 4,
      listPipelines: 3,
      listAssignableMembers: 3,
      listCustomFields: 3,
      patchStage: 4,
      patchUnchanged: 4,
      getProspect: 3,
      findProspect: 4,
      prospectsPage: 5,
      prospectsCreatedRange: 5,
      prospectsOfStage: 5,
      prospectsOfPipeline: 11,
      prospectsUpdatedFrom: 15,
      prospectsFollowUpDue: 5,
      prospectsByIds: 5,
      notesPage: 3,
      changesPage: 3,
      addNote: 3,
      addTag: 4,
      tagAlreadyPresent: 4,
      removeTag: 4,
    });
    for (const operation of operations) expect(operation.calls.length).toBeLessThanOrEqual(operation.target);
  });

  it('breaks when a new lead with five field values writes more than one unit more than a new lead', () => {
    expect(checkBudgets(within)[3]).toEqual({
      budget: "A new lead with five field values: WRU ≤ a new lead's + 1",
      measured: 'empty: 10 WRU against 10; bulk: 11 WRU against 10',
      ok: true,
    });
    const over = { ...within, operations: { ...within.operations, bulk: leads(10, 12) } };
    expect(okOf(over)[3]).toBe(false);
    const unmeasured = { ...within, operations: { ...within.operations, bulk: [measure('newLead', 3)] } };
    expect(okOf(unmeasured)[3]).toBe(false);
    expect(checkBudgets(unmeasured)[3]?.measured).toContain('bulk: — WRU against 10');
  });

  it('breaks on any 5xx, non-2xx or socket error under load', () => {
    const failing = { ...within, load: { empty: [run(0, 1, 1)], bulk: [] } };
    expect(okOf(failing)[4]).toBe(false);
    expect(checkBudgets(failing)[4]?.measured).toContain('1 5xx');
    expect(checkBudgets(failing)[4]?.measured).toContain('lead × 50 (empty)');
    expect(okOf({ ...within, load: { empty: [], bulk: [run(2, 0, 0)] } })[4]).toBe(false);
  });

  it('holds each list page to the same read units with the bulk prospects, naming a page that grew', () => {
    expect(checkBudgets(within)[5]).toEqual({
      budget: "A list's full page: the same RRU with 100,000 prospects more",
      measured: '7 of 7 pages read the same units in both workspaces',
      ok: true,
    });
    const [first, ...others] = listPages(52);
    const grown = {
      ...within,
      operations: { ...within.operations, bulk: [{ ...first!, billed: { read: 52.5, write: 1 } }, ...others] },
    };
    expect(checkBudgets(grown)[5]).toMatchObject({
      ok: false,
      measured: 'GET /prospects (a page): 52.5 RRU against 52',
    });
    const unmeasured = { ...within, operations: { ...within.operations, bulk: others } };
    expect(checkBudgets(unmeasured)[5]).toMatchObject({
      ok: false,
      measured: 'GET /prospects (a page): — RRU against 52',
    });
  });

  it('breaks when a new lead or a stage change writes more than 2 units more than before the lists, in either workspace', () => {
    expect(checkBudgets(writing(13, 6, 11))[6]).toEqual({
      budget: "A new lead and a stage change: WRU ≤ before the lists' indexes + 2",
      measured:
        'Lead webhook, new lead: 13 (empty), 13 (bulk) against 11; PATCH /prospects/{id} (stage): 11 (empty), 11 (bulk) against 9',
      ok: true,
    });
    expect(okOf(writing(14, 6, 11))[6]).toBe(false);
    expect(okOf(writing(13, 6, 12))[6]).toBe(false);
    const bulkOver = {
      ...writing(13, 6, 11),
      operations: { ...writing(13, 6, 11).operations, bulk: writers(13, 6, 13) },
    };
    expect(okOf(bulkOver)[6]).toBe(false);
  });

  it('costs a million new leads and known leads against $12.50 and $8.60 on REST, in both workspaces', () => {
    // $3.50 API, $0.40 requests, $0.067 warm, $0.016 cold, $0.375 reads: $4.358 before the writes at $0.625 a unit.
    expect(checkBudgets(writing(13, 6, 11))[7]).toEqual({
      budget: 'Cost per million on API Gateway REST: Lead webhook, new lead ≤ $12.50, Lead webhook, known lead ≤ $8.60',
      measured:
        'Lead webhook, new lead: $12.483 (empty), $12.483 (bulk); Lead webhook, known lead: $8.108 (empty), $8.108 (bulk)',
      ok: true,
    });
    expect(okOf(writing(14, 6, 11))[7]).toBe(false);
    expect(okOf(writing(13, 7, 11))[7]).toBe(false);
    expect(okOf(within)[7]).toBe(false);
  });

  it('measures a lead that really gives its five field values, without a warning', () => {
    const fields = benchFields.reduce<FieldEntry[]>((entries, field) => withNewField({ fields: entries }, field), []);
    const { lead, warnings } = interpretLead(newLeadWithFieldsBody(1, undefined), liveFields({ fields }));
    expect(warnings).toEqual([]);
    expect(lead.fields).toEqual({
      budget: 250000,
      situation: 'Propriétaire',
      projet: ['Achat', 'Location'],
      rappel: '2027-01-15',
      newsletter: true,
    });
  });
});
