import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { build } from 'esbuild';
import { esbuildOptionsFor } from '../../infra/cdk/bundling';
import type { SeedOutput } from '../seed/seed';
import { encodeDecision, type AuthDecision } from '../../lib/auth/context';
import type { DeliveryMessage } from '../../lib/domain/events/ports';
import type { FollowUpDueMessage } from '../../lib/domain/follow-ups/ports';
import { newProspect } from '../../lib/domain/lead/ingest-lead';
import { derivedTimeOrderedId, items } from '../../lib/storage/table-items';
import { authorizerEntry, deployedRoutes as routes, eventFunctions } from '../../infra/cdk/route-grants';
import { authorizedEvent, localStage, matchRoute, proxyEvent, requestAuthorizerEvent } from '../local/api-gateway';
import { lambdaRecord, sqsRecord } from '../local/event-pipeline';
import { median, operations, prepare } from './operations';
import { expectedAnswers, settingsFirstCalls } from './settings';
import { fresh, newLeadBody, webhookCall, type Call, type Send, type Workspace } from './workspace';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
export const referenceName = 'reference';

/** A function's bundle (`name`: a route or event function id, `authorizer` or `reference`), its bytes by origin in `parts`. */
export type Bundle = { name: string; file: string; bytes: number; parts: Record<Origin, number> };
type Origin = 'zod' | 'sdk' | 'app' | 'other';

/** Section 1: every function of the stack (routes, authorizer, outbound-event functions) and the reference, bundled as deployed. */
export async function buildBundles(outDir: string): Promise<Bundle[]> {
  const targets = [
    ...[...routes, ...eventFunctions].map(({ id, entry }) => ({ name: id, entry })),
    { name: 'authorizer', entry: authorizerEntry },
    { name: referenceName, entry: 'tools/bench/reference-function.ts' },
  ];
  const bundles: Bundle[] = [];
  for (const { name, entry } of targets) {
    const file = path.join(outDir, name, 'index.mjs');
    const options = esbuildOptionsFor(path.join(projectRoot, entry), file);
    const result = await build({ ...options, absWorkingDir: projectRoot, metafile: true, logLevel: 'warning' });
    const parts = { zod: 0, sdk: 0, app: 0, other: 0 };
    const inputs = Object.values(result.metafile.outputs).flatMap((output) => Object.entries(output.inputs));
    for (const [input, { bytesInOutput }] of inputs) parts[origin(input)] += bytesInOutput;
    bundles.push({ name, file, bytes: (await stat(file)).size, parts });
  }
  return bundles;
}

export function origin(input: string): Origin {
  const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
  if (name === undefined) return 'app';
  if (name === 'zod') return 'zod';
  return /^@(aws-sdk|smithy|aws-crypto)\//.test(name) ? 'sdk' : 'other';
}

/** One cold start, process start to first answer, in parts, and the CPU time used (other jobs inflate it less). */
const coldStartTimes = ['totalMs', 'nodeStartMs', 'loadMs', 'firstAnswerMs', 'cpuMs'] as const;
export type ColdStart = Record<(typeof coldStartTimes)[number], number>;

/** Each function's first event of each cold start, by function name. */
type FirstEvents = Map<string, (run: number) => unknown>;

/**
 * A first answer: a route's status, the authorizer's outcome, an event batch's failed records, the sweep's due
 * deliveries, the field purge's prospects walked, the follow-up sweep's follow-ups queued, the erasures' jobs read.
 */
type Answer = {
  statusCode?: number;
  outcome?: string;
  batchItemFailures?: number;
  swept?: number;
  walked?: number;
  queued?: number;
  jobs?: number;
};
type ProbeReport = { times: ColdStart; answer: Answer };

/** A first answer that did the work (a refused call would time the wrong code path). */
export const succeeded = ({ outcome, batchItemFailures, swept, walked, queued, jobs, statusCode = 0 }: Answer) =>
  outcome === 'allowed' ||
  batchItemFailures === 0 ||
  swept !== undefined ||
  walked !== undefined ||
  queued !== undefined ||
  jobs !== undefined ||
  (statusCode >= 200 && statusCode < 300);

/** An event function that skipped a record answers no failure but logs at level ERROR (lib/observability.ts). */
export const skippedWork = (answer: Answer, stderr: string) =>
  answer.batchItemFailures !== undefined && stderr.includes('"level":"ERROR"');

/**
 * A Lambda runtime's work for a fresh instance, in a fresh Node process: import the bundle, hand it its first event.
 * Times run from the process's time origin (as Lambda's init duration, spawning not counted); the report is its last line.
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
const [answered, cpu] = [performance.now(), process.cpuUsage()];
const answer = { statusCode: result?.statusCode, outcome: result?.context?.outcome, batchItemFailures: result?.batchItemFailures?.length, swept: result?.due, walked: result?.prospects, queued: result?.queued, jobs: result?.jobs };
const times = { totalMs: answered, nodeStartMs: started, loadMs: loaded - started, firstAnswerMs: answered - loaded, cpuMs: (cpu.user + cpu.system) / 1000 };
process.stdout.write(JSON.stringify({ times, answer }) + '\\n');
process.exit(0);
`;

export const coldStartRuns = 15;

/** Section 1's medians; the uncounted first round warms the page cache and DynamoDB Local, as Lambda finds them. */
export async function measureColdStarts(bundles: readonly Bundle[], events: FirstEvents, env: Record<string, string>) {
  const measures = bundles.map((): ColdStart[] => []);
  for (let run = 0; run <= coldStartRuns; run += 1) {
    for (const [index, { name, file }] of bundles.entries()) {
      const event = events.get(name)?.(run);
      const args = ['--input-type=module', '-e', probe, pathToFileURL(file).href, JSON.stringify(event)];
      const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { env });
      const { times, answer } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ProbeReport;
      const expected = answer.statusCode !== undefined && answer.statusCode === expectedAnswers[name];
      if (event === undefined || !(succeeded(answer) || expected) || skippedWork(answer, stderr)) {
        throw new Error(`${name}: unexpected first answer ${JSON.stringify(answer)} ${stderr.trim()}`.trim());
      }
      if (run > 0) measures[index]?.push(times);
    }
  }
  return bundles.map((bundle, index) => {
    const medians = coldStartTimes.map((time) => [time, median(measures[index]?.map((times) => times[time]) ?? [])]);
    return { ...bundle, coldStart: Object.fromEntries(medians) as ColdStart };
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

/** A call of the workspace and what the authorizer decides for it: its webhook, or the API key it carries. */
function allowed(seed: SeedOutput, call: Call): { call: Call; decision: AuthDecision } {
  const [workspaceId, endpointId] = [seed.workspace_id, seed.webhook?.endpoint_id ?? ''];
  if (call.path.startsWith('/webhooks/'))
    return { call, decision: { outcome: 'allowed', principal: { kind: 'webhook', workspaceId, endpointId } } };
  const secret = call.headers.authorization?.replace(/^Bearer /, '');
  const keyId = Object.values(seed.api_keys).find((key) => key.secret === secret)?.id ?? '';
  return { call, decision: { outcome: 'allowed', principal: { kind: 'api-key', workspaceId, keyId, scopes: ['*'] } } };
}

/**
 * Each function's first event, doing its real work (but see `unknownDeliveryBatch`): a route's, the call of section
 * 2's first operation on it or of ./settings.ts, once authorized; the authorizer's, a lead webhook call.
 */
export async function coldStartEvents(workspace: Workspace, send: Send): Promise<FirstEvents> {
  const { seed } = workspace;
  const events: FirstEvents = new Map();
  for (const operation of operations) {
    if (events.has(operation.routeId)) continue;
    const callOf = await prepare(operation, workspace, send);
    events.set(operation.routeId, (run) => authorized(allowed(seed, callOf(run))));
  }
  for (const [id, first] of await settingsFirstEvents(send, coldStartRuns + 1)) events.set(id, first);
  events.set('authorizer', () =>
    requestAuthorizerEvent(gatewayEvent(webhookCall(seed, 'ingest-lead', newLeadBody(fresh(), undefined)))),
  );
  events.set('streamHandler', (run) => prospectCreatedBatch(seed, run));
  events.set('deliverEvent', (run) => unknownDeliveryBatch(seed, run));
  // The sweep reads nothing of its scheduled event: it queries every shard's due deliveries (none here).
  events.set('sweepDeliveries', () => ({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} }));
  // The purge neither: it queries the workspaces with a deleted field to purge (none here).
  events.set('purgeDeletedFields', () => ({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} }));
  // The follow-up sweep neither: it reads its clock, queries every shard's waiting follow-ups, moves its clock.
  events.set('sweepFollowUps', () => ({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} }));
  events.set('sendFollowUpDue', (run) => unknownFollowUpBatch(seed, run));
  // The erasures' background neither: it queries the erasures under way (those the settings calls made, or none).
  events.set('eraseRecords', () => ({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} }));
  events.set(referenceName, () => ({}));
  return events;
}

/** A call's event once the authorizer took `decision` on it. */
const authorized = ({ call, decision }: { call: Call; decision: AuthDecision }) =>
  authorizedEvent(gatewayEvent(call), { ...encodeDecision(decision), principalId: 'bench' });

/** The settings routes' first events of `runs` cold starts, by route id: their calls of ./settings.ts, authorized. */
export async function settingsFirstEvents(send: Send, runs: number): Promise<FirstEvents> {
  const calls = Object.entries(await settingsFirstCalls(send, runs));
  return new Map(calls.map(([id, first]) => [id, (run: number) => authorized(first(run))]));
}

/** The event functions' `DELIVERY_QUEUE_URL` (read on import); no cold start sends to it. */
export const benchDeliveryQueueUrl = `https://sqs.${localStage.region}.amazonaws.com/${localStage.accountId}/crm-bench-deliveries`;
/** The export routes' `EXPORT_BUCKET_NAME` (read on import): a bench export is answered whole, never kept. */
export const benchExportBucketName = 'crm-bench-exports';
/** Their `FOLLOW_UP_QUEUE_URL`, the same way. */
export const benchFollowUpQueueUrl = `https://sqs.${localStage.region}.amazonaws.com/${localStage.accountId}/crm-bench-follow-ups`;

/**
 * Run `run`'s stream batch: the INSERT of a new prospect, as Lambda hands a stream record over ("Using AWS Lambda with
 * Amazon DynamoDB", https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html): marshalled image, time in seconds.
 * Without subscription, the handler reads the configuration (one Query) and answers without a write.
 */
export function prospectCreatedBatch(seed: SeedOutput, run: number): DynamoDBStreamEvent {
  const [at, vip = '', sales] = [new Date(), seed.tags.vip, seed.pipelines.sales];
  const lead = { first_name: 'Flora', last_name: `Flux ${run}`, email: `flux-${run}@banc.test`, tag_ids: [vip] };
  const contact = { phone: `+339${String(run).padStart(8, '0')}`, source: 'Typeform - formulaire de contact' };
  const placement = { pipelineId: sales?.id ?? null, stageId: sales?.stages.Nouveau ?? null };
  const actor = { kind: 'webhook' as const, id: seed.webhook?.endpoint_id ?? null };
  const prospect = items.prospect(
    newProspect(randomUUID(), seed.workspace_id, { ...lead, ...contact }, placement, [vip], actor, at.toISOString()),
  );
  const image = marshall(prospect);
  const dynamodb = {
    ApproximateCreationDateTime: new Date(Math.floor(at.getTime() / 1000) * 1000),
    Keys: marshall({ pk: prospect.pk, sk: prospect.sk }),
    NewImage: image,
    SequenceNumber: String(run + 1).padStart(21, '0'),
    SizeBytes: Buffer.byteLength(JSON.stringify(image)),
    StreamViewType: 'NEW_AND_OLD_IMAGES' as const,
  };
  const streamArn = `arn:aws:dynamodb:${localStage.region}:${localStage.accountId}:table/crm-bench/stream/bench`;
  return { Records: [lambdaRecord({ eventID: randomUUID(), eventName: 'INSERT', dynamodb }, streamArn)] };
}

/**
 * Run `run`'s queue batch: a delivery message for a delivery that does not exist (one BatchGetItem, dropped). A real
 * attempt cannot be timed: the deployed bundle refuses http and loopback addresses (lib/outbound/address-policy.ts).
 */
/**
 * Run `run`'s follow-up batch: a follow-up of a prospect that does not exist, whose time has come (one transaction,
 * refused: nothing sent).
 */
export function unknownFollowUpBatch(seed: SeedOutput, run: number): SQSEvent {
  const now = new Date();
  const message: FollowUpDueMessage = {
    workspace_id: seed.workspace_id,
    prospect_id: derivedTimeOrderedId(now, `bench#prospect#${run}`),
    follow_up_at: new Date(now.getTime() - 1000).toISOString(),
  };
  const body = JSON.stringify(message);
  return { Records: [sqsRecord({ messageId: randomUUID(), body, receives: 1, sentAt: now.getTime() })] };
}

export function unknownDeliveryBatch(seed: SeedOutput, run: number): SQSEvent {
  const now = new Date();
  const id = (kind: string) => derivedTimeOrderedId(now, `bench#${kind}#${run}`);
  const ids = { workspace_id: seed.workspace_id, delivery_id: id('delivery'), subscription_id: id('subscription') };
  const message: DeliveryMessage = { ...ids, step: 0, not_before: now.toISOString() };
  const body = JSON.stringify(message);
  return { Records: [sqsRecord({ messageId: randomUUID(), body, receives: 1, sentAt: now.getTime() })] };
}
