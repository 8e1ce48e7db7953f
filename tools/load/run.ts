import '../../node-major.js'; // first: on another Node major, nothing else runs
import { seedWorkspace, type SeedOutput } from '../seed/seed';
import { productionDeps, type Deps, createDynamoClient } from '../../lib/storage/client';
import { ensureTable } from '../local/create-table';
import { freePort, startDynamoDbLocal } from '../local/dynamodb-local';
import { startLocalServer } from '../local/server';
import { report } from './report';
import { verifyRun, type Outcome } from './verify';
import { loadWorkspace, planRequests, resolvePatch, type PlannedRequest } from './workload';

/**
 * `npm run load` (docs/reliability.md): a bounded load run of the local API on 127.0.0.1 over its
 * own DynamoDB Local, then a check of the table against every answer. Bounded in count
 * (LOAD_REQUESTS, default 4000) and time (LOAD_SECONDS, default 120: what is not sent by then is
 * counted as not sent); LOAD_CONCURRENCY requests at a time (default 32) over LOAD_WORKSPACES
 * workspaces (default 4); LOAD_SEED draws the workload. Exits 1 on a 5xx or a failed check.
 */

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} doit être un entier positif.`);
  return value;
};

const requests = setting('LOAD_REQUESTS', 4000);
const seconds = setting('LOAD_SECONDS', 120);
const concurrency = setting('LOAD_CONCURRENCY', 32);
const workspaces = setting('LOAD_WORKSPACES', 4);
const seed = setting('LOAD_SEED', 20261122);

async function send(baseUrl: string, seeds: readonly SeedOutput[], request: PlannedRequest): Promise<Outcome> {
  const workspace = seeds[request.workspace] as SeedOutput;
  let method = 'POST';
  let path: string;
  let headers: Record<string, string>;
  let body: unknown;
  if (request.kind === 'lead') {
    path = `/webhooks/ingest-lead?endpoint_id=${workspace.webhook?.endpoint_id}`;
    headers = {
      Authorization: `Bearer ${workspace.webhook?.token}`,
      ...(request.idempotencyKey ? { 'Idempotency-Key': request.idempotencyKey } : {}),
    };
    body = { email: request.email, first_name: 'Charge', source: 'Test de charge' };
  } else {
    const prospectId = workspace.prospects[`p${request.prospect}`] as string;
    headers = { Authorization: `Bearer ${workspace.api_keys[request.key]?.secret}` };
    if (request.kind === 'patch') {
      method = 'PATCH';
      path = `/prospects/${prospectId}`;
      body = resolvePatch(request.body, workspace);
    } else {
      path = `/prospects/${prospectId}/notes`;
      body = { content: request.content };
    }
  }
  const started = performance.now();
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { request, status: response.status, ms, body: parsed };
}

/** `concurrency` workers take the planned requests in order until none is left or the time is up. */
async function drive(baseUrl: string, seeds: readonly SeedOutput[], plan: readonly PlannedRequest[]) {
  const outcomes: Outcome[] = [];
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  const worker = async () => {
    while (next < plan.length && performance.now() < deadline) {
      const request = plan[next++] as PlannedRequest;
      outcomes.push(await send(baseUrl, seeds, request));
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { outcomes, elapsed: (performance.now() - started) / 1000, notSent: plan.length - next };
}

async function main(): Promise<number> {
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  const deps: Deps = productionDeps({ tableName: 'crm-load', endpoint: dynamo.endpoint, region: undefined });
  const client = createDynamoClient({ endpoint: dynamo.endpoint });
  await ensureTable(client, deps.tableName);
  client.destroy();
  const server = await startLocalServer({ deps, port: 0 });
  try {
    const seeds: SeedOutput[] = [];
    for (let index = 0; index < workspaces; index += 1) seeds.push(await seedWorkspace(deps, loadWorkspace));
    const plan = planRequests({ requests, workspaces, seed });
    console.log(`Charge : ${plan.length} requêtes, ${concurrency} à la fois, sur ${server.url}…`);
    const { outcomes, elapsed, notSent } = await drive(server.url, seeds, plan);
    const checks = await verifyRun(deps, seeds, outcomes);
    console.log(report({ requests, concurrency, workspaces, seed, seconds: elapsed, notSent }, outcomes, checks));
    return checks.every((check) => check.failures.length === 0) ? 0 : 1;
  } finally {
    await server.close();
    deps.db.destroy();
    await dynamo.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
