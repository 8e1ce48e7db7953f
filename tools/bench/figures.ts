import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { version as esbuildVersion } from 'esbuild';
import * as z from 'zod/mini';
import { operations } from './operations';
import { bulkProspectCount, phases, type Phase } from './workspace';
import type { BenchResults } from './run';

export type { BenchResults } from './run';

/** What the figures were measured on, for the report's reader to weigh them. */
export function describeEnvironment() {
  const javaVersion = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const { version: autocannon } = createRequire(import.meta.url)('autocannon/package.json') as { version: string };
  const [cpu, cores, memoryGb] = [os.cpus()[0]?.model.trim() ?? 'unknown CPU', os.cpus().length, os.totalmem()];
  const machine = { cpu, cores, os: `${os.type()} ${os.release()}`, memoryGb: Math.round(memoryGb / 1024 ** 3) };
  const java = (javaVersion.stderr || javaVersion.stdout).split('\n')[0]?.trim() ?? 'Java';
  return { ...machine, node: process.version, autocannon, esbuild: esbuildVersion, java };
}

export function operationOf(id: string) {
  const operation = operations.find((candidate) => candidate.id === id);
  if (operation === undefined) throw new Error(`unknown operation ${id}`);
  return operation;
}

/**
 * The "before" of ADR 0007 (fewer round trips): what the bench measured at the last commit before it, copied into
 * `baseline.json`.
 */
const units = z.object({ read: z.number(), write: z.number() });
const measured = z.object({ calls: z.array(z.string()), billed: units, latencyMs: z.number() });
const baselineSchema = z.object({
  commit: z.string().check(z.minLength(7)),
  date: z.string(),
  note: z.string(),
  functions: z.record(z.string(), z.object({ coldStartMs: z.number(), bytes: z.optional(z.number()) })),
  operations: z.record(z.string(), measured),
});
export type Baseline = z.output<typeof baselineSchema>;
/** What an operation's cost is computed from, measured today or in the baseline. */
type Measured = Omit<z.output<typeof measured>, 'calls'>;
export const baselineFile = new URL('./baseline.json', import.meta.url);

/** The baseline as read from its JSON; anything missing or mistyped throws, naming the field. */
export function parseBaseline(json: unknown): Baseline {
  const parsed = baselineSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${baselineFile.pathname}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export const readBaseline = async () => parseBaseline(JSON.parse(await readFile(baselineFile, 'utf8')) as unknown);

/** Prices of docs/deploy.md, "Cost per million calls": us-east-1, on demand, no free tier, as published in 2025. */
type Priced = 'apiGateway' | 'lambdaRequests' | 'lambdaGbSecond' | 'writeUnit' | 'readUnit';
type Price = { key: Priced; label: string; dollars: number; per: string };
export const priceList = JSON.parse(await readFile(new URL('./prices.json', import.meta.url), 'utf8')) as Price[];
const prices = Object.fromEntries(priceList.map(({ key, dollars }) => [key, dollars])) as Record<Priced, number>;
/** The stack's memory setting (infra/cdk/constructs/route-function.ts); docs/deploy.md's share of cold invocations. */
export const [memoryGb, coldShare] = [0.5, 0.01];

/** One call: its Lambda invocations, their warm duration together and the cold start of each, in seconds; its units. */
export type CostInput = { invocations: number; warmSeconds: number; coldStartSeconds: readonly number[] } & Billed;
type Billed = { readUnits: number; writeUnits: number };

/** A price with its own decimals, at least two: $3.50, $0.625, $0.0000133334. */
export const price = (dollars: number) =>
  `$${dollars.toFixed(Math.max(2, String(dollars).split('.')[1]?.length ?? 0))}`;
export const count = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 3 });
const seconds = (value: number) => `${value.toFixed(3)} s`;
const toMillisecond = (value: number) => Math.round(value * 1000) / 1000;

/** What a million calls of one operation cost, line by line with the arithmetic, and in total. */
export function costPerMillion(measure: CostInput) {
  const calls = 1_000_000;
  const { invocations, readUnits, writeUnits } = measure;
  // Lambda bills by the millisecond: the arithmetic shown uses the times as rounded for display.
  const [warm, colds] = [toMillisecond(measure.warmSeconds), measure.coldStartSeconds.map(toMillisecond)];
  const [million, gb] = [count(calls), `${memoryGb} GB`];
  const line = (item: string, arithmetic: string, dollars: number) => ({ item, arithmetic, dollars });
  const perMillion = (item: string, quantity: number, text: string, unitPrice: number) =>
    line(item, `${text} × ${price(unitPrice)} / 1,000,000`, (quantity * unitPrice) / calls);
  const gbPrice = prices.lambdaGbSecond;
  const duration = (item: string, text: string, gbSeconds: number) =>
    line(item, `${text} = ${count(Math.round(gbSeconds))} GB-s × ${price(gbPrice)}`, gbSeconds * gbPrice);
  const coldSum = colds.reduce((total, value) => total + value, 0);
  const coldText = `${million} × ${coldShare * 100} % × (${colds.map(seconds).join(' + ')}) × ${gb}`;
  const [reads, writes] = [`${million} × ${count(readUnits)} RRU`, `${million} × ${count(writeUnits)} WRU`];
  const lines = [
    perMillion('API Gateway', calls, million, prices.apiGateway),
    perMillion('Lambda requests', calls * invocations, count(calls * invocations), prices.lambdaRequests),
    duration('Lambda duration, warm', `${million} × ${seconds(warm)} × ${gb}`, calls * warm * memoryGb),
    duration('Lambda duration, init', coldText, calls * coldShare * coldSum * memoryGb),
    perMillion('DynamoDB reads', calls * readUnits, reads, prices.readUnit),
    perMillion('DynamoDB writes', calls * writeUnits, writes, prices.writeUnit),
  ];
  return { lines, total: lines.reduce((total, line) => total + line.dollars, 0) };
}

/** A million calls of a measured operation (report.md, section 5); `coldStartMs` finds today's or the baseline's. */
export function operationCost(measure: Measured, routeId: string, coldStartMs: (name: string) => number | undefined) {
  const coldStartSeconds = ['authorizer', routeId].map((name) => {
    const found = coldStartMs(name);
    if (found === undefined) throw new Error(`no cold start measured for ${name}`);
    return found / 1000;
  });
  const [warmSeconds, { read: readUnits, write: writeUnits }] = [measure.latencyMs / 1000, measure.billed];
  return costPerMillion({ invocations: 2, warmSeconds, coldStartSeconds, readUnits, writeUnits });
}

/** The same cost from the baseline's units, latency and cold starts; undefined for an operation it did not measure. */
export function costBefore(baseline: Baseline, { id, routeId }: { id: string; routeId: string }) {
  const measure = baseline.operations[id];
  return measure && operationCost(measure, routeId, (name) => baseline.functions[name]?.coldStartMs).total;
}

/** The bundle and cold-start budgets, kept by `npm run bench -- --check`. */
export const [maxColdStartRatio, maxBundleBytes] = [1.5, 1_000_000];

/**
 * A new lead's custom field values are bytes of the item its transaction creates, no write of their own
 * (docs/adr/0016-custom-fields-storage.md): with five values, at most one write unit more than without.
 */
export const fieldValuesBudget = { withValues: 'newLeadWithFields', without: 'newLead', extraWriteUnits: 1 } as const;

/**
 * The lists' budget (docs/adr/0017-lists-of-prospects.md): a new lead and a stage change at most 2 write units more
 * than before the lists' indexes (what the bench billed at commit a2d7f6b, by the same rules: 11 and 9), a million new
 * leads at most $12.50 and a million known leads $8.60 (API Gateway REST prices).
 */
export const extraWriteBudget = {
  before: { newLead: 11, patchStage: 9 },
  extraWriteUnits: 2,
} as const;
const costBudgets = [
  { id: 'newLead', dollars: 12.5 },
  { id: 'knownLead', dollars: 8.6 },
] as const;

/** Decimal units: 1 MB is 1,000,000 bytes, 1 KB 1,000. */
export const formatBytes = (bytes: number) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(2)} MB` : `${(bytes / 1000).toFixed(1)} KB`;

/**
 * Each budget, what was measured and whether it holds (the heaviest function's cold start and bundle, round trips,
 * errors, the lists' pages and the write units and costs their indexes allow). An operation a budget names that was
 * not measured breaks it.
 */
export function checkBudgets(
  results: Pick<BenchResults, 'functions' | 'reference' | 'operations' | 'load' | 'baseline'>,
) {
  const top = results.functions.reduce((heaviest, other) => (other.bytes > heaviest.bytes ? other : heaviest));
  const [topMs, referenceMs] = [top.coldStart.totalMs, results.reference.coldStart.totalMs];
  const measures = phases.flatMap((phase) =>
    results.operations[phase].map(({ id, roundTrips }) => ({ ...operationOf(id), roundTrips, phase })),
  );
  const overTarget = measures.filter((measure) => measure.roundTrips > measure.target);
  const runs = phases.flatMap((phase) =>
    results.load[phase].map((run) => ({ ...run, label: `${run.scenario} × ${run.connections} (${phase})` })),
  );
  const failing = runs.filter((run) => run.errors > 0 || run.non2xx > 0);
  const leads = phases.map((phase) => {
    const writeUnits = (id: string) => results.operations[phase].find((measure) => measure.id === id)?.billed.write;
    return {
      phase,
      withValues: writeUnits(fieldValuesBudget.withValues),
      without: writeUnits(fieldValuesBudget.without),
    };
  });
  const sum = (field: 'errors' | 'non2xx' | 'status5xx') => runs.reduce((total, run) => total + run[field], 0);
  const measureOf = (id: string, phase: Phase) => results.operations[phase].find((measure) => measure.id === id);
  const pages = operations
    .filter((operation) => operation.fullPage)
    .map(({ id, label }) => ({
      label,
      empty: measureOf(id, 'empty')?.billed.read,
      bulk: measureOf(id, 'bulk')?.billed.read,
    }));
  const grown = pages.filter(({ empty, bulk }) => empty === undefined || bulk === undefined || bulk !== empty);
  const extraWrites = Object.entries(extraWriteBudget.before).map(([id, before]) => ({
    label: operationOf(id).label,
    before: before as number | undefined,
    after: phases.map((phase) => ({ phase, write: measureOf(id, phase)?.billed.write })),
  }));
  const coldStartOf = (name: string) => results.functions.find((result) => result.name === name)?.coldStart.totalMs;
  const costs = costBudgets.map(({ id, dollars }) => {
    const operation = operationOf(id);
    const totals = phases.map((phase) => {
      const measure = measureOf(id, phase);
      return { phase, total: measure && operationCost(measure, operation.routeId, coldStartOf).total };
    });
    return { label: operation.label, dollars, totals };
  });
  return [
    {
      budget: `Cold start of the heaviest function ≤ ${maxColdStartRatio} × the reference`,
      measured: `${top.name}: ${(topMs / referenceMs).toFixed(2)} × (${Math.round(topMs)} ms against ${Math.round(referenceMs)} ms)`,
      ok: topMs / referenceMs <= maxColdStartRatio,
    },
    {
      budget: `Heaviest bundle ≤ ${formatBytes(maxBundleBytes)} minified`,
      measured: `${top.name}: ${formatBytes(top.bytes)} (${Math.round((top.bytes / maxBundleBytes) * 100)} % of the budget)`,
      ok: top.bytes <= maxBundleBytes,
    },
    {
      budget: 'DynamoDB round trips within their targets',
      measured:
        overTarget
          .map((over) => `${over.label} (${over.phase}): ${over.roundTrips} round trips, target ${over.target}`)
          .join('; ') || `${measures.length} of ${measures.length} operations within their target`,
      ok: overTarget.length === 0,
    },
    {
      budget: `A new lead with five field values: WRU ≤ a new lead's + ${fieldValuesBudget.extraWriteUnits}`,
      measured: leads
        .map(({ phase, withValues, without }) => `${phase}: ${withValues ?? '—'} WRU against ${without ?? '—'}`)
        .join('; '),
      ok: leads.every(
        ({ withValues, without }) =>
          withValues !== undefined &&
          without !== undefined &&
          withValues <= without + fieldValuesBudget.extraWriteUnits,
      ),
    },
    {
      budget: 'Zero 5xx (and no other error) under load',
      measured:
        failing.length === 0
          ? `${runs.length} runs, 0 errors`
          : `${sum('status5xx')} 5xx, ${sum('non2xx')} non-2xx, ${sum('errors')} socket errors or timeouts (${failing.map((run) => run.label).join(', ')})`,
      ok: failing.length === 0,
    },
    {
      budget: `A list's full page: the same RRU with ${count(bulkProspectCount)} prospects more`,
      measured:
        grown.map(({ label, empty, bulk }) => `${label}: ${bulk ?? '—'} RRU against ${empty ?? '—'}`).join('; ') ||
        `${pages.length} of ${pages.length} pages read the same units in both workspaces`,
      ok: grown.length === 0,
    },
    {
      budget: `A new lead and a stage change: WRU ≤ before the lists' indexes + ${extraWriteBudget.extraWriteUnits}`,
      measured: extraWrites
        .map(({ label, before, after }) => {
          const phased = after.map(({ phase, write }) => `${write ?? '—'} (${phase})`).join(', ');
          return `${label}: ${phased} against ${before ?? '—'}`;
        })
        .join('; '),
      ok: extraWrites.every(({ before, after }) =>
        after.every(
          ({ write }) =>
            before !== undefined && write !== undefined && write <= before + extraWriteBudget.extraWriteUnits,
        ),
      ),
    },
    {
      budget: `Cost per million on API Gateway REST: ${costs.map(({ label, dollars }) => `${label} ≤ ${price(dollars)}`).join(', ')}`,
      measured: costs
        .map(({ label, totals }) => {
          const phased = totals.map(
            ({ phase, total }) => `${total === undefined ? '—' : `$${total.toFixed(3)}`} (${phase})`,
          );
          return `${label}: ${phased.join(', ')}`;
        })
        .join('; '),
      ok: costs.every(({ dollars, totals }) => totals.every(({ total }) => total !== undefined && total <= dollars)),
    },
  ];
}
