import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { SeedOutput } from '../../lib/admin/seed';
import { connectionCounts, loadKeyLabel, loadPlan, type LoadPlan } from './load-plan';
import { newLeadBody, noteBody } from './payloads';
import { apiKeySecret, benchWebhook, phases, type Phase } from './workspace';

export type Scenario = 'lead' | 'note';
export const scenarios: readonly Scenario[] = ['lead', 'note'];

export type LoadRun = LoadPlan & {
  scenario: Scenario;
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  /** Socket errors and timeouts. */
  errors: number;
  non2xx: number;
  status5xx: number;
};

export type LoadContext = {
  seed: SeedOutput;
  phase: Phase;
  /** Prospects the note runs write to, round robin: several per connection, so concurrent notes rarely meet. */
  noteProspects: readonly string[];
  fresh: () => number;
};

type Request = { method: 'POST'; path: string; headers: Record<string, string>; body: string };

/**
 * The requests of a scenario, each built when autocannon is about to send it: a new lead each
 * time, or a note on the next prospect with the next key (round robin).
 */
function requestSource(context: LoadContext, scenario: Scenario, apiKeys: readonly string[]): () => Request {
  const json = { 'content-type': 'application/json' };
  if (scenario === 'lead') {
    const webhook = benchWebhook(context.seed);
    return () => ({
      method: 'POST',
      path: `/webhooks/ingest-lead?endpoint_id=${webhook.endpoint_id}`,
      headers: { ...json, authorization: `Bearer ${webhook.token}` },
      body: JSON.stringify(newLeadBody(context.fresh(), context.seed.tags.vip)),
    });
  }
  let sent = 0;
  return () => {
    const n = sent;
    sent += 1;
    return {
      method: 'POST',
      path: `/prospects/${context.noteProspects[n % context.noteProspects.length]}/notes`,
      headers: { ...json, authorization: `Bearer ${apiKeys[n % apiKeys.length]}` },
      body: JSON.stringify(noteBody),
    };
  };
}

/**
 * Sections 3 and 4: each scenario at 1, 10 and 50 connections against the local API in its own
 * process, in each workspace, the workspaces taking turns so that neither meets the code and
 * DynamoDB Local less warm. A few requests first load the functions' modules, as the first calls
 * to a new Lambda instance would; they are not counted.
 */
export async function measureLoad(
  url: string,
  contexts: Record<Phase, LoadContext>,
  warmUpKeyOf: (phase: Phase) => string,
): Promise<Record<Phase, LoadRun[]>> {
  const runs: Record<Phase, LoadRun[]> = { empty: [], bulk: [] };
  for (const scenario of scenarios) {
    for (const phase of phases) await warmUp(url, contexts[phase], scenario, warmUpKeyOf(phase));
    for (const connections of connectionCounts) {
      for (const phase of phases)
        runs[phase].push(await loadRun(url, contexts[phase], scenario, loadPlan(connections)));
    }
  }
  return runs;
}

async function loadRun(url: string, context: LoadContext, scenario: Scenario, plan: LoadPlan): Promise<LoadRun> {
  const apiKeys = Array.from({ length: plan.keys }, (_, index) =>
    apiKeySecret(context.seed, loadKeyLabel(context.phase, plan.connections, index)),
  );
  const next = requestSource(context, scenario, apiKeys);
  const result = await autocannon({
    url,
    connections: plan.connections,
    amount: plan.requests,
    // autocannon ends a run on its next sample tick: ticks of 50 ms keep the run's duration (and rate) exact.
    sampleInt: 50,
    requests: [{ setupRequest: () => next() }],
  });
  return {
    ...plan,
    scenario,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requestsPerSecond: result.requests.total / result.duration,
    errors: result.errors,
    non2xx: result.non2xx,
    status5xx: result['5xx'],
  };
}

const warmUpCalls = 20;

/**
 * New leads at 10 connections, not counted, before a phase is measured: DynamoDB Local's JVM
 * compiles its hot paths over the first thousands of requests, and both phases must meet it
 * equally warm for their figures to compare.
 */
export async function warmUpDynamoDb(url: string, context: LoadContext): Promise<void> {
  const next = requestSource(context, 'lead', []);
  const result = await autocannon({ url, connections: 10, amount: 1000, requests: [{ setupRequest: () => next() }] });
  if (result.errors > 0 || result.non2xx > 0)
    throw new Error(`warm-up load: ${result.non2xx} non-2xx, ${result.errors} errors`);
}

async function warmUp(url: string, context: LoadContext, scenario: Scenario, warmUpKey: string): Promise<void> {
  const source = requestSource(context, scenario, [apiKeySecret(context.seed, warmUpKey)]);
  for (let call = 0; call < warmUpCalls; call += 1) {
    const request = source();
    const response = await fetch(new URL(request.path, url), request);
    if (!response.ok) throw new Error(`warm-up ${scenario}: ${response.status} ${await response.text()}`);
  }
}

export type LoadServer = { url: string; stop: () => Promise<void> };

/** Starts tools/bench/load-server.ts (through tsx, like the bench) with the bench's environment. */
export async function startLoadServer(env: NodeJS.ProcessEnv): Promise<LoadServer> {
  const entry = fileURLToPath(new URL('./load-server.ts', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], {
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) resolve((JSON.parse(stdout) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`load server exited with ${code}`)));
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin?.end();
      await exited;
    },
  };
}
