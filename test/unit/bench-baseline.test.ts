import { costBefore, parseBaseline, readBaseline, type Baseline, type BenchResults } from '../../tools/bench/figures';
import { operations, type OperationMeasure } from '../../tools/bench/operations';
import { beforeAfter, costsSection, ms, operationsSection, units } from '../../tools/bench/report';

const sample: Baseline = {
  commit: 'abcdef0',
  date: '2026-01-01 00:00 UTC',
  note: 'a test',
  functions: {
    reference: { coldStartMs: 300 },
    authorizer: { coldStartMs: 400, bytes: 390_000 },
    listPipelines: { coldStartMs: 400, bytes: 410_000 },
  },
  operations: {
    listPipelines: { calls: ['GetItem', 'UpdateItem', 'Query'], billed: { read: 2, write: 1 }, latencyMs: 40 },
  },
};

describe('the baseline before fewer round trips (docs/adr/0007-fewer-round-trips.md)', () => {
  it('reads the committed file: commit 83e4d2f, the "before" round trips', async () => {
    const baseline = await readBaseline();
    expect(baseline.commit).toBe('83e4d2f');
    const roundTrips = Object.fromEntries(
      Object.entries(baseline.operations).map(([id, measure]) => [id, measure.calls.length]),
    );
    expect(roundTrips).toEqual({
      newLead: 5,
      knownLead: 5,
      candidateCreated: 4,
      candidateExisting: 5,
      listPipelines: 3,
      patchStage: 5,
      addNote: 3,
      addTag: 5,
      removeTag: 5,
    });
    // Every operation measured before is still measured, and every route has its cold start.
    const ids = operations.map((operation) => operation.id as string);
    for (const id of Object.keys(baseline.operations)) expect(ids).toContain(id);
    // Every operation the baseline measured ran a function the baseline had (the read routes came later).
    for (const operation of operations.filter((candidate) => candidate.id in baseline.operations)) {
      expect(baseline.functions[operation.routeId]).toBeDefined();
    }
    expect(baseline.functions.authorizer).toBeDefined();
  });

  it('refuses a baseline with a field missing or mistyped, naming it', () => {
    expect(parseBaseline(JSON.parse(JSON.stringify(sample)))).toEqual(sample);
    expect(() => parseBaseline({ ...sample, commit: undefined })).toThrow(/commit/);
    const mistyped = {
      ...sample,
      operations: { listPipelines: { ...sample.operations.listPipelines, latencyMs: '40' } },
    };
    expect(() => parseBaseline(mistyped)).toThrow(/operations\.listPipelines\.latencyMs/);
  });

  it('costs a million calls before with the same arithmetic as after', () => {
    // docs/deploy.md's worked example for GET /pipelines: about $5.10.
    expect(costBefore(sample, { id: 'listPipelines', routeId: 'listPipelines' })).toBeCloseTo(5.095, 3);
    expect(costBefore(sample, { id: 'patchUnchanged', routeId: 'updateProspect' })).toBeUndefined();
    expect(() => costBefore(sample, { id: 'listPipelines', routeId: 'addNote' })).toThrow(/addNote/);
  });
});

describe('before → after', () => {
  it('shows both values, a dash for a before not measured', () => {
    expect(beforeAfter(5, 3)).toBe('5 → 3');
    expect(beforeAfter(undefined, 4)).toBe('— → 4');
    expect(beforeAfter(3, 2.5, units)).toBe('3 → 2.5');
    expect(beforeAfter(16.4577, 9.25, ms)).toBe('16 ms → 9.3 ms');
  });
});

describe('the report, before → after', () => {
  const noWrites = { table: 0, gsi1: 0, gsi2: 0, gsi3: 0, gsi4: 0, gsi5: 0, gsi6: 0 };
  const measure = (
    id: OperationMeasure['id'],
    calls: string[],
    read: number,
    write: number,
    writes: Partial<OperationMeasure['writes']> = { table: write },
  ): OperationMeasure => ({
    id,
    calls,
    stable: true,
    roundTrips: calls.length,
    breakdown: calls.map((operation) => ({ operation, units: { read: 0, write: 0, writes: noWrites }, reported: 0 })),
    billed: { read, write },
    writes: { ...noWrites, ...writes },
    reported: 0,
    latencyMs: 40,
  });
  const coldStart = { runs: 1, totalMs: 400, nodeStartMs: 0, loadMs: 0, firstAnswerMs: 0, cpuMs: 0 };
  const fn = (name: string) => ({ name, entry: '', file: '', bytes: 0, parts: {}, coldStart });
  const results = {
    repetitions: 10,
    functions: [fn('authorizer'), fn('listPipelines'), fn('updateProspect'), fn('ingestLead')],
    operations: {
      empty: [
        measure('listPipelines', ['GetItem', 'UpdateItem', 'GetItem'], 1.5, 1),
        measure('patchUnchanged', ['GetItem', 'UpdateItem', 'BatchGetItem', 'BatchGetItem', 'GetItem'], 2, 1),
      ],
    },
    baseline: sample,
  } as unknown as BenchResults;

  it('shows round trips and units before and after, the target, and a dash where nothing was measured', () => {
    const section = operationsSection(results);
    expect(section).toMatch(/\| GET \/pipelines +\| +3 → 3 \| +3 ✅ \| +3 ✅ \| +2 → 1\.5 \| +1 → 1 \|/);
    // Five round trips against a target of 4, and not the calls expected.
    expect(section).toMatch(
      /\| PATCH \/prospects\/\{id\} \(nothing to change\) +\| +— → 5 \| +4 ❌ \| +4 ❌ \| +— → 2 \|/,
    );
    expect(section).toContain('commit abcdef0 (2026-01-01 00:00 UTC)');
    expect(section).toContain('Before: GetItem · UpdateItem · Query.');
    expect(section).toContain('Before: not measured.');
  });

  it('names the write units of a new lead with five field values and without, a dash where not measured', () => {
    expect(operationsSection(results)).toContain('is billed — WRU, against — for a new lead without values');
    const leads = [measure('newLead', ['UpdateItem'], 3, 10), measure('newLeadWithFields', ['UpdateItem'], 3, 11)];
    const measured = { ...results, operations: { empty: leads } } as unknown as BenchResults;
    expect(operationsSection(measured)).toContain('is billed 11 WRU, against 10 for a new lead without values');
  });

  it('splits the write units of each operation that writes between the table and each index, with its cost', () => {
    const newLead = measure('newLead', ['UpdateItem', 'BatchGetItem', 'TransactWriteItems'], 3, 13, {
      table: 7,
      gsi3: 2,
      gsi5: 4,
    });
    const before = { calls: [], billed: { read: 4, write: 7 }, latencyMs: 40 };
    const baseline = {
      ...sample,
      functions: { ...sample.functions, ingestLead: { coldStartMs: 400 } },
      operations: { ...sample.operations, newLead: before },
    };
    const section = operationsSection({
      ...results,
      baseline,
      operations: { empty: [newLead] },
    } as unknown as BenchResults);
    expect(section).toContain(
      '| Operation | WRU (before → after) | Table | gsi1 | gsi2 | gsi3 | gsi4 | gsi5 | gsi6 | Cost per million (before → after) |',
    );
    // $3.50 + $0.40 + $0.27 warm + $0.05 cold, then 4 RRU and 7 WRU before, 3 RRU and 13 WRU after.
    expect(section).toMatch(
      /\| Lead webhook, new lead +\| +7 → 13 \| +7 \| +0 \| +0 \| +2 \| +0 \| +4 \| +0 \| +\$9\.10 → \$12\.72 \|/,
    );
    // GET /pipelines writes only its authorizer's rate counter: not in that table.
    const writesPart = operationsSection(results)
      .split('**Where the write units land**')[1]
      ?.split('Calls in the order')[0];
    expect(writesPart).toContain('| Operation | WRU (before → after) |');
    expect(writesPart).not.toContain('GET /pipelines');
  });

  it('totals the cost per million before and after', () => {
    const section = costsSection(results);
    expect(section).toContain('| Total before | Total after |');
    expect(section).toMatch(/\| GET \/pipelines .* \| +\$5\.10 \| +\*\*\$5\.03\*\* \|/);
    expect(section).toMatch(/\| PATCH \/prospects\/\{id\} \(nothing to change\) .* \| +— \| +\*\*/);
    expect(section).toContain('commit abcdef0');
  });
});
