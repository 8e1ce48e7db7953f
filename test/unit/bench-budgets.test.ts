import { checkBudgets, formatBytes, type BenchResults } from '../../tools/bench/figures';
import type { LoadRun } from '../../tools/bench/load';
import { operations, type OperationMeasure } from '../../tools/bench/operations';
import { benchFields, newLeadWithFieldsBody } from '../../tools/bench/workspace';
import { withNewField } from '../../lib/domain/fields/field-definitions';
import { interpretLead } from '../../lib/domain/lead/lead';
import { liveFields, type FieldEntry } from '../../lib/domain/model';

type Inputs = Parameters<typeof checkBudgets>[0];
const fn = (name: string, bytes: number, totalMs: number) =>
  ({ name, bytes, coldStart: { totalMs } }) as unknown as BenchResults['functions'][number];
const measure = (id: string, roundTrips: number, write = 10) =>
  ({ id, roundTrips, billed: { read: 3, write } }) as OperationMeasure;
/** A new lead, and one with five field values, of these write units. */
const leads = (without: number, withValues: number) => [
  measure('newLead', 3, without),
  measure('newLeadWithFields', 3, withValues),
];
const run = (errors: number, non2xx: number, status5xx: number) =>
  ({ scenario: 'lead', connections: 50, errors, non2xx, status5xx }) as LoadRun;

const within: Inputs = {
  functions: [fn('listPipelines', 400_000, 200), fn('ingestLead', 420_000, 140)],
  reference: fn('reference', 200_000, 100),
  operations: {
    empty: [measure('listPipelines', 3), ...leads(10, 10)],
    bulk: [measure('patchStage', 3), ...leads(10, 11)],
  },
  load: { empty: [run(0, 0, 0)], bulk: [] },
};

const okOf = (inputs: Inputs) => checkBudgets(inputs).map((check) => check.ok);

describe('budgets', () => {
  it('holds when every figure is within its budget (round trips at or under their target)', () => {
    expect(okOf(within)).toEqual([true, true, true, true, true]);
  });

  it('judges the cold start of the heaviest bundle, not of the slowest function', () => {
    expect(checkBudgets(within)[0]?.measured).toBe('ingestLead: 1.40 × (140 ms against 100 ms)');
    const slowHeaviest = { ...within, functions: [fn('ingestLead', 420_000, 151)] };
    expect(okOf(slowHeaviest)[0]).toBe(false);
    expect(checkBudgets(slowHeaviest)[0]?.measured).toContain('1.51 ×');
  });

  it('breaks past 1 MB (1,000,000 bytes)', () => {
    const heavy = { ...within, functions: [fn('ingestLead', 1_000_001, 140)] };
    expect(okOf(heavy)[1]).toBe(false);
    expect(formatBytes(869_665)).toBe('869.7 KB');
  });

  it('breaks on one round trip above the target, and names the operation', () => {
    const over = { ...within, operations: { ...within.operations, bulk: [measure('addNote', 4), ...leads(10, 10)] } };
    expect(okOf(over)[2]).toBe(false);
    expect(checkBudgets(over)[2]?.measured).toBe('POST /prospects/{id}/notes (bulk): 4 round trips, target 3');
    expect(checkBudgets(within)[2]).toMatchObject({
      budget: 'DynamoDB round trips within their targets',
      measured: '6 of 6 operations within their target',
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
