import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { build } from 'esbuild';
import { esbuildOptionsFor } from '../../infra/cdk/bundling';
import type { SeedOutput } from '../../lib/admin/seed';
import { encodeDecision, type AuthDecision } from '../../lib/auth/context';
import type { DeliveryMessage } from '../../lib/domain/events/ports';
import { newProspect } from '../../lib/domain/lead/ingest-lead';
import { derivedTimeOrderedId } from '../../lib/ids';
import { authorizerEntry, eventFunctions, routes } from '../../lib/routes';
import { items } from '../../lib/storage/table-items';
import { authorizedEvent, localStage, matchRoute, proxyEvent, requestAuthorizerEvent } from '../local/api-gateway';
import { sqsRecord } from '../local/event-pipeline';
import { median, operations, prepare } from './operations';
import { fresh, newLeadBody, webhookCall, type Call, type Send, type Workspace } from './workspace';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
export const referenceName = 'reference';

export type Bundle = {
  /** A route id, an event function's id, `authorizer` or `reference`. */
  name: string;
  file: string;
  bytes: number;
  /** Bytes of the output by origin. */
  parts: { zod: number; sdk: number; app: number; other: number };
};

/**
 * Section 1: every function of the stack and the reference, bundled as RouteFunction deploys them: the
 * routes, the authorizer, and the outbound-event functions (infra/cdk/constructs/outbound-events.ts).
 */
export async function buildBundles(outDir: string): Promise<Bundle[]> {
  const targets = [
    ...[...routes, ...eventFunctions].map(({ id, entry }) => ({ name: id, entry })),
    { name: 'authorizer', entry: authorizerEntry },
    { name: referenceName, entry: 'tools/bench/reference-function.ts' },
  ];
  const bundles: Bundle[] = [];
  for (const { name, entry } of targets) {
    const file = path.join(outDir, name, 'index.mjs');
    await mkdir(path.dirname(file), { recursive: true });
    const result = await build({
      ...esbuildOptionsFor(path.join(projectRoot, entry), file),
      absWorkingDir: projectRoot,
      metafile: true,
      logLevel: 'warning',
    });
    const parts = { zod: 0, sdk: 0, app: 0, other: 0 };
    for (const output of Object.values(result.metafile.outputs)) {
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) parts[origin(input)] += bytesInOutput;
    }
    bundles.push({ name, file, bytes: (await stat(file)).size, parts });
  }
  return bundles;
}

export function origin(input: string): keyof Bundle['parts'] {
  const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
  if (name === undefined) return 'app';
  if (name === 'zod') return 'zod';
  return /^@(aws-sdk|smithy|aws-crypto)\//.test(name) ? 'sdk' : 'other';
}

/**
 * One cold start, from the process's start to the first answer: Node's own start, the module load, the
 * first answer, and the CPU time the process used (which other jobs on the machine inflate less).
 */
export type ColdStart = { totalMs: number; nodeStartMs: number; loadMs: number; firstAnswerMs: number; cpuMs: number };

/**
 * What the probe reports of a first answer: a route's status, the authorizer's outcome, how many
 * records an event function's partial batch response names as failed, how many due deliveries the sweep found.
 */
type Answer = { statusCode?: number; outcome?: string; batchItemFailures?: number; swept?: number };

/**
 * A first answer that did the work: a 2xx, the authorizer's allowing decision, a batch with no failed
 * record, or a sweep that read the due deliveries. A refused call would time the wrong code path.
 */
export const succeeded = (answer: Answer) =>
  answer.outcome === 'allowed' ||
  answer.batchItemFailures === 0 ||
  answer.swept !== undefined ||
  (answer.statusCode !== undefined && answer.statusCode >= 200 && answer.statusCode < 300);

/**
 * An event function that skips a record (an unreadable message is dropped) still answers a batch without
 * failures, but logs a JSON line at level ERROR on stderr (lib/observability.ts): it did not do the
 * work it was timed for. Routes are judged on their answer alone.
 */
export const skippedWork = (answer: Answer, stderr: string) =>
  answer.batchItemFailures !== undefined && stderr.includes('"level":"ERROR"');

/**
 * What a Lambda runtime does for a fresh instance, in a fresh Node process: import the bundle (its module
 * scope builds the client and the handler), then hand it its first event. Times are taken inside the
 * process from its time origin, as Lambda reports an init duration from the runtime's start: spawning it
 * is not counted. Its report is its last line on stdout (a function may write lines of its own before).
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
const times = { totalMs: answered, nodeStartMs: started, loadMs: loaded - started, firstAnswerMs: answered - loaded, cpuMs: (cpu.user + cpu.system) / 1000 };
process.stdout.write(JSON.stringify({ times, answer }) + '\\n');
process.exit(0);
`;

export const coldStartRuns = 15;

/**
 * `coldStartRuns` cold starts of each bundle (their medians), after a first round, not counted, that brings
 * the bundles into the page cache and DynamoDB Local's JVM up to speed (a Lambda cold start reads its code
 * from a warm cache and meets a warm DynamoDB); interleaved (one of each, then again) so that a slow moment
 * of the machine does not fall on one function only. Events are numbered from 0.
 */
export async function measureColdStarts(
  bundles: readonly Bundle[],
  events: ReadonlyMap<string, (run: number) => unknown>,
  env: Record<string, string>,
): Promise<(Bundle & { coldStart: ColdStart })[]> {
  const measures = new Map<string, ColdStart[]>(bundles.map((bundle) => [bundle.name, []]));
  for (let run = 0; run <= coldStartRuns; run += 1) {
    for (const { name, file } of bundles) {
      const event = events.get(name)?.(run);
      const args = ['--input-type=module', '-e', probe, pathToFileURL(file).href, JSON.stringify(event)];
      const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { env });
      const { times, answer } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as {
        times: ColdStart;
        answer: Answer;
      };
      if (event === undefined || !succeeded(answer) || skippedWork(answer, stderr)) {
        throw new Error(`${name}: unexpected first answer ${JSON.stringify(answer)} ${stderr.trim()}`.trim());
      }
      if (run > 0) measures.get(name)?.push(times);
    }
  }
  return bundles.map((bundle) => {
    const runs = measures.get(bundle.name) ?? [];
    const fields = ['totalMs', 'nodeStartMs', 'loadMs', 'firstAnswerMs', 'cpuMs'] as const;
    const coldStart = Object.fromEntries(fields.map((field) => [field, median(runs.map((times) => times[field]))]));
    return { ...bundle, coldStart: coldStart as ColdStart };
  });
}

/** The proxy event API Gateway builds for a call, as the local server builds it (tools/local/api-gateway.ts). */
function gatewayEvent({ method, path: target, headers, body }: Call) {
  const match = matchRoute(routes, method, target.split('?')[0] ?? '');
  if (match === undefined) throw new Error(`no route for ${method} ${target}`);
  const rawHeaders = Object.entries({ 'Content-Type': 'application/json', ...headers }).flat();
  const incoming = { method, target, rawHeaders, sourceIp: '127.0.0.1', httpVersion: '1.1' };
  const ids = { requestId: randomUUID(), extendedRequestId: randomUUID(), now: new Date() };
  return proxyEvent({ ...incoming, body: body === undefined ? '' : JSON.stringify(body) }, match, ids);
}

/** What the authorizer decides for a call of the workspace: its webhook, or the API key it carries. */
function allowed(seed: SeedOutput, call: Call): AuthDecision {
  const workspaceId = seed.workspace_id;
  const endpointId = seed.webhook?.endpoint_id ?? '';
  if (call.path.startsWith('/webhooks/'))
    return { outcome: 'allowed', principal: { kind: 'webhook', workspaceId, endpointId } };
  const secret = call.headers.authorization?.replace(/^Bearer /, '');
  const keyId = Object.values(seed.api_keys).find((key) => key.secret === secret)?.id ?? '';
  return { outcome: 'allowed', principal: { kind: 'api-key', workspaceId, keyId, scopes: ['*'] } };
}

/**
 * The first event of every function's cold start number `run`, each doing the function's real work,
 * never a no-op (the delivery function's is the exception told at `unknownDeliveryBatch`): a route's
 * is the call of the first operation of section 2 that measures it (a new lead, a new candidate, a
 * stage change, a tag the prospect lacks…, with keys of its own), as its handler receives it once the
 * authorizer allowed it; the authorizer's, the lead webhook's (endpoint read, then the last call recorded).
 */
export async function coldStartEvents(
  workspace: Workspace,
  send: Send,
): Promise<Map<string, (run: number) => unknown>> {
  const { seed } = workspace;
  const events = new Map<string, (run: number) => unknown>();
  for (const operation of operations) {
    if (events.has(operation.routeId)) continue;
    const callOf = await prepare(operation, workspace, send);
    events.set(operation.routeId, (run) => {
      const call = callOf(run);
      return authorizedEvent(gatewayEvent(call), { ...encodeDecision(allowed(seed, call)), principalId: 'bench' });
    });
  }
  events.set('authorizer', () =>
    requestAuthorizerEvent(gatewayEvent(webhookCall(seed, 'ingest-lead', newLeadBody(fresh(), undefined)))),
  );
  events.set('streamHandler', (run) => prospectCreatedBatch(seed, run));
  events.set('deliverEvent', (run) => unknownDeliveryBatch(seed, run));
  // A scheduled event carries nothing the sweep reads: it queries the due deliveries of every
  // shard (none in the bench's table) and answers how many it found.
  events.set('sweepDeliveries', () => ({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} }));
  events.set(referenceName, () => ({}));
  return events;
}

/**
 * The delivery queue the event functions are configured with (`DELIVERY_QUEUE_URL`, read on import).
 * Nothing is sent to it in a cold start: the stream handler queues nothing for a workspace without
 * subscription, and the delivery function nothing for a delivery it drops.
 */
export const benchDeliveryQueueUrl = `https://sqs.${localStage.region}.amazonaws.com/${localStage.accountId}/crm-bench-deliveries`;

/**
 * Run `run`'s stream batch: one INSERT of a new prospect of the workspace (a lead from the lead
 * webhook, tagged, in the default pipeline), as Lambda hands a stream record over ("Using AWS Lambda
 * with Amazon DynamoDB", https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html): the image as
 * marshalled JSON, the time in seconds. A new prospect id each run, so that no run replays another's
 * record. The bench workspace has no subscription: the handler reads the workspace's configuration
 * partition (one Query), finds no one to deliver to, and answers without a write.
 */
export function prospectCreatedBatch(seed: SeedOutput, run: number): DynamoDBStreamEvent {
  const at = new Date();
  const [vip, sales, email] = [seed.tags.vip ?? '', seed.pipelines.sales, `flux-${run}@banc.test`];
  const lead = {
    first_name: 'Flora',
    last_name: `Flux ${run}`,
    email,
    phone: `+339${String(run).padStart(8, '0')}`,
    source: 'Typeform - formulaire de contact',
    tag_ids: [vip],
  };
  const placement = { pipelineId: sales?.id ?? null, stageId: sales?.stages.Nouveau ?? null };
  const actor = { kind: 'webhook' as const, id: seed.webhook?.endpoint_id ?? null };
  const prospect = items.prospect(
    newProspect(randomUUID(), seed.workspace_id, lead, placement, [vip], actor, at.toISOString()),
  );
  const image = marshall(prospect);
  const { region, accountId } = localStage;
  const record = {
    eventID: randomUUID(),
    eventName: 'INSERT',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    eventSourceARN: `arn:aws:dynamodb:${region}:${accountId}:table/crm-bench/stream/bench`,
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(at.getTime() / 1000),
      Keys: marshall({ pk: prospect.pk, sk: prospect.sk }),
      NewImage: image,
      SequenceNumber: String(run + 1).padStart(21, '0'),
      SizeBytes: Buffer.byteLength(JSON.stringify(image)),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  } as DynamoDBRecord;
  return { Records: [record] };
}

/**
 * Run `run`'s queue batch: one delivery message, as the stream handler queues it (step 0, due now),
 * for a delivery that does not exist. The function reads the delivery with its subscription (one
 * BatchGetItem), finds none, and drops the message. A real attempt cannot be timed here: the
 * deployed bundle's policy (`productionEventDeps`: network 'aws') refuses plain http and loopback
 * addresses, so no receiver on this machine can take its POST (lib/outbound/address-policy.ts).
 */
export function unknownDeliveryBatch(seed: SeedOutput, run: number): SQSEvent {
  const now = new Date();
  const message: DeliveryMessage = {
    workspace_id: seed.workspace_id,
    delivery_id: derivedTimeOrderedId(now, `bench#delivery#${run}`),
    subscription_id: derivedTimeOrderedId(now, `bench#subscription#${run}`),
    step: 0,
    not_before: now.toISOString(),
  };
  return {
    Records: [
      sqsRecord({ messageId: randomUUID(), body: JSON.stringify(message), receives: 1, sentAt: now.getTime() }),
    ],
  };
}
