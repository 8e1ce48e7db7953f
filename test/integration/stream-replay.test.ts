import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type * as DeliverEvent from '../../functions/events/deliver-event';
import type * as StreamHandler from '../../functions/events/stream-handler';
import { replayKeptBatches } from '../../tools/admin/use-cases/stream-replay';
import { createSubscription } from '../../lib/settings/subscriptions';
import { createDynamoClient, loadSecretsTableName, productionDeps } from '../../lib/storage/client';
import { ensureTable } from '../../tools/local/create-table';
import type { DeliveryDeps, DeliveryMessage } from '../../lib/domain/events/ports';
import type { StreamDeps } from '../../lib/domain/events/fan-out';
import { recordingFollowUpQueue } from '../support/follow-up-queue';
import { changeStreamSettings } from '../../lib/domain/events/queue-settings';
import { createHttpSender } from '../../lib/outbound/http-sender';
import type { DeliveryItem } from '../../lib/storage/event-items';
import { keptBatchesInBucket } from '../../tools/admin/kept-stream-batches';
import { keys } from '../../lib/storage/table-items';
import { configItems } from '../../lib/storage/workspace-config';
import { runAdminInProcess } from '../support/admin-cli';
import { captureLogs } from '../support/captured-logs';
import { fakeBucket } from '../support/fake-s3';
import { aKeptBatchKey, aKeptInvocationRecord } from '../support/kept-batches';
import { aProspectItem } from '../support/prospect-items';
import { aLocalReceiver, anSqsEvent, aStreamEvent, aStreamRecord } from '../support/recorded-events';
import { setTestQueueUrls } from '../support/queue-urls';

/**
 * No event silently lost: a stream batch the mapping gives up is kept whole in
 * its S3 on-failure destination, as Lambda writes it (the fixture follows the AWS page), and
 * `stream replay` fans it out again through the stream handler's own code: delivered once, and a
 * second replay puts nothing.
 */

type Queued = { message: DeliveryMessage; delaySeconds: number };

/**
 * A table of its own: the tests that run `npm start`'s event pipeline read the shared table's stream, and would
 * deliver this test's event behind its back (its fan-out must find the delivery never sent).
 */
const base = { ...productionDeps(), tableName: `crm-test-replay-${randomUUID()}` };
const put = (item: object) =>
  base.db.send(new PutCommand({ TableName: base.tableName, Item: item as Record<string, unknown> }));

/** The delivery queue, keeping what it is sent; `failing` makes a send throw (fault injection). */
function aQueue() {
  const queue = {
    sent: [] as Queued[],
    failing: false,
    send: async (messages: readonly Queued[]) => {
      if (queue.failing) throw new Error('File indisponible (simulée)');
      queue.sent.push(...messages);
    },
  };
  return queue;
}

const depsWith = (queue: ReturnType<typeof aQueue>): StreamDeps => ({
  ...base,
  queue,
  send: createHttpSender('local'),
  network: 'local',
  followUpQueue: recordingFollowUpQueue(),
});
/** The delivery function's, as deployed: the stream handler's and the signing-secrets table. */
const secretsTableName = loadSecretsTableName();
const deliveryDepsWith = (queue: ReturnType<typeof aQueue>): DeliveryDeps => ({ ...depsWith(queue), secretsTableName });

let receiver: Awaited<ReturnType<typeof aLocalReceiver>>;
let createStreamHandler: typeof StreamHandler.createHandler;
let createDeliveryHandler: typeof DeliverEvent.createHandler;

beforeAll(async () => {
  const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  await ensureTable(client, base.tableName);
  client.destroy();
  // The modules build their production dependencies on import, which need the queue's URL.
  setTestQueueUrls();
  ({ createHandler: createStreamHandler } = await import('../../functions/events/stream-handler'));
  ({ createHandler: createDeliveryHandler } = await import('../../functions/events/deliver-event'));
  receiver = await aLocalReceiver({ '/accepts': 204 });
});
afterAll(async () => {
  await receiver.close();
});

/** A workspace with one subscription to `prospect.created` on the receiver, and a new prospect's INSERT. */
async function aWorkspaceWithANewProspect(): Promise<{ workspaceId: string; event: DynamoDBStreamEvent }> {
  const workspaceId = randomUUID();
  await put(
    configItems.workspace(
      { id: workspaceId, name: 'Espace', created_at: new Date().toISOString() },
      { members: [], tags: [], salesPipelines: [], recruitmentPipelines: [], fields: [] },
    ),
  );
  await createSubscription(
    { ...base, secretsTableName },
    {
      workspaceId,
      url: receiver.url('/accepts'),
      events: 'prospect.created',
      network: 'local',
    },
  );

  const prospect = aProspectItem(workspaceId, { first_name: 'Perdue' });
  await put(prospect);
  return { workspaceId, event: aStreamEvent([aStreamRecord({ after: prospect })]) };
}

async function deliveriesOf(workspaceId: string): Promise<DeliveryItem[]> {
  const { Items = [] } = await base.db.send(
    new QueryCommand({
      TableName: base.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.deliveriesPk(workspaceId) },
      ConsistentRead: true,
    }),
  );
  return Items as DeliveryItem[];
}

/** The stream handler's answer to `event`, every attempt the mapping makes, with a queue that refuses every send. */
async function aFanOutThatKeepsFailing(event: DynamoDBStreamEvent): Promise<void> {
  const queue = aQueue();
  queue.failing = true;
  const handler = createStreamHandler(depsWith(queue));
  const logs = captureLogs('ERROR');
  for (let attempt = 0; attempt <= changeStreamSettings.maxRetryAttempts; attempt += 1) {
    expect(await handler(event)).toEqual({
      batchItemFailures: [{ itemIdentifier: event.Records[0]?.dynamodb?.SequenceNumber }],
    });
  }
  logs.restore();
}

const postsFor = (deliveries: readonly DeliveryItem[]) =>
  receiver.received.filter((post) => deliveries.some((delivery) => delivery.event_id === post.headers['webhook-id']));

describe('a stream batch given up, kept, replayed', () => {
  test('a fan-out that keeps failing → kept → replayed → delivered once; a second replay puts nothing', async () => {
    const { workspaceId, event } = await aWorkspaceWithANewProspect();
    await aFanOutThatKeepsFailing(event);
    const [pending, ...others] = await deliveriesOf(workspaceId);
    expect(others).toEqual([]);
    // The put went through before each send failed: a delivery no message will ever ask for.
    expect(pending).toMatchObject({ status: 'pending', attempts: 0, step: 0 });
    const kept = aKeptInvocationRecord(event);

    const queue = aQueue();
    const report = await replayKeptBatches(depsWith(queue), [{ source: 'lot-garde.json', read: async () => kept }]);

    expect(report).toEqual({
      batches: [
        {
          source: 'lot-garde.json',
          outcome: 'replayed',
          condition: 'RetryAttemptsExhausted',
          records: 1,
          queued: 1,
          removed: false,
          error: null,
        },
      ],
      replayed: 1,
      failed: 0,
    });
    expect(queue.sent.map(({ message }) => message)).toEqual([
      {
        workspace_id: workspaceId,
        delivery_id: pending?.id,
        subscription_id: pending?.subscription_id,
        step: 0,
        not_before: pending?.created_at,
      },
    ]);
    const deliver = createDeliveryHandler(deliveryDepsWith(aQueue()));
    const messages = queue.sent.map(({ message }) => message);
    expect(await deliver(anSqsEvent(messages))).toEqual({ batchItemFailures: [] });
    // The same message twice more (SQS delivers at least once): the claim drops both.
    expect(await deliver(anSqsEvent([...messages, ...messages]))).toEqual({ batchItemFailures: [] });

    const [delivered] = await deliveriesOf(workspaceId);
    expect(delivered).toMatchObject({ id: pending?.id, status: 'delivered', attempts: 1 });
    expect(postsFor([pending!])).toHaveLength(1);
    expect(JSON.parse(postsFor([pending!])[0]?.body ?? '{}')).toMatchObject({
      type: 'prospect.created',
      data: { prospect: { first_name: 'Perdue' } },
    });

    const again = aQueue();
    const second = await replayKeptBatches(depsWith(again), [{ source: 'lot-garde.json', read: async () => kept }]);
    expect(second.batches[0]).toMatchObject({ outcome: 'replayed', records: 1, queued: 0 });
    expect(again.sent).toEqual([]);
    expect(await deliveriesOf(workspaceId)).toEqual([delivered]);
    expect(postsFor([pending!])).toHaveLength(1);
  });

  test('a batch given up before its deliveries were put (its records too old) is fanned out in full by the replay', async () => {
    const { workspaceId, event } = await aWorkspaceWithANewProspect();
    const queue = aQueue();

    const report = await replayKeptBatches(depsWith(queue), [
      { source: 'lot.json', read: async () => aKeptInvocationRecord(event, { condition: 'RecordAgeExceeded' }) },
    ]);

    expect(report.batches[0]).toMatchObject({ outcome: 'replayed', condition: 'RecordAgeExceeded', queued: 1 });
    const [created] = await deliveriesOf(workspaceId);
    expect(created).toMatchObject({ status: 'pending', attempts: 0, event_type: 'prospect.created' });
    expect(
      await createDeliveryHandler(deliveryDepsWith(aQueue()))(anSqsEvent(queue.sent.map((q) => q.message))),
    ).toEqual({
      batchItemFailures: [],
    });
    expect(postsFor([created!])).toHaveLength(1);
  });

  test('in a bucket: each replayed batch is removed, a batch whose fan-out fails and an unreadable one stay', async () => {
    const first = await aWorkspaceWithANewProspect();
    const second = await aWorkspaceWithANewProspect();
    const now = new Date();
    const replayable = aKeptBatchKey(now);
    const failing = aKeptBatchKey(new Date(now.getTime() + 1000));
    const unreadable = aKeptBatchKey(new Date(now.getTime() + 2000));
    const bucket = fakeBucket(
      'crm-kept-batches',
      {
        [replayable]: aKeptInvocationRecord(first.event),
        [failing]: aKeptInvocationRecord(second.event),
        [unreadable]: JSON.stringify({ requestContext: { condition: 'RetryAttemptsExhausted' }, version: '1.0' }),
        'autre/chose': 'pas un lot gardé par Lambda',
      },
      1,
    );
    const queue = aQueue();
    const failOnSecond = {
      ...queue,
      send: async (messages: readonly Queued[]) => {
        if (messages.some(({ message }) => message.workspace_id === second.workspaceId))
          throw new Error('File en panne');
        await queue.send(messages);
      },
    };
    const logs = captureLogs('ERROR');

    const report = await replayKeptBatches(
      { ...depsWith(queue), queue: failOnSecond },
      keptBatchesInBucket(bucket.client, 'crm-kept-batches'),
    );
    logs.restore();

    expect(report.batches.map(({ source, outcome, removed }) => [source, outcome, removed])).toEqual([
      [`s3://crm-kept-batches/${replayable}`, 'replayed', true],
      [`s3://crm-kept-batches/${failing}`, 'failed', false],
      [`s3://crm-kept-batches/${unreadable}`, 'unreadable', false],
    ]);
    expect(report.batches[1]?.error).toMatch(/^Diffusion en échec à partir de l'enregistrement \d+/);
    expect(report.batches[2]?.error).toBe(
      "Lot conservé illisible : l'enregistrement d'invocation n'a pas les champs attendus (timestamp, DDBStreamBatchInfo, payload).",
    );
    expect({ replayed: report.replayed, failed: report.failed }).toEqual({ replayed: 1, failed: 2 });
    expect([...bucket.objects.keys()].sort()).toEqual([failing, unreadable, 'autre/chose'].sort());
    // One key a page: the listing went on page by page, and only under Lambda's prefix.
    expect(bucket.requests.filter((request) => request.includes('list-type=2'))).toHaveLength(3);
    expect(
      bucket.requests
        .filter((request) => request.includes('list-type=2'))
        .every((r) => r.includes('prefix=aws%2Flambda%2F')),
    ).toBe(true);
    expect(bucket.requests.filter((request) => request.startsWith('DELETE'))).toEqual([`DELETE ${replayable}`]);
  });
});

describe('admin stream replay', () => {
  test('--file: replays one kept invocation record, prints the report with --json; locally the delivery waits for the sweep', async () => {
    const { workspaceId, event } = await aWorkspaceWithANewProspect();
    const path = join(await mkdtemp(join(tmpdir(), 'crm-kept-')), 'lot.json');
    await writeFile(path, aKeptInvocationRecord(event));

    const run = await runAdminInProcess(base, 'stream', 'replay', '--file', path, '--json');

    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      batches: [
        {
          source: path,
          outcome: 'replayed',
          condition: 'RetryAttemptsExhausted',
          records: 1,
          queued: 1,
          removed: false,
          error: null,
        },
      ],
      replayed: 1,
      failed: 0,
    });
    expect(await deliveriesOf(workspaceId)).toEqual([
      expect.objectContaining({ status: 'pending', attempts: 0, gsi4pk: expect.stringMatching(/^PENDING#[0-9a-f]$/) }),
    ]);
  });

  test.each([
    [[], "Indiquez --file <enregistrement d'invocation gardé>, ou --aws"],
    [['--aws'], 'la variable STREAM_FAILURE_BUCKET'],
    [['--file', '/nulle/part/lot.json'], 'Fichier illisible : « /nulle/part/lot.json »'],
  ])('%j: exit 2, the French reason on stderr, nothing on stdout', async (options, reason) => {
    const run = await runAdminInProcess(base, 'stream', 'replay', ...options);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(reason);
  });
});
