import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { requestLimit } from '../../lib/storage/rate-limit';
import {
  apiCall,
  fresh,
  newLeadBody,
  noteBody,
  phases,
  sender,
  webhookCall,
  type Call,
  type Phase,
  type Workspace,
} from './workspace';

/** Each key stays well under its limit of requests a minute, whatever minute the run falls in. */
export const requestsPerKey = Math.floor(requestLimit * (5 / 6));
export const connectionCounts = [1, 10, 50] as const;
/** The note runs spread over this many prospects, at least four per connection, so concurrent notes rarely meet. */
export const noteProspectCount = 200;

/**
 * How many requests a run sends (enough for a p99 at low concurrency, a few seconds of run at any)
 * and over how many API keys they are spread (round robin): at least one key per connection, and
 * never more than `requestsPerKey` requests on one key.
 */
export function loadPlan(connections: number) {
  const requests = Math.max(400, 40 * connections);
  return { connections, requests, keys: Math.max(connections, Math.ceil(requests / requestsPerKey)) };
}

export type LoadRun = ReturnType<typeof loadPlan> & { scenario: 'lead' | 'note'; p50Ms: number; p99Ms: number } & {
  requestsPerSecond: number;
  /** Socket errors and timeouts. */
  errors: number;
  non2xx: number;
  status5xx: number;
};

/** The calls of a scenario, built as sent: a new lead each time, or a note on the next prospect with the next key. */
function calls(
  workspace: Workspace,
  scenario: LoadRun['scenario'],
  keys: readonly string[],
  prospects: readonly string[],
) {
  const { seed } = workspace;
  let sent = 0;
  return (): Call => {
    sent += 1;
    if (scenario === 'lead') return webhookCall(seed, 'ingest-lead', newLeadBody(fresh(), seed.tags.vip));
    return apiCall(
      keys[sent % keys.length] ?? '',
      'POST',
      `/prospects/${prospects[sent % prospects.length]}/notes`,
      noteBody,
    );
  };
}

/** autocannon ends a run on its next sample tick: ticks of 50 ms keep the run's duration (and rate) exact. */
const load = (url: string, connections: number, amount: number, next: () => Call) => {
  const setupRequest = () => {
    const { path, headers, body } = next();
    return {
      method: 'POST' as const,
      path,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    };
  };
  return autocannon({ url, connections, amount, sampleInt: 50, requests: [{ setupRequest }] });
};

/**
 * New leads at 10 connections, not counted, before anything is measured: DynamoDB Local's JVM
 * compiles its hot paths over the first thousands of requests, and every measure must meet it warm.
 */
export async function warmUpDynamoDb(url: string, workspace: Workspace): Promise<void> {
  const result = await load(url, 10, 1000, calls(workspace, 'lead', [], []));
  if (result.errors > 0 || result.non2xx > 0)
    throw new Error(`warm-up load: ${result.non2xx} non-2xx, ${result.errors} errors`);
}

/**
 * Sections 3 and 4: each scenario at 1, 10 and 50 connections against the local API in its own
 * process, in each workspace, the workspaces taking turns so that neither meets the code and
 * DynamoDB Local less warm. Twenty requests first load the functions' modules, as the first calls
 * to a new Lambda instance would; they are not counted.
 */
export async function measureLoad(
  url: string,
  workspaces: Record<Phase, Workspace>,
): Promise<Record<Phase, LoadRun[]>> {
  const runs: Record<Phase, LoadRun[]> = { empty: [], bulk: [] };
  const noteProspects = {
    empty: workspaces.empty.prospects(noteProspectCount),
    bulk: workspaces.bulk.prospects(noteProspectCount),
  };
  const send = sender(url);
  for (const scenario of ['lead', 'note'] as const) {
    for (const phase of phases) {
      const next = calls(workspaces[phase], scenario, workspaces[phase].apiKeys(1), noteProspects[phase]);
      for (let call = 0; call < 20; call += 1) await send(next());
    }
    for (const connections of connectionCounts) {
      for (const phase of phases) {
        const plan = loadPlan(connections);
        const keys = scenario === 'note' ? workspaces[phase].apiKeys(plan.keys) : [];
        const result = await load(
          url,
          connections,
          plan.requests,
          calls(workspaces[phase], scenario, keys, noteProspects[phase]),
        );
        runs[phase].push({
          ...plan,
          scenario,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          requestsPerSecond: result.requests.total / result.duration,
          errors: result.errors,
          non2xx: result.non2xx,
          status5xx: result['5xx'],
        });
      }
    }
  }
  return runs;
}

/**
 * Starts tools/bench/load-server.ts, the local API alone in a process of its own (through tsx, like
 * the bench), so that autocannon does not share its event loop; it stops when its standard input closes.
 */
export async function startLoadServer(env: NodeJS.ProcessEnv): Promise<{ url: string; stop: () => Promise<void> }> {
  const entry = fileURLToPath(new URL('./load-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
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
      child.stdin.end();
      await exited;
    },
  };
}
