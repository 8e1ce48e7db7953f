import { checkBudgets, formatBytes, heaviest, type BudgetInputs } from '../../infra/bench/budgets';

const within: BudgetInputs = {
  functions: [
    { name: 'listPipelines', bytes: 400_000, coldStartMs: 200 },
    { name: 'ingestLead', bytes: 420_000, coldStartMs: 140 },
  ],
  referenceColdStartMs: 100,
  operations: [
    { label: 'GET /pipelines', calls: ['Query', 'GetItem', 'UpdateItem'], minimum: ['GetItem', 'UpdateItem', 'Query'] },
  ],
  load: [{ label: 'note × 50', errors: 0, non2xx: 0, status5xx: 0 }],
};

const okOf = (inputs: BudgetInputs) => checkBudgets(inputs).map((check) => check.ok);

describe('budgets', () => {
  it('holds when every figure is within its budget (round trips compared in any order)', () => {
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

  it('breaks on one round trip above the minimum, and names the operation', () => {
    const extra = {
      ...within,
      operations: [
        {
          label: 'POST note',
          calls: ['GetItem', 'UpdateItem', 'GetItem', 'TransactWriteItems'],
          minimum: ['GetItem', 'UpdateItem', 'TransactWriteItems'],
        },
      ],
    };
    expect(okOf(extra)[2]).toBe(false);
    expect(checkBudgets(extra)[2]?.measured).toBe('POST note: 4 calls, minimum 3');
  });

  it('breaks on any 5xx, non-2xx or socket error under load', () => {
    const failing = { ...within, load: [{ label: 'lead × 50', errors: 0, non2xx: 1, status5xx: 1 }] };
    expect(okOf(failing)[3]).toBe(false);
    expect(checkBudgets(failing)[3]?.measured).toContain('1 5xx');
    expect(okOf({ ...within, load: [{ label: 'lead × 50', errors: 2, non2xx: 0, status5xx: 0 }] })[3]).toBe(false);
  });
});
