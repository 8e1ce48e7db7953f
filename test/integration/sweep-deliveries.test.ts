import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type * as DeliverEvent from '../../functions/events/deliver-event';
import type * as StreamHandler from '../../functions/events/stream-handler';
import type * as SweepDeliveries from '../../functions/events/sweep-deliveries';
import { createSubscription } from '../../lib/settings/subscriptions';
import { createDynamoClient, loadSecretsTableName, productionDeps, type Deps } from '../../lib/storage/client';
import type { DeliveryDeps, DeliveryMessage } from '../../lib/domain/events/ports';
import type { StreamDeps } from '../../lib/domain/events/fan-out';
import { recordingFollowUpQueue } from '../support/follow-up-queue';
import { sweepSettings } from '../../lib/domain/events/queue-settings';
import { retryDelaysSeconds } from '../../lib/domain/events/retry-schedule';
import { createHttpSender } from '../../lib/outbound/http-sender';
import { ensureTable } from '../../tools/local/create-table';
import { eventItems, type DeliveryItem } from '../../lib/storage/event-items';
import { keys } from '../../lib/storage/table-items';
import { configItems } from '../../lib/storage/workspace-config';
import { captureLogs } from '../support/captured-logs';
import { aProspectItem } from '../support/prospect-items';
import { aLocalReceiver, anSqsEvent, aStreamEvent, aStreamRecord } from '../support/recorded-events';
import { recordingMetrics } from '../support/recording-metrics';
import { setTestQueueUrls } from '../support/queue-urls';

/**
 * The sweep of pending deliveries, so that no event is silently lost: a delivery whose queue message was never
 * sent stays pending; once its next attempt is `overdueAfterSeconds` past, the sweep queues it
 * again, and the delivery function delivers it once. On a table of its own: the sweep reads every
 * workspace's pending deliveries (index gsi4), and must see only this file's.
 */

type Queued = { message: DeliveryMessage; delaySeconds: number };

const tableName = `crm-test-sweep-${randomUUID()}`;
const metrics = recordingMetrics();
let deps: Deps;
/** Where `subscription create` puts the secrets, and the delivery function reads them. */
const secretsTableName = loadSecretsTableName();
let receiver: Awaited<ReturnType<typeof aLocalReceiver>>;
let createStreamHandler: typeof StreamHandler.createHandler;
let createDeliveryHandler: typeof DeliverEvent.createHandler;
let createSweepHandler: typeof SweepDeliveries.createHandler;

beforeAll(async () => {
  const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  await ensureTable(client, tableName);
  client.destroy();
  deps = { ...productionDeps(), tableName, metrics };
  // The modules build their production dependencies on import, which need the queue's URL.
  setTestQueueUrls();
  ({ createHandler: createStreamHandler } = await import('../../functions/events/stream-handler'));
  ({ createHandler: createDeliveryHandler } = await import('../../functions/events/deliver-event'));
  ({ createHandler: createSweepHandler } = await import('../../functions/events/sweep-deliveries'));
  receiver = await aLocalReceiver({ '/accepts': 204, '/refuses': 503 });
});
afterAll(async () => {
  await receiver.close();
  await deps.db.send(new DeleteTableCommand({ TableName: tableName }));
  deps.db.destroy();
});

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

const eventDeps = (queue: ReturnType<typeof aQueue>, at: () => Date = () => new Date()): StreamDeps => ({
  ...deps,
  clock: at,
  queue,
  send: createHttpSender('local'),
  network: 'local',
  followUpQueue: recordingFollowUpQueue(),
});
/** The delivery function's, as deployed: the others' and the signing-secrets table. */
const deliveryDeps = (queue: ReturnType<typeof aQueue>): DeliveryDeps => ({ ...eventDeps(queue), secretsTableName });

const put = (item: object) =>
  deps.db.send(new PutCommand({ TableName: deps.tableName, Item: item as Record<string, unknown> }));
const stored = async (delivery: Pick<DeliveryItem, 'workspace_id' | 'id'>) =>
  (
    await deps.db.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.delivery(delivery.workspace_id, delivery.id),
        ConsistentRead: true,
      }),
    )
  ).Item as DeliveryItem;

async function aWorkspace(path = '/accepts') {
  const workspaceId = randomUUID();
  await put(
    configItems.workspace(
      { id: workspaceId, name: 'Balayage', created_at: new Date().toISOString() },
      { members: [], tags: [], salesPipelines: [], recruitmentPipelines: [], fields: [] },
    ),
  );
  const subscription = await createSubscription(
    { ...deps, secretsTableName },
    {
      workspaceId,
      url: receiver.url(path),
      events: 'prospect.created',
      network: 'local',
    },
  );
  return { workspaceId, subscription };
}

/**
 * A prospect written `minutesAgo`, fanned out by the stream handler while the queue refuses every
 * send: its delivery is put, and no message for it is ever sent.
 */
async function aDeliveryWhoseSendFailed(workspaceId: string, minutesAgo: number): Promise<DeliveryItem> {
  const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const prospect = aProspectItem(workspaceId, { created_at: at, updated_at: at });
  await put(prospect);
  const queue = aQueue();
  queue.failing = true;
  const answer = await createStreamHandler(eventDeps(queue))(aStreamEvent([aStreamRecord({ after: prospect })]));
  expect(answer.batchItemFailures).toHaveLength(1);
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.deliveriesPk(workspaceId) },
      ConsistentRead: true,
    }),
  );
  const mine = (Items as DeliveryItem[]).filter((delivery) => delivery.created_at === at);
  expect(mine).toHaveLength(1);
  return mine[0]!;
}

const postsOf = (delivery: DeliveryItem) =>
  receiver.received.filter((post) => post.headers['webhook-id'] === delivery.event_id);

const sweep = (queue: ReturnType<typeof aQueue>, at?: () => Date) => createSweepHandler(eventDeps(queue, at))({});

describe('the sweep of pending deliveries', () => {
  test('a delivery whose send failed is queued again by the sweep and delivered once; a fresh one is left alone', async () => {
    const { workspaceId } = await aWorkspace();
    const lost = await aDeliveryWhoseSendFailed(workspaceId, 60);
    const fresh = await aDeliveryWhoseSendFailed(workspaceId, sweepSettings.overdueAfterSeconds / 60 - 1);
    expect(lost).toMatchObject({ status: 'pending', attempts: 0, gsi4pk: keys.pendingDeliveries(lost.id) });
    metrics.clear();

    const queue = aQueue();
    const before = Date.now();
    const logs = captureLogs('WARN');
    expect(await sweep(queue)).toEqual({ due: 1, requeued: 1, more: false });
    logs.restore();
    expect(logs.lines().filter((line) => line.message === 'Livraison remise en file par le balayage')).toEqual([
      expect.objectContaining({
        level: 'WARN',
        event: 'delivery_requeued',
        workspace_id: workspaceId,
        subscription_id: lost.subscription_id,
        delivery_id: lost.id,
        step: 0,
      }),
    ]);
    expect(logs.raw().join('\n')).not.toContain('prospect.created');

    expect(queue.sent).toHaveLength(1);
    const [{ message, delaySeconds }] = queue.sent as [Queued];
    expect(message).toMatchObject({
      workspace_id: workspaceId,
      delivery_id: lost.id,
      subscription_id: lost.subscription_id,
      step: 0,
    });
    expect(Date.parse(message.not_before)).toBeGreaterThanOrEqual(before);
    expect(delaySeconds).toBe(0);
    expect(metrics.total('DeliveriesRequeued')).toBe(1);
    // Marked: its next attempt is now, so it is not due again before one more grace has passed.
    expect(await stored(lost)).toMatchObject({ status: 'pending', next_attempt_at: message.not_before });
    expect(await sweep(aQueue())).toEqual({ due: 0, requeued: 0, more: false });
    expect(await stored(fresh)).toEqual(fresh);

    const deliver = createDeliveryHandler(deliveryDeps(aQueue()));
    expect(await deliver(anSqsEvent([message]))).toEqual({ batchItemFailures: [] });
    // SQS delivers at least once, and the stream's retry may send it too: the claim drops the copies.
    expect(await deliver(anSqsEvent([message, message]))).toEqual({ batchItemFailures: [] });
    expect(postsOf(lost)).toHaveLength(1);
    const delivered = await stored(lost);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(delivered).not.toHaveProperty('gsi4pk');
    expect(delivered).not.toHaveProperty('gsi4sk');

    // An hour on, only the fresh one (never sent either) is due: the delivered one left the index.
    const later = () => new Date(Date.now() + 3600_000);
    const third = aQueue();
    expect(await sweep(third, later)).toEqual({ due: 1, requeued: 1, more: false });
    expect(third.sent.map((queued) => queued.message.delivery_id)).toEqual([fresh.id]);
  });

  test('a delivery being attempted is left to its attempt; one whose claim went stale is taken over', async () => {
    const { workspaceId, subscription } = await aWorkspace();
    const due = new Date(Date.now() - 3600_000).toISOString();
    const aClaimedDelivery = async (claimedSecondsAgo: number) => {
      const delivery = eventItems.delivery({
        id: randomUUID(),
        workspace_id: workspaceId,
        subscription_id: subscription.id,
        event_id: randomUUID(),
        event_type: 'prospect.created',
        payload: JSON.stringify({ type: 'prospect.created', timestamp: due, data: {} }),
        status: 'pending',
        attempts: 1,
        step: 0,
        claimed_step: 0,
        claimed_at: new Date(Date.now() - claimedSecondsAgo * 1000).toISOString(),
        last_status_code: null,
        last_error: null,
        next_attempt_at: due,
        created_at: due,
        expires_at: Math.floor(Date.now() / 1000) + 86400,
      });
      await put(delivery);
      return delivery;
    };
    const live = await aClaimedDelivery(20);
    const stale = await aClaimedDelivery(600);

    const queue = aQueue();
    expect(await sweep(queue)).toMatchObject({ due: 2, requeued: 1 });

    expect(queue.sent.map((queued) => queued.message.delivery_id)).toEqual([stale.id]);
    expect(await stored(live)).toEqual(live);
    expect(await createDeliveryHandler(deliveryDeps(aQueue()))(anSqsEvent([queue.sent[0]!.message]))).toEqual({
      batchItemFailures: [],
    });
    expect(await stored(stale)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(postsOf(stale)).toHaveLength(1);
  });

  test('the index follows the schedule: a refused attempt moves its time, the last one takes the delivery out', async () => {
    const { workspaceId } = await aWorkspace('/refuses');
    const delivery = await aDeliveryWhoseSendFailed(workspaceId, 60);
    const queue = aQueue();
    expect(await sweep(queue)).toMatchObject({ requeued: 1 });
    const attempt = createDeliveryHandler(deliveryDeps(aQueue()));

    expect(await attempt(anSqsEvent([queue.sent[0]!.message]))).toEqual({ batchItemFailures: [] });

    const retried = await stored(delivery);
    expect(retried).toMatchObject({ status: 'pending', step: 1, gsi4pk: keys.pendingDeliveries(delivery.id) });
    expect(retried.gsi4sk).toBe(retried.next_attempt_at);
    expect(Date.parse(retried.next_attempt_at ?? '') - Date.now()).toBeLessThanOrEqual(retryDelaysSeconds[0]! * 1000);

    const lastStep = retryDelaysSeconds.length;
    await put({ ...retried, step: lastStep });
    const last = { ...queue.sent[0]!.message, step: lastStep, not_before: new Date().toISOString() };
    expect(await attempt(anSqsEvent([last]))).toEqual({ batchItemFailures: [] });
    const failed = await stored(delivery);
    expect(failed).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(failed).not.toHaveProperty('gsi4pk');
    expect(failed).not.toHaveProperty('gsi4sk');
  });
});
