import { checkBudgets, formatBytes, heaviest, type BudgetInputs } from '../../tools/bench/budgets';
import { operations } from '../../tools/bench/operations';

const within: BudgetInputs = {
  functions: [
    { name: 'listPipelines', bytes: 400_000, coldStartMs: 200 },
    { name: 'ingestLead', bytes: 420_000, coldStartMs: 140 },
  ],
  referenceColdStartMs: 100,
  operations: [
    { label: 'GET /pipelines (empty)', roundTrips: 3, target: 3 },
    { label: 'PATCH (bulk)', roundTrips: 3, target: 4 },
  ],
  load: [{ label: 'note × 50', errors: 0, non2xx: 0, status5xx: 0 }],
};

const okOf = (inputs: BudgetInputs) => checkBudgets(inputs).map((check) => check.ok);

describe('budgets', () => {
  it('holds when every figure is within its budget (round trips at or under their target)', () => {
    expect(okOf(within)).toEqual([true, true, true, true]);
  });

  it('judges the cold start of the heaviest bundle, not of the slowest function', () => {
    expect(heaviest(within.functions).name).toBe('ingestLead');
    const slowHeaviest = { ...within, functions: [{ name: 'ingestLead', bytes: 420_000, coldStartMs: 151 }] };
    expect(okOf(slowHeaviest)[0]).toBe(false);
    expect(checkBudgets(slowHeaviest)[0]?.measured).toContain('1.51 ×');
  });

  it('breaks past 1 MB (1,000,000 bytes)', () => {
    const heavy = { ...within, functions: [{ name: 'ingestLead', bytes: 1_000_001, coldStartMs: 140 }] };
    expect(okOf(heavy)[1]).toBe(false);
    expect(formatBytes(869_665)).toBe('869.7 KB');
  });

  it('breaks on one round trip above the target, and names the operation', () => {
    const over = {
      ...within,
      operations: [...within.operations, { label: 'POST note (bulk)', roundTrips: 4, target: 3 }],
    };
    expect(okOf(over)[2]).toBe(false);
    expect(checkBudgets(over)[2]?.measured).toBe('POST note (bulk): 4 round trips, target 3');
    expect(checkBudgets(within)[2]).toMatchObject({
      budget: "DynamoDB round trips within the issue's targets",
      measured: '2 of 2 operations within their target',
    });
  });

  it('judges the median: half a round trip over the target breaks it', () => {
    const varies = { ...within, operations: [{ label: 'PATCH (empty)', roundTrips: 4.5, target: 4 }] };
    expect(okOf(varies)[2]).toBe(false);
  });

  it('holds every operation of the bench to the targets of issues 15 and 16', () => {
    expect(Object.fromEntries(operations.map((operation) => [operation.id, operation.target]))).toEqual({
      newLead: 3,
      knownLead: 3,
      candidateCreated: 3,
      candidateExisting: 4,
      listPipelines: 3,
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
    for (const operation of operations) expect(operation.expected.calls.length).toBeLessThanOrEqual(operation.target);
  });

  it('breaks on any 5xx, non-2xx or socket error under load', () => {
    const failing = { ...within, load: [{ label: 'lead × 50', errors: 0, non2xx: 1, status5xx: 1 }] };
    expect(okOf(failing)[3]).toBe(false);
    expect(checkBudgets(failing)[3]?.measured).toContain('1 5xx');
    expect(okOf({ ...within, load: [{ label: 'lead × 50', errors: 2, non2xx: 0, status5xx: 0 }] })[3]).toBe(false);
  });
});
