import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import type { ColdStartEvent } from './cold-start-events';

/**
 * One cold start: from the process's start to the first answer, how much of it was Node's own start,
 * the module load and the first answer, and the CPU time the process used meanwhile (which
 * other jobs on the machine inflate less than elapsed time).
 */
export type ColdStart = { totalMs: number; nodeStartMs: number; loadMs: number; firstAnswerMs: number; cpuMs: number };

export type ColdStartTarget = { name: string; file: string; event: ColdStartEvent };

/**
 * What the probe process reports of a function's answer: a route's status, the authorizer's
 * outcome, how many records an event function's partial batch response names as failed, or how
 * many due deliveries the sweep found.
 */
type Answer = { statusCode?: number; outcome?: string; batchItemFailures?: number; swept?: number };

/**
 * A first answer that did the work: a 2xx, the authorizer's allowing decision, a batch with no
 * failed record, or a sweep that read the due deliveries. A refused call would time the wrong code
 * path; which 2xx a route answers is the end-to-end tests' business.
 */
export const succeeded = (answer: Answer) =>
  answer.outcome === 'allowed' ||
  answer.batchItemFailures === 0 ||
  answer.swept !== undefined ||
  (answer.statusCode !== undefined && answer.statusCode >= 200 && answer.statusCode < 300);

/**
 * An event function may skip a record (an unreadable message is dropped) and still answer a batch
 * without failures; it then logs an error (lib/observability/logger.ts: a JSON line at level ERROR on
 * stderr): such a first answer did not do the work it was timed for. Routes are judged on their
 * answer alone.
 */
export const skippedWork = (answer: Answer, stderr: string) =>
  answer.batchItemFailures !== undefined && stderr.includes('"level":"ERROR"');

/**
 * What a Lambda runtime does for a fresh instance, in a fresh Node process: import the bundle
 * (its module scope builds the client and the handler), then hand it its first event. Times are
 * taken inside the process, from its time origin (the process's start), as Lambda reports an
 * init duration from the runtime's start: how long the bench takes to spawn it is not counted.
 */
const probe = `
const [bundleUrl, eventJson] = process.argv.slice(1);
const started = performance.now();
const { handler } = await import(bundleUrl);
const loaded = performance.now();
const context = {
  awsRequestId: 'cold-start', functionName: 'bench', functionVersion: '$LATEST', memoryLimitInMB: '512',
  callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => 10000,
};
const result = await handler(JSON.parse(eventJson), context);
const answered = performance.now();
const cpu = process.cpuUsage();
const answer = { statusCode: result?.statusCode, outcome: result?.context?.outcome, batchItemFailures: result?.batchItemFailures?.length, swept: result?.due };
process.stdout.write(JSON.stringify({ started, loaded, answered, cpuMs: (cpu.user + cpu.system) / 1000, answer }) + '\\n');
process.exit(0);
`;

/**
 * A first round, not counted, brings the bundles into the page cache and DynamoDB Local's JVM up
 * to speed: a Lambda cold start reads its code from a warm cache and meets a warm DynamoDB.
 */
export const coldStartWarmUps = 1;

/**
 * `runs` cold starts of each target after the warm-up round, interleaved (one of each, then
 * again) so that a slow moment of the machine does not fall on one function only. A target's
 * events are numbered from 0, the warm-up's included.
 */
export async function measureColdStarts(
  targets: readonly ColdStartTarget[],
  runs: number,
  env: Record<string, string>,
): Promise<Map<string, ColdStart[]>> {
  const measures = new Map<string, ColdStart[]>(targets.map((target) => [target.name, []]));
  for (let run = 0; run < coldStartWarmUps + runs; run += 1) {
    for (const target of targets) {
      const { answer, stderr, ...times } = await startOnce(target.file, target.event(run), env);
      if (!succeeded(answer) || skippedWork(answer, stderr)) {
        throw new Error(`${target.name}: unexpected first answer ${JSON.stringify(answer)} ${stderr.trim()}`.trim());
      }
      if (run >= coldStartWarmUps) measures.get(target.name)?.push(times);
    }
  }
  return measures;
}

type ProbeReport = { started: number; loaded: number; answered: number; cpuMs: number; answer: Answer };

function startOnce(
  file: string,
  event: unknown,
  env: Record<string, string>,
): Promise<ColdStart & { answer: Answer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', probe, pathToFileURL(file).href, JSON.stringify(event)],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    // Once both pipes are closed: what the function logged on stderr is all there. The probe's
    // report is its last line (a function may write lines of its own to stdout before it).
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || last === '') {
        reject(new Error(`cold-start probe exited with ${code}: ${stderr.trim()}`));
        return;
      }
      const report = JSON.parse(last) as ProbeReport;
      resolve({
        totalMs: report.answered,
        nodeStartMs: report.started,
        loadMs: report.loaded - report.started,
        firstAnswerMs: report.answered - report.loaded,
        cpuMs: report.cpuMs,
        answer: report.answer,
        stderr,
      });
    });
  });
}
