import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { version as esbuildVersion } from 'esbuild';
import * as z from 'zod/mini';
import type { Bundle, ColdStart } from './functions';
import type { LoadRun } from './load';
import { operations, type OperationMeasure } from './operations';
import { phases, type Phase } from './workspace';

/** Everything one `npm run bench` measured, as the report and the budget check read it. */
export type BenchResults = {
  date: string;
  seconds: number;
  environment: ReturnType<typeof describeEnvironment>;
  functions: FunctionResult[];
  reference: FunctionResult;
  /** The machine's one-minute load average at the end of the cold starts. */
  coldStartLoadAverage: number;
  operations: Record<Phase, OperationMeasure[]>;
  load: Record<Phase, LoadRun[]>;
  bulk: { prospects: number; items: number; seconds: number };
  baseline: Baseline;
};
export type FunctionResult = Bundle & { coldStart: ColdStart };

/** What the figures were measured on, for the report's reader to weigh them. */
export function describeEnvironment() {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const { version: autocannon } = createRequire(import.meta.url)('autocannon/package.json') as { version: string };
  return {
    ...{
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
      cores: os.cpus().length,
      os: `${os.type()} ${os.release()}`,
    },
    ...{ memoryGb: Math.round(os.totalmem() / 1024 ** 3), node: process.version, autocannon, esbuild: esbuildVersion },
    java: (java.stderr || java.stdout).split('\n')[0]?.trim() ?? 'Java',
  };
}

export function operationOf(id: string) {
  const operation = operations.find((candidate) => candidate.id === id);
  if (operation === undefined) throw new Error(`unknown operation ${id}`);
  return operation;
}

/**
 * The "before" of issue 15 (fewer DynamoDB round trips): what `npm run bench` measured at the
 * last commit before it, kept in `tools/bench/baseline.json` (copied from that run's results, not
 * measured again) so that every report shows before → after. Operations added since have no before.
 */
const measured = z.object({
  calls: z.array(z.string()),
  billed: z.object({ read: z.number(), write: z.number() }),
  latencyMs: z.number(),
});
const baselineSchema = z.object({
  commit: z.string().check(z.minLength(7)),
  date: z.string(),
  note: z.string(),
  referenceColdStartMs: z.number(),
  functions: z.record(z.string(), z.object({ coldStartMs: z.number(), bytes: z.number() })),
  operations: z.record(z.string(), measured),
});
export type Baseline = z.output<typeof baselineSchema>;
export const baselineFile = new URL('./baseline.json', import.meta.url);

/** The baseline as read from its JSON; anything missing or mistyped throws, naming the field. */
export function parseBaseline(json: unknown): Baseline {
  const parsed = baselineSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`${baselineFile.pathname}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim());
}

export const readBaseline = async () => parseBaseline(JSON.parse(await readFile(baselineFile, 'utf8')) as unknown);

/**
 * Prices of docs/deploy.md, "Cost per million calls": us-east-1, on demand, free tiers left out,
 * as published on the AWS pricing pages in 2025 (not read again since: no network here).
 */
export const prices = {
  apiGatewayPerMillion: 3.5,
  lambdaRequestsPerMillion: 0.2,
  lambdaGbSecond: 0.0000133334,
  writeUnitPerMillion: 0.625,
  readUnitPerMillion: 0.125,
} as const;
/** The stack's setting (infra/cdk/constructs/route-function.ts). */
export const memoryGb = 0.5;
/** docs/deploy.md's assumption: 1 % of invocations start a new instance. */
export const coldShare = 0.01;

export type CostInput = {
  /** Lambda invocations per call: the authorizer, then the handler. */
  invocations: number;
  /** Both invocations of one warm call, in seconds. */
  warmSeconds: number;
  /** The cold starts of the functions invoked (authorizer, handler), in seconds. */
  coldStartSeconds: readonly number[];
  readUnits: number;
  writeUnits: number;
};

/** A price with its own decimals, at least two: $3.50, $0.625, $0.0000133334. */
export const price = (dollars: number) =>
  `$${dollars.toFixed(Math.max(2, String(dollars).split('.')[1]?.length ?? 0))}`;
const count = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 3 });
const seconds = (value: number) => `${value.toFixed(3)} s`;
const toMillisecond = (value: number) => Math.round(value * 1000) / 1000;

/** What a million calls of one operation cost, line by line with the arithmetic, and in total. */
export function costPerMillion(measure: CostInput) {
  const calls = 1_000_000;
  const { invocations, readUnits, writeUnits } = measure;
  // Lambda bills by the millisecond: the arithmetic shown uses the times as rounded for display.
  const [warm, colds] = [toMillisecond(measure.warmSeconds), measure.coldStartSeconds.map(toMillisecond)];
  const [million, gb] = [count(calls), `${memoryGb} GB`];
  const perMillion = (item: string, quantity: number, text: string, unitPrice: number) => ({
    item,
    arithmetic: `${text} × ${price(unitPrice)} / 1,000,000`,
    dollars: (quantity * unitPrice) / calls,
  });
  const duration = (item: string, text: string, gbSeconds: number) => ({
    item,
    arithmetic: `${text} = ${count(Math.round(gbSeconds))} GB-s × ${price(prices.lambdaGbSecond)}`,
    dollars: gbSeconds * prices.lambdaGbSecond,
  });
  const coldSum = colds.reduce((total, value) => total + value, 0);
  const lines = [
    perMillion('API Gateway', calls, million, prices.apiGatewayPerMillion),
    perMillion('Lambda requests', calls * invocations, count(calls * invocations), prices.lambdaRequestsPerMillion),
    duration('Lambda duration, warm', `${million} × ${seconds(warm)} × ${gb}`, calls * warm * memoryGb),
    duration(
      'Lambda duration, init',
      `${million} × ${coldShare * 100} % × (${colds.map(seconds).join(' + ')}) × ${gb}`,
      calls * coldShare * coldSum * memoryGb,
    ),
    perMillion('DynamoDB reads', calls * readUnits, `${million} × ${count(readUnits)} RRU`, prices.readUnitPerMillion),
    perMillion(
      'DynamoDB writes',
      calls * writeUnits,
      `${million} × ${count(writeUnits)} WRU`,
      prices.writeUnitPerMillion,
    ),
  ];
  return { lines, total: lines.reduce((total, line) => total + line.dollars, 0) };
}

/**
 * What a million calls of one measured operation cost: one API Gateway request, two invocations
 * (the authorizer, then the handler) billed for the latency measured, and their cold starts.
 */
export const operationCost = (
  measure: { latencyMs: number; billed: { read: number; write: number } },
  coldStartMs: { authorizer: number; handler: number },
) =>
  costPerMillion({
    invocations: 2,
    warmSeconds: measure.latencyMs / 1000,
    coldStartSeconds: [coldStartMs.authorizer / 1000, coldStartMs.handler / 1000],
    readUnits: measure.billed.read,
    writeUnits: measure.billed.write,
  });

/**
 * The cost per million calls of an operation as the baseline measured it, with the same function
 * as today's figures: its units and latency, and the cold starts of the authorizer and of its
 * route's function at that commit. Undefined when it was not measured.
 */
export function costBefore(baseline: Baseline, operation: { id: string; routeId: string }): number | undefined {
  const measure = baseline.operations[operation.id];
  if (measure === undefined) return undefined;
  const coldStartOf = (name: string) => {
    const found = baseline.functions[name];
    if (found === undefined) throw new Error(`the baseline has no cold start for ${name}`);
    return found.coldStartMs;
  };
  return operationCost(measure, { authorizer: coldStartOf('authorizer'), handler: coldStartOf(operation.routeId) })
    .total;
}

/** The budgets of issues 7 and 15, kept by `npm run bench -- --check`. */
export const maxColdStartRatio = 1.5;
export const maxBundleBytes = 1_000_000;

/** Decimal units: 1 MB is 1,000,000 bytes, 1 KB 1,000. */
export const formatBytes = (bytes: number) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(2)} MB` : `${(bytes / 1000).toFixed(1)} KB`;

/**
 * Each budget, what was measured and whether it holds: the cold start and the bundle of the heaviest
 * function (the reference excluded), every operation's median round trips in both workspaces
 * against its target, and no error of any kind under load.
 */
export function checkBudgets(results: Pick<BenchResults, 'functions' | 'reference' | 'operations' | 'load'>) {
  const top = results.functions.reduce((heaviest, candidate) =>
    candidate.bytes > heaviest.bytes ? candidate : heaviest,
  );
  const ratio = top.coldStart.totalMs / results.reference.coldStart.totalMs;
  const measures = phases.flatMap((phase) =>
    results.operations[phase].map((measure) => {
      const { label, target } = operationOf(measure.id);
      return { label: `${label} (${phase})`, roundTrips: measure.roundTrips, target };
    }),
  );
  const over = measures.filter((measure) => measure.roundTrips > measure.target);
  const runs = phases.flatMap((phase) =>
    results.load[phase].map((run) => ({ ...run, label: `${run.scenario} × ${run.connections} (${phase})` })),
  );
  const failing = runs.filter((run) => run.errors > 0 || run.non2xx > 0);
  const sum = (field: 'errors' | 'non2xx' | 'status5xx') => runs.reduce((total, run) => total + run[field], 0);
  return [
    {
      budget: `Cold start of the heaviest function ≤ ${maxColdStartRatio} × the reference`,
      measured: `${top.name}: ${ratio.toFixed(2)} × (${Math.round(top.coldStart.totalMs)} ms against ${Math.round(results.reference.coldStart.totalMs)} ms)`,
      ok: ratio <= maxColdStartRatio,
    },
    {
      budget: `Heaviest bundle ≤ ${formatBytes(maxBundleBytes)} minified`,
      measured: `${top.name}: ${formatBytes(top.bytes)} (${Math.round((top.bytes / maxBundleBytes) * 100)} % of the budget)`,
      ok: top.bytes <= maxBundleBytes,
    },
    {
      budget: "DynamoDB round trips within the issue's targets",
      measured:
        over.length === 0
          ? `${measures.length} of ${measures.length} operations within their target`
          : over
              .map((measure) => `${measure.label}: ${measure.roundTrips} round trips, target ${measure.target}`)
              .join('; '),
      ok: over.length === 0,
    },
    {
      budget: 'Zero 5xx (and no other error) under load',
      measured:
        failing.length === 0
          ? `${runs.length} runs, 0 errors`
          : `${sum('status5xx')} 5xx, ${sum('non2xx')} non-2xx, ${sum('errors')} socket errors or timeouts (${failing.map((run) => run.label).join(', ')})`,
      ok: failing.length === 0,
    },
  ];
}
