import '../../node-major.js'; // first: on another Node major, nothing else runs
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { productionDeps, createDynamoClient, loadSecretsTableName } from '../../lib/storage/client';
import { poolIdentityProvider } from '../../lib/identity/cognito';
import { ensureSecretsTable, ensureTable } from '../local/create-table';
import { freePort, startDynamoDbLocal } from '../local/dynamodb-local';
import { startLocalIdentityProvider } from '../local/identity-provider';
import { checkBudgets, describeEnvironment, readBaseline } from './figures';
import {
  benchDeliveryQueueUrl,
  benchExportBucketName,
  benchFollowUpQueueUrl,
  buildBundles,
  coldStartEvents,
  coldStartRuns,
  measureColdStarts,
  referenceName,
} from './functions';
import { measureLoad, startLoadServer, warmUpDynamoDb } from './load';
import { measureOperations, operations, repetitions } from './operations';
import { writeReport } from './report';
import { createBenchPeople } from './settings';
import { bulkProspectCount, seedBenchWorkspace, sender } from './workspace';

/** `npm run bench [-- --check]`: measures, writes docs/performance.md and its chart; --check exits 1 on a broken budget. */
const log = (message: string) => console.log(`[bench] ${message}`);

/** Everything one `npm run bench` measured, as the report and the budget check read it. */
export type BenchResults = Awaited<ReturnType<typeof bench>>;

/** Both workspaces are measured after the bulk write: DynamoDB Local's JVM speeds up, and both must meet it as warm. */
async function bench() {
  const started = performance.now();
  const baseline = await readBaseline();
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const dynamo = await startDynamoDbLocal({ port: await freePort() });
    cleanups.push(dynamo.stop);
    // Every process the bench starts: no AWS credentials, DynamoDB Local.
    const table = { TABLE_NAME: 'crm-bench', DYNAMODB_ENDPOINT: dynamo.endpoint };
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', AWS_REGION: 'eu-west-3', ...table };
    Object.assign(process.env, table);
    const tableClient = createDynamoClient({ endpoint: dynamo.endpoint });
    await ensureTable(tableClient, table.TABLE_NAME);
    // The delivery function's read names it (as `<TABLE_NAME>-secrets`, the local default) even for an unknown delivery.
    await ensureSecretsTable(tableClient, loadSecretsTableName());
    tableClient.destroy();
    const deps = productionDeps();
    cleanups.push(async () => deps.db.destroy());
    const empty = await seedBenchWorkspace(deps, 'empty');
    log(`first workspace seeded; writing the second, with ${bulkProspectCount.toLocaleString('en-US')} prospects…`);
    const workspaces = { empty, bulk: await seedBenchWorkspace(deps, 'bulk') };
    log(`written in ${Math.round(workspaces.bulk.seconds)} s`);
    // The settings API's functions call an identity provider: the local one, as npm start runs it.
    const identityProvider = await startLocalIdentityProvider({ store: deps });
    cleanups.push(identityProvider.stop);
    for (const target of [process.env, env]) Object.assign(target, identityProvider.env);
    await createBenchPeople(poolIdentityProvider(), coldStartRuns + 1);

    const server = await startLoadServer({ ...process.env, ...env });
    cleanups.push(server.stop);
    await warmUpDynamoDb(server.url, workspaces.empty);

    const bundleDir = await mkdtemp(path.join(tmpdir(), 'crm-bench-'));
    cleanups.push(() => rm(bundleDir, { recursive: true, force: true }));
    const bundles = await buildBundles(bundleDir);
    log(`${bundles.length} bundles built; ${coldStartRuns} cold starts each…`);
    const events = await coldStartEvents(workspaces.empty, sender(server.url));
    // The event functions read their queues' URLs on import (lib/event-deps.ts), the export routes their bucket's name;
    // the other routes ignore them. The replay
    // invokes the webhooks' functions through the Lambda API the local server serves (tools/local/lambda-runtime.ts).
    const outbound = {
      DELIVERY_QUEUE_URL: benchDeliveryQueueUrl,
      FOLLOW_UP_QUEUE_URL: benchFollowUpQueueUrl,
      EXPORT_BUCKET_NAME: benchExportBucketName,
      LAMBDA_ENDPOINT: server.url,
    };
    const invoked = { INGEST_LEAD_FUNCTION_NAME: 'ingestLead', RECRUITMENT_FUNCTION_NAME: 'recruitment' };
    const measured = await measureColdStarts(bundles, events, { ...env, ...outbound, ...invoked });
    const coldStartLoadAverage = loadavg()[0] ?? 0;

    log(`${operations.length} operations × ${repetitions} in each workspace…`);
    const operationsByPhase = await measureOperations(workspaces);
    log('load runs in each workspace…');
    const load = await measureLoad(server.url, workspaces);

    const reference = measured.find((result) => result.name === referenceName);
    if (reference === undefined) throw new Error('reference not bundled');
    const { items, seconds } = workspaces.bulk;
    return {
      ...{ date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`, environment: describeEnvironment() },
      ...{ functions: measured.filter((result) => result !== reference), reference, coldStartLoadAverage, baseline },
      ...{ operations: operationsByPhase, load, bulk: { prospects: bulkProspectCount, items, seconds } },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

const results = await bench();
await writeReport(results);
const budgets = checkBudgets(results);
for (const check of budgets) log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.budget}: ${check.measured}`);
log(`docs/performance.md written (${Math.round(results.seconds)} s)`);
if (process.argv.includes('--check') && budgets.some((check) => !check.ok)) process.exitCode = 1;
