import '../../node-major.js'; // first: on another Node major, nothing else runs
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, startDynamoDbLocal } from '../local/dynamodb-local';
import { readBaseline } from './baseline';
import { checkBudgets } from './budgets';
import { buildBundles, referenceName } from './bundles';
import { bulkEmail } from './bulk-prospects';
import { coldStartEvents } from './cold-start-events';
import { coldStartWarmUps, measureColdStarts, type ColdStart } from './cold-start';
import { benchDeliveryQueueUrl } from './event-function-events';
import { describeEnvironment } from './environment';
import { measureLoad, startLoadServer, warmUpDynamoDb, type LoadContext } from './load';
import { noteProspectCount } from './load-plan';
import { measureOperations } from './operation-costs';
import { operations } from './operations';
import { writeReport } from './report';
import type { BenchResults, ColdStartSummary, FunctionResult } from './results';
import {
  coldKeyLabel,
  log,
  operationsKeyLabel,
  prepare,
  readsKeyLabel,
  seedBulk,
  warmUpKeyLabel,
  type Bench,
} from './setup';
import { median } from './stats';
import { apiKeySecret, knownLead, phases, type Phase } from './workspace';

/**
 * `npm run bench [-- --check]`: measures on this machine, in one run, and writes
 * docs/performance.md and its chart (the report explains each measure). With --check, exits
 * with 1 when a budget breaks.
 */

const coldStartRuns = 15;
const repetitions = 10;

/**
 * Both workspaces live in one table and are measured after the bulk write, against the same
 * DynamoDB Local: its JVM gets faster over the first hundreds of thousands of requests, and the
 * two must meet it equally warm for their figures to compare.
 */
async function bench(): Promise<BenchResults> {
  const started = performance.now();
  const baseline = await readBaseline();
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const dynamo = await startDynamoDbLocal({ port: await freePort() });
    cleanups.push(dynamo.stop);
    const context = await prepare(dynamo.endpoint);
    cleanups.push(async () => context.deps.db.destroy());
    const bundleDir = await mkdtemp(path.join(tmpdir(), 'crm-bench-'));
    cleanups.push(() => rm(bundleDir, { recursive: true, force: true }));
    const bulk = await seedBulk(context.deps, context.workspaces.bulk.seed);

    const server = await startLoadServer({ ...process.env, ...context.childEnv });
    cleanups.push(server.stop);
    const loadContextOf = (phase: Phase): LoadContext => {
      const { seed, prospects } = context.workspaces[phase];
      return { seed, phase, noteProspects: prospects(noteProspectCount), fresh: context.fresh };
    };
    const loadContexts: Record<Phase, LoadContext> = { empty: loadContextOf('empty'), bulk: loadContextOf('bulk') };
    await warmUpDynamoDb(server.url, loadContexts.empty);
    const functionResults = await measureFunctions(context, bundleDir);
    const coldStartLoadAverage = loadavg()[0] ?? 0;

    log(`${operations.length} operations × ${repetitions} in each workspace…`);
    const operationContextOf = (phase: Phase) => {
      const { seed, prospects } = context.workspaces[phase];
      return {
        seed,
        apiKey: apiKeySecret(seed, operationsKeyLabel(phase)),
        readApiKey: apiKeySecret(seed, readsKeyLabel(phase)),
        knownLeadEmail: phase === 'empty' ? knownLead.email : bulkEmail(0),
        prospects,
        fresh: context.fresh,
      };
    };
    const operationsByPhase = await measureOperations(
      { empty: operationContextOf('empty'), bulk: operationContextOf('bulk') },
      repetitions,
      context.endpoint,
    );
    log('load runs in each workspace…');
    const loadByPhase = await measureLoad(server.url, loadContexts, warmUpKeyLabel);

    const functions = functionResults.filter((result) => result.name !== referenceName);
    const reference = functionResults.find((result) => result.name === referenceName);
    if (reference === undefined) throw new Error('reference not bundled');
    return {
      date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      seconds: (performance.now() - started) / 1000,
      environment: describeEnvironment(),
      functions,
      reference,
      coldStartLoadAverage,
      repetitions,
      operations: operationsByPhase,
      load: loadByPhase,
      bulk,
      budgets: checkBudgets({
        functions: functions.map((result) => ({ ...result, coldStartMs: result.coldStart.totalMs })),
        referenceColdStartMs: reference.coldStart.totalMs,
        operations: phases.flatMap((phase) =>
          operationsByPhase[phase].map((measure) => {
            const operation = operations.find((candidate) => candidate.id === measure.id);
            if (operation === undefined) throw new Error(`unknown operation ${measure.id}`);
            return { label: `${operation.label} (${phase})`, roundTrips: measure.roundTrips, target: operation.target };
          }),
        ),
        load: phases.flatMap((phase) =>
          loadByPhase[phase].map((run) => ({ ...run, label: `${run.scenario} × ${run.connections} (${phase})` })),
        ),
      }),
      baseline,
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/** Section 1: every bundle, and its cold starts next to the reference's. */
async function measureFunctions(context: Bench, bundleDir: string): Promise<FunctionResult[]> {
  const bundles = await buildBundles(bundleDir);
  log(`${bundles.length} bundles built; ${coldStartRuns} cold starts each…`);
  const { seed, prospects } = context.workspaces.empty;
  const events = coldStartEvents(
    {
      seed,
      keyIdOf: (routeId) => seed.api_keys[coldKeyLabel(routeId)]?.id ?? '',
      prospects,
      fresh: context.fresh,
    },
    coldStartWarmUps + coldStartRuns,
  );
  const coldStarts = await measureColdStarts(
    bundles.map((bundle) => {
      const event = events.get(bundle.name);
      if (event === undefined) throw new Error(`no cold-start event for ${bundle.name}`);
      return { name: bundle.name, file: bundle.file, event };
    }),
    coldStartRuns,
    // The event functions read their queue's URL on import (lib/event-deps.ts); the routes ignore it.
    { ...context.childEnv, DELIVERY_QUEUE_URL: benchDeliveryQueueUrl },
  );
  return bundles.map((bundle) => ({ ...bundle, coldStart: summarize(coldStarts.get(bundle.name) ?? []) }));
}

function summarize(runs: readonly ColdStart[]): ColdStartSummary {
  const of = (field: keyof ColdStart) => median(runs.map((run) => run[field]));
  return {
    runs: runs.length,
    totalMs: of('totalMs'),
    nodeStartMs: of('nodeStartMs'),
    loadMs: of('loadMs'),
    firstAnswerMs: of('firstAnswerMs'),
    cpuMs: of('cpuMs'),
  };
}

const results = await bench();
await writeReport(results);
for (const check of results.budgets) log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.budget}: ${check.measured}`);
log(`docs/performance.md written (${Math.round(results.seconds)} s)`);
if (process.argv.includes('--check') && results.budgets.some((check) => !check.ok)) process.exitCode = 1;
