import { fork, type StdioOptions } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { productionDeps } from '../../lib/storage/client';
import { requestLimit } from '../../lib/storage/rate-limit';
import { startLocalServer } from '../local/server';
import {
  apiCall,
  fresh,
  newLeadBody,
  noteBody,
  phases,
  request,
  sender,
  webhookCall,
  type Call,
  type Phase,
  type Workspace,
  type Workspaces,
} from './workspace';

/** Each key stays well under its limit a minute; note runs spread over 200 prospects, so concurrent notes rarely meet. */
export const [requestsPerKey, noteProspectCount] = [Math.floor(requestLimit * (5 / 6)), 200];
export const connectionCounts = [1, 10, 50] as const;

/** A run's requests (enough for a p99, a few seconds at any concurrency), over keys in turn: one a connection at least. */
export function loadPlan(connections: number) {
  const requests = Math.max(400, 40 * connections);
  return { connections, requests, keys: Math.max(connections, Math.ceil(requests / requestsPerKey)) };
}

/** `errors`: socket errors and timeouts. */
export type LoadRun = ReturnType<typeof loadPlan> & { scenario: 'lead' | 'note' } & Record<LoadFigure, number>;
type LoadFigure = 'p50Ms' | 'p99Ms' | 'requestsPerSecond' | 'errors' | 'non2xx' | 'status5xx';

/** The calls of a scenario, built as sent: a new lead each time, or a note on the next prospect with the next key. */
function calls({ seed }: Workspace, scenario: LoadRun['scenario'], keys: string[], prospects: string[]) {
  let sent = 0;
  return (): Call => {
    sent += 1;
    if (scenario === 'lead') return webhookCall(seed, 'ingest-lead', newLeadBody(fresh(), seed.tags.vip));
    const prospect = prospects[sent % prospects.length];
    return apiCall(keys[sent % keys.length] ?? '', 'POST', `/prospects/${prospect}/notes`, noteBody);
  };
}

/** autocannon ends a run on its next sample tick: ticks of 50 ms keep the run's duration (and rate) exact. */
const load = (url: string, connections: number, amount: number, next: () => Call) => {
  const setupRequest = () => ({ ...request(next()), method: 'POST' as const });
  return autocannon({ url, connections, amount, sampleInt: 50, requests: [{ setupRequest }] });
};

/** Uncounted new leads before any measure: DynamoDB Local's JVM compiles its hot paths over the first thousands. */
export async function warmUpDynamoDb(url: string, workspace: Workspace): Promise<void> {
  const { errors, non2xx } = await load(url, 10, 1000, calls(workspace, 'lead', [], []));
  if (errors > 0 || non2xx > 0) throw new Error(`warm-up load: ${non2xx} non-2xx, ${errors} errors`);
}

/** Sections 3 and 4, the workspaces taking turns (report.md); twenty uncounted requests first load the modules. */
export async function measureLoad(url: string, workspaces: Workspaces): Promise<Record<Phase, LoadRun[]>> {
  const runs: Record<Phase, LoadRun[]> = { empty: [], bulk: [] };
  const prospectsOf = (phase: Phase) => [phase, workspaces[phase].prospects(noteProspectCount)];
  const noteProspects = Object.fromEntries(phases.map(prospectsOf)) as Record<Phase, string[]>;
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
        const next = calls(workspaces[phase], scenario, keys, noteProspects[phase]);
        const result = await load(url, connections, plan.requests, next);
        const { latency, requests, duration, errors, non2xx, '5xx': status5xx } = result;
        const [p50Ms, p99Ms, requestsPerSecond] = [latency.p50, latency.p99, requests.total / duration];
        runs[phase].push({ ...plan, scenario, p50Ms, p99Ms, requestsPerSecond, errors, non2xx, status5xx });
      }
    }
  }
  return runs;
}

/**
 * The local API in a process of its own (this module, forked): autocannon, in the bench's, does not share its event
 * loop. It sends its URL and stops when its channel to the bench closes, however the bench ends.
 */
export async function startLoadServer(env: NodeJS.ProcessEnv): Promise<{ url: string; stop: () => Promise<void> }> {
  const stdio: StdioOptions = ['ignore', 'ignore', 'inherit', 'ipc'];
  const child = fork(fileURLToPath(import.meta.url), { env, execArgv: ['--import', 'tsx'], stdio });
  const exited = once(child, 'exit');
  const url = await Promise.race([
    once(child, 'message').then(([message]) => String(message)),
    exited.then(([code]) => Promise.reject(new Error(`load server exited with ${String(code)}`))),
  ]);
  const stop = async () => {
    if (child.connected) child.disconnect();
    await exited;
  };
  return { url, stop };
}

if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startLocalServer({ deps: productionDeps(), port: 0 });
  process.send(server.url);
  process.once('disconnect', () => void server.close().then(() => process.exit(0)));
}
