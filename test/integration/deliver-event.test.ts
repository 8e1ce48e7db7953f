import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import type * as DeliverEvent from '../../functions/events/deliver-event';
import { createSubscription, moveLegacySecrets, rotateSubscriptionSecret } from '../../lib/settings/subscriptions';
import { productionSecretsDeps } from '../../lib/storage/client';
import { handleDeliveryMessage } from '../../lib/domain/events/deliver';
import type { DeliveryDeps, DeliveryMessage } from '../../lib/domain/events/ports';
import { redeliver } from '../../lib/domain/events/redeliver';
import { deliveryTimeoutMs, retryDelaysSeconds } from '../../lib/domain/events/retry-schedule';
import { rotationOverlapMs } from '../../lib/domain/events/signing';
import { ConflictError, NotFoundError, type Delivery, type Subscription } from '../../lib/domain/model';
import { createHttpSender } from '../../lib/outbound/http-sender';
import { readDeliveryAndSubscription } from '../../lib/storage/delivery-attempts';
import { eventItems } from '../../lib/storage/event-items';
import { keys } from '../../lib/storage/table-items';
import { messages } from '../../lib/messages';
import { captureLogs, type CapturedLogs } from '../support/captured-logs';
import { recordingMetrics } from '../support/recording-metrics';
import { aWorkspace, seedTestWorkspace } from '../support/seed';
import { setTestQueueUrls } from '../support/queue-urls';

/**
 * The delivery function (docs/api.md#outbound-events) against DynamoDB Local and real HTTP receivers on
 * 127.0.0.1: signed POSTs, the retry schedule with its chained queue delays, claims against
 * duplicate messages, subscriptions gone or disabled, redeliveries.
 */

type Received = { path: string; headers: IncomingHttpHeaders; body: string; at: number };
let received: Received[];
let connections = 0;
let server: Server;
let base: string;

let now: Date;
let queued: { message: DeliveryMessage; delaySeconds: number }[];
const baseDeps = productionSecretsDeps();
const metrics = recordingMetrics();
const deps: DeliveryDeps = {
  ...baseDeps,
  clock: () => now,
  metrics,
  queue: {
    send: async (messages) => {
      queued.push(...messages);
    },
  },
  send: createHttpSender('local'),
  network: 'local',
};

/** The module builds its production dependencies on import, which need the queue's URL. */
let createHandler: typeof DeliverEvent.createHandler;

beforeAll(async () => {
  setTestQueueUrls();
  ({ createHandler } = await import('../../functions/events/deliver-event'));
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      if (path.startsWith('/ok')) response.writeHead(204).end();
      else if (path.startsWith('/fail')) response.writeHead(503).end('indisponible');
      else if (path.startsWith('/redirect')) response.writeHead(302, { location: `${base}/ok-target` }).end();
      // Never answers (the sockets are closed in afterAll): only the attempt's own timeout ends it.
      else if (path.startsWith('/slow')) return;
      else response.writeHead(404).end();
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  baseDeps.db.destroy();
});

let logs: CapturedLogs;
beforeEach(() => {
  received = [];
  queued = [];
  metrics.clear();
  now = new Date();
  logs = captureLogs('WARN');
});
afterEach(() => {
  logs.restore();
  jest.restoreAllMocks();
});

const put = (item: object, tableName = deps.tableName) =>
  deps.db.send(new PutCommand({ TableName: tableName, Item: item }));

/** A subscription and its signing secret, as `subscription create` writes them. */
type SubscriptionWithSecret = Subscription & { secret: string };

async function aSubscription(path: string, overrides: Partial<Subscription> = {}): Promise<SubscriptionWithSecret> {
  const subscription: Subscription = {
    id: randomUUID(),
    workspace_id: randomUUID(),
    url: `${base}${path}`,
    events: ['prospect.created'],
    active: true,
    created_at: now.toISOString(),
    ...overrides,
  };
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  await put(eventItems.subscription(subscription));
  await put(
    eventItems.signingSecrets({ workspace_id: subscription.workspace_id, subscription_id: subscription.id, secret }),
    deps.secretsTableName,
  );
  return { ...subscription, secret };
}

async function aDelivery(
  subscription: Pick<Subscription, 'id' | 'workspace_id'>,
  overrides: Partial<Delivery> = {},
): Promise<Delivery> {
  const delivery: Delivery = {
    id: randomUUID(),
    workspace_id: subscription.workspace_id,
    subscription_id: subscription.id,
    event_id: randomUUID(),
    event_type: 'prospect.created',
    payload: JSON.stringify({
      type: 'prospect.created',
      timestamp: now.toISOString(),
      data: { prospect: { first_name: 'Zoé 👩‍💻', last_name: 'Noe\u0308l' } },
    }),
    status: 'pending',
    attempts: 0,
    step: 0,
    last_status_code: null,
    last_error: null,
    next_attempt_at: null,
    created_at: now.toISOString(),
    expires_at: Math.floor(now.getTime() / 1000) + 86400,
    ...overrides,
  };
  await put(eventItems.delivery(delivery));
  return delivery;
}

const messageOf = (delivery: Delivery, step = 0, notBefore = now): DeliveryMessage => ({
  workspace_id: delivery.workspace_id,
  delivery_id: delivery.id,
  subscription_id: delivery.subscription_id,
  step,
  not_before: notBefore.toISOString(),
});

const stored = async (delivery: Delivery) =>
  (await readDeliveryAndSubscription(deps, delivery.workspace_id, delivery.id)).delivery;

const sqsEvent = (bodies: string[]): SQSEvent => ({
  Records: bodies.map((body, index) => ({ messageId: `m${index}`, body }) as SQSRecord),
});

const failedLine = (delivery: Delivery) => ({
  level: 'WARN',
  message: 'Livraison abandonnée',
  event: 'delivery_failed',
  workspace_id: delivery.workspace_id,
  subscription_id: delivery.subscription_id,
  delivery_id: delivery.id,
});

/** The WARN lines logged, with the keys of the `delivery_failed` line (Powertools adds its own). */
const warnings = () =>
  logs
    .lines()
    .filter((line) => line.level === 'WARN')
    .map(({ level, message, event, workspace_id, subscription_id, delivery_id }) => ({
      level,
      message,
      event,
      workspace_id,
      subscription_id,
      delivery_id,
    }));

test('a first attempt POSTs the stored payload, signed, and ends delivered', async () => {
  const subscription = await aSubscription('/ok');
  const delivery = await aDelivery(subscription);
  await handleDeliveryMessage(deps, messageOf(delivery));

  expect(received).toHaveLength(1);
  const [request] = received as [Received];
  expect(request.body).toBe(delivery.payload);
  expect(request.headers).toMatchObject({
    'content-type': 'application/json',
    'user-agent': 'crm-ingest-webhooks/1',
    'webhook-id': delivery.event_id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
  });
  expect(new Webhook(subscription.secret).verify(request.body, request.headers as Record<string, string>)).toEqual(
    JSON.parse(delivery.payload),
  );
  expect(() =>
    new Webhook(`whsec_${randomBytes(24).toString('base64')}`).verify(
      request.body,
      request.headers as Record<string, string>,
    ),
  ).toThrow();
  const after = await stored(delivery);
  expect(after).toMatchObject({ status: 'delivered', attempts: 1, step: 1, last_status_code: 204, last_error: null });
  expect(after).not.toHaveProperty('claimed_step');
  expect(after).not.toHaveProperty('claimed_at');
  expect(queued).toEqual([]);
  expect(metrics.counts).toEqual([{ metric: 'DeliveriesDelivered', dimensions: {}, value: 1 }]);
});

test('every failure queues the next step; waits over 15 min are chained; after step 7 the delivery fails', async () => {
  const subscription = await aSubscription('/fail');
  const delivery = await aDelivery(subscription);
  let message = messageOf(delivery);
  for (let step = 0; step <= 7; step += 1) {
    queued = [];
    await handleDeliveryMessage(deps, message);
    expect(received).toHaveLength(step + 1);
    const after = await stored(delivery);
    if (step === 7) {
      expect(queued).toEqual([]);
      expect(after).toMatchObject({
        status: 'failed',
        attempts: 8,
        step: 8,
        last_status_code: 503,
        next_attempt_at: null,
      });
      break;
    }
    const delay = retryDelaysSeconds[step] as number;
    const notBefore = new Date(now.getTime() + delay * 1000).toISOString();
    expect(queued).toEqual([
      { message: { ...messageOf(delivery, step + 1), not_before: notBefore }, delaySeconds: Math.min(delay, 900) },
    ]);
    expect(after).toMatchObject({
      status: 'pending',
      attempts: step + 1,
      step: step + 1,
      last_status_code: 503,
      last_error: 'réponse HTTP 503 (2xx attendu, redirections non suivies)',
      next_attempt_at: notBefore,
    });
    message = queued[0]?.message as DeliveryMessage;
    // SQS hands the message back after its delay; past 900 s each hop is sent again until due.
    let hops = 0;
    for (let waited = Math.min(delay, 900); waited < delay; waited += 900) {
      now = new Date(now.getTime() + 900_000);
      queued = [];
      await handleDeliveryMessage(deps, message);
      expect(queued).toEqual([{ message, delaySeconds: Math.min(delay - waited, 900) }]);
      hops += 1;
    }
    expect(hops).toBe(Math.ceil(delay / 900) - 1);
    expect(received).toHaveLength(step + 1);
    now = new Date(Date.parse(message.not_before));
  }
  expect(new Set(received.map((request) => request.headers['webhook-id']))).toEqual(new Set([delivery.event_id]));
  expect(received.map((request) => request.body)).toEqual(Array(8).fill(delivery.payload));
  expect(warnings()).toEqual([failedLine(delivery)]);
  // Seven failed attempts and their queue hops count nothing: only the delivery's end does.
  expect(metrics.counts).toEqual([{ metric: 'DeliveriesFailed', dimensions: {}, value: 1 }]);
});

test('a message for a step already run, or for a finished delivery, is dropped', async () => {
  const subscription = await aSubscription('/ok');
  const moved = await aDelivery(subscription, { step: 3, attempts: 3 });
  const done = await aDelivery(subscription, { status: 'delivered', step: 1, attempts: 1 });
  await handleDeliveryMessage(deps, messageOf(moved, 2));
  await handleDeliveryMessage(deps, messageOf(done, 1));
  await handleDeliveryMessage(deps, { ...messageOf(done, 0), delivery_id: randomUUID() });
  expect(received).toEqual([]);
  expect(await stored(moved)).toMatchObject({ step: 3, attempts: 3, status: 'pending' });
  expect(metrics.counts).toEqual([]);
});

test('two copies of one message at once make one POST', async () => {
  const subscription = await aSubscription('/ok');
  const delivery = await aDelivery(subscription);
  const body = JSON.stringify(messageOf(delivery));
  const answer = await createHandler(deps)(sqsEvent([body, body, body]));
  expect(answer).toEqual({ batchItemFailures: [] });
  expect(received).toHaveLength(1);
  expect(await stored(delivery)).toMatchObject({ status: 'delivered', attempts: 1 });
  expect(metrics.total('DeliveriesDelivered')).toBe(1);
});

test('a fresh claim holds off a copy; a claim older than 60 s is taken over', async () => {
  const subscription = await aSubscription('/ok');
  const fresh = await aDelivery(subscription, {
    attempts: 1,
    claimed_step: 0,
    claimed_at: new Date(now.getTime() - 30_000).toISOString(),
  });
  const stale = await aDelivery(subscription, {
    attempts: 1,
    claimed_step: 0,
    claimed_at: new Date(now.getTime() - 61_000).toISOString(),
  });
  await handleDeliveryMessage(deps, messageOf(fresh));
  await handleDeliveryMessage(deps, messageOf(stale));
  expect(received.map((request) => request.headers['webhook-id'])).toEqual([stale.event_id]);
  expect(await stored(fresh)).toMatchObject({ status: 'pending', attempts: 1, claimed_step: 0 });
  expect(await stored(stale)).toMatchObject({ status: 'delivered', attempts: 2, step: 1 });
  expect(metrics.counts).toEqual([{ metric: 'DeliveriesDelivered', dimensions: {}, value: 1 }]);
});

test('a disabled or deleted subscription ends its delivery failed, without a POST', async () => {
  const disabled = await aSubscription('/ok', { active: false });
  const ofDisabled = await aDelivery(disabled);
  const deleted: Subscription = { ...(await aSubscription('/ok')), id: randomUUID() };
  // An attempt that died (stale claim) before the subscription was deleted does not keep it pending.
  const ofDeleted = await aDelivery(deleted, {
    claimed_step: 0,
    claimed_at: new Date(now.getTime() - 61_000).toISOString(),
  });
  await handleDeliveryMessage(deps, messageOf(ofDisabled));
  await handleDeliveryMessage(deps, messageOf(ofDeleted));
  expect(received).toEqual([]);
  expect(queued).toEqual([]);
  expect(await stored(ofDisabled)).toMatchObject({ status: 'failed', attempts: 0, last_error: 'abonnement désactivé' });
  expect(await stored(ofDeleted)).toMatchObject({ status: 'failed', attempts: 0, last_error: 'abonnement supprimé' });
  expect(await stored(ofDeleted)).not.toHaveProperty('claimed_step');
  expect(warnings()).toEqual([failedLine(ofDisabled), failedLine(ofDeleted)]);
  expect(metrics.counts).toEqual(Array(2).fill({ metric: 'DeliveriesFailed', dimensions: {}, value: 1 }));
});

test('a redirect is not followed, and a closed port is a failure', async () => {
  const redirecting = await aDelivery(await aSubscription('/redirect'));
  const closed = await aDelivery(await aSubscription('/ok', { url: 'http://127.0.0.1:1/ok' }));
  await handleDeliveryMessage(deps, messageOf(redirecting));
  await handleDeliveryMessage(deps, messageOf(closed));
  expect(received.map((request) => request.path)).toEqual(['/redirect']);
  expect(await stored(redirecting)).toMatchObject({ status: 'pending', step: 1, last_status_code: 302 });
  expect(await stored(closed)).toMatchObject({
    status: 'pending',
    step: 1,
    last_status_code: null,
    last_error: 'connexion impossible : ECONNREFUSED',
  });
  expect(metrics.counts).toEqual([]);
});

test('a host name is resolved once and connected to as checked; Host keeps the name', async () => {
  const port = (server.address() as AddressInfo).port;
  const delivery = await aDelivery(await aSubscription('/ok', { url: `http://localhost:${port}/ok?source=crm` }));
  await handleDeliveryMessage(deps, messageOf(delivery));
  expect(received.map((request) => [request.path, request.headers.host])).toEqual([
    ['/ok?source=crm', `localhost:${port}`],
  ]);
  expect(await stored(delivery)).toMatchObject({ status: 'delivered' });
});

test('the aws policy refuses a loopback receiver before connecting, by IP or by name', async () => {
  const awsDeps: DeliveryDeps = { ...deps, send: createHttpSender('aws'), network: 'aws' };
  const port = (server.address() as AddressInfo).port;
  const byIp = await aDelivery(await aSubscription('/ok', { url: `https://127.0.0.1:${port}/ok` }));
  const byName = await aDelivery(await aSubscription('/ok', { url: `https://localhost:${port}/ok` }));
  const plain = await aDelivery(await aSubscription('/ok'));
  const before = connections;
  await handleDeliveryMessage(awsDeps, messageOf(byIp));
  await handleDeliveryMessage(awsDeps, messageOf(byName));
  await handleDeliveryMessage(awsDeps, messageOf(plain));
  expect(connections).toBe(before);
  expect(received).toEqual([]);
  expect(await stored(byIp)).toMatchObject({
    status: 'pending',
    attempts: 1,
    last_error: 'adresse refusée (non publique : privée, locale, réservée ou de bouclage) : 127.0.0.1',
  });
  expect((await stored(byName))?.last_error).toMatch(
    /^adresse refusée \(non publique : privée, locale, réservée ou de bouclage\) : (127\.0\.0\.1|::1)$/,
  );
  expect((await stored(plain))?.last_error).toMatch(/^protocole http refusé/);
});

test('a receiver slower than 10 s fails, without delaying the others of its batch', async () => {
  const slow = await aDelivery(await aSubscription('/slow'));
  const fast = await aDelivery(await aSubscription('/ok'));
  const started = Date.now();
  const answer = await createHandler(deps)(
    sqsEvent([JSON.stringify(messageOf(slow)), JSON.stringify(messageOf(fast)), 'pas du JSON', '{"step":-1}']),
  );
  expect(answer).toEqual({ batchItemFailures: [] });
  // The batch ended although the slow receiver never answers: its attempt was cut at its timeout.
  expect(Date.now() - started).toBeGreaterThanOrEqual(deliveryTimeoutMs - 100);
  // The fast receiver had its request while the slow attempt was still waiting: not queued behind it.
  const at = (path: string) => received.find((request) => request.path === path)?.at ?? Infinity;
  expect(at('/ok')).toBeLessThan(at('/slow') + deliveryTimeoutMs);
  expect(await stored(fast)).toMatchObject({ status: 'delivered' });
  expect(await stored(slow)).toMatchObject({
    status: 'pending',
    step: 1,
    last_status_code: null,
    last_error: 'délai de 10 s dépassé',
  });
}, 20_000);

test('a storage failure returns its message to the queue; an unreadable body is dropped', async () => {
  const delivery = await aDelivery(await aSubscription('/ok'));
  const broken: DeliveryDeps = { ...deps, tableName: `absente-${randomUUID()}` };
  const answer = await createHandler(broken)(sqsEvent(['{}', JSON.stringify(messageOf(delivery)), '[1]']));
  expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
  expect(received).toEqual([]);
});

describe('redeliver', () => {
  test('a delivered delivery is sent again now, same webhook-id, attempts + 1', async () => {
    const subscription = await aSubscription('/ok');
    const delivery = await aDelivery(subscription, {
      status: 'delivered',
      attempts: 1,
      step: 1,
      last_status_code: 200,
    });
    const view = await redeliver(deps, delivery.workspace_id, delivery.id.toUpperCase());
    expect(view).toEqual({
      id: delivery.id,
      event_id: delivery.event_id,
      type: 'prospect.created',
      status: 'delivered',
      attempts: 2,
      last_status_code: 204,
      last_error: null,
      next_attempt_at: null,
      created_at: delivery.created_at,
    });
    expect(received).toHaveLength(1);
    expect(received[0]?.headers['webhook-id']).toBe(delivery.event_id);
    expect(
      new Webhook(subscription.secret).verify(received[0]?.body ?? '', received[0]?.headers as Record<string, string>),
    ).toBeTruthy();
  });

  test('a failed delivery sent again successfully is delivered', async () => {
    const delivery = await aDelivery(await aSubscription('/ok'), {
      status: 'failed',
      attempts: 8,
      step: 8,
      last_status_code: 500,
      last_error: 'réponse HTTP 500 (2xx attendu, redirections non suivies)',
    });
    expect(await redeliver(deps, delivery.workspace_id, delivery.id)).toMatchObject({
      status: 'delivered',
      attempts: 9,
      last_status_code: 204,
      last_error: null,
    });
    // An operator's redelivery (the admin tool) is no scheduled delivery: not counted.
    expect(metrics.counts).toEqual([]);
  });

  test('a failed redelivery leaves a pending delivery pending on its schedule, and fails a delivered one', async () => {
    const subscription = await aSubscription('/fail');
    const nextAt = new Date(now.getTime() + 300_000).toISOString();
    const pending = await aDelivery(subscription, { attempts: 2, step: 2, next_attempt_at: nextAt });
    const delivered = await aDelivery(subscription, { status: 'delivered', attempts: 1, step: 1 });
    expect(await redeliver(deps, pending.workspace_id, pending.id)).toMatchObject({
      status: 'pending',
      attempts: 3,
      last_status_code: 503,
      next_attempt_at: nextAt,
    });
    expect(await stored(pending)).toMatchObject({ step: 2 });
    expect(await redeliver(deps, delivered.workspace_id, delivered.id)).toMatchObject({
      status: 'failed',
      attempts: 2,
      last_status_code: 503,
    });
    expect(queued).toEqual([]);
    expect(metrics.counts).toEqual([]);
  });

  test('unknown delivery, deleted or disabled subscription: a typed refusal, nothing sent', async () => {
    const subscription = await aSubscription('/ok');
    const delivery = await aDelivery(subscription);
    await expect(redeliver(deps, subscription.workspace_id, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    await expect(redeliver(deps, randomUUID(), delivery.id)).rejects.toBeInstanceOf(NotFoundError);
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: keys.subscription(subscription.workspace_id, subscription.id),
        UpdateExpression: 'SET active = :false',
        ExpressionAttributeValues: { ':false': false },
      }),
    );
    await expect(redeliver(deps, delivery.workspace_id, delivery.id)).rejects.toBeInstanceOf(ConflictError);
    const orphan = await aDelivery({ ...subscription, id: randomUUID() });
    await expect(redeliver(deps, orphan.workspace_id, orphan.id)).rejects.toThrow(
      `L'abonnement de cet envoi a été supprimé : ${orphan.subscription_id}`,
    );
    expect(received).toEqual([]);
  });

  test('a delivery past its 30 days is not redelivered, even before DynamoDB removes it (docs/api.md#webhook-call-journal)', async () => {
    const subscription = await aSubscription('/ok');
    const expired = await aDelivery(subscription, {
      status: 'delivered',
      attempts: 1,
      step: 1,
      expires_at: Math.floor(now.getTime() / 1000),
    });
    await expect(redeliver(deps, expired.workspace_id, expired.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(received).toEqual([]);
    expect(await stored(expired)).toMatchObject({ attempts: 1 });
  });
});

describe('signing secrets: a rotation, and a secret an earlier version left beside its subscription', () => {
  const hour = 3_600_000;
  let workspaceId: string;
  beforeAll(async () => {
    workspaceId = (await seedTestWorkspace(aWorkspace({ api_keys: [], prospects: [] }))).workspace_id;
  });

  /** As the administrator does it: `subscription create`, then `rotate-secret` on a clock of its own. */
  const subscribe = () => createSubscription(deps, { workspaceId, url: `${base}/ok`, network: 'local' });
  const rotateAt = async (subscriptionId: string, at: Date): Promise<string> =>
    (await rotateSubscriptionSecret({ ...deps, clock: () => at }, workspaceId, subscriptionId)).secret;
  const deliveryTo = (subscriptionId: string) => aDelivery({ id: subscriptionId, workspace_id: workspaceId });

  /** A receiver holding `secret`, verifying with `standardwebhooks` (on the real clock, 5 minutes' tolerance). */
  const accepts = (secret: string, request: Received): boolean => {
    try {
      new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
      return true;
    } catch {
      return false;
    }
  };
  const signaturesOf = (request: Received): string[] => String(request.headers['webhook-signature']).split(' ');

  test('for 24 hours after a rotation a receiver holding either secret verifies, then only the new one', async () => {
    logs.restore();
    logs = captureLogs('DEBUG');
    const created = await subscribe();
    // The 24 hours end one minute from now: the deliveries' clock stays within the receiver's tolerance.
    const rotated = await rotateAt(created.id, new Date(now.getTime() - rotationOverlapMs + 60_000));
    expect(rotated).not.toBe(created.secret);

    await handleDeliveryMessage(deps, messageOf(await deliveryTo(created.id)));
    now = new Date(now.getTime() + 60_000);
    await handleDeliveryMessage(deps, messageOf(await deliveryTo(created.id)));

    const [within, after] = received as [Received, Received];
    expect(signaturesOf(within)).toEqual([expect.stringMatching(/^v1,/), expect.stringMatching(/^v1,/)]);
    expect([accepts(created.secret, within), accepts(rotated, within)]).toEqual([true, true]);
    expect(signaturesOf(after)).toEqual([expect.stringMatching(/^v1,/)]);
    expect([accepts(created.secret, after), accepts(rotated, after)]).toEqual([false, true]);
    expect(accepts(`whsec_${randomBytes(32).toString('base64')}`, within)).toBe(false);
    const written = logs.raw().join('\n');
    for (const secret of [created.secret, rotated]) {
      expect(written).not.toContain(secret);
      expect(written).not.toContain(secret.slice('whsec_'.length));
    }
  });

  test('a second rotation within the 24 hours drops the oldest: two secrets sign at most', async () => {
    const created = await subscribe();
    const first = await rotateAt(created.id, new Date(now.getTime() - 2 * hour));
    const second = await rotateAt(created.id, new Date(now.getTime() - hour));
    const delivery = await deliveryTo(created.id);
    await handleDeliveryMessage(deps, messageOf(delivery));
    // A redelivery reads the subscription and its secrets by the delivery alone: signed the same way.
    await redeliver(deps, workspaceId, delivery.id);

    expect(received).toHaveLength(2);
    for (const request of received) {
      expect(signaturesOf(request)).toHaveLength(2);
      expect([created.secret, first, second].map((secret) => accepts(secret, request))).toEqual([false, true, true]);
    }
  });

  test('a secret left on the WS# item: no POST, the schedule goes on; once moved, the next attempt is signed with it', async () => {
    const subscription: Subscription = {
      id: randomUUID(),
      workspace_id: workspaceId,
      url: `${base}/ok`,
      events: ['prospect.created'],
      active: true,
      created_at: now.toISOString(),
    };
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    // As an earlier version wrote it: the secret on the subscription, nothing in the secrets table.
    await put({ ...eventItems.subscription(subscription), secret });
    const delivery = await aDelivery(subscription);

    await handleDeliveryMessage(deps, messageOf(delivery));
    expect(received).toEqual([]);
    expect(await stored(delivery)).toMatchObject({
      status: 'pending',
      attempts: 1,
      step: 1,
      last_status_code: null,
      last_error: messages.delivery.signingSecretsMissing,
    });
    expect(queued.map(({ message }) => message.step)).toEqual([1]);
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({ event: 'signing_secrets_missing', subscription_id: subscription.id }),
    );
    expect(logs.raw().join('\n')).not.toContain(secret.slice('whsec_'.length));

    expect(await moveLegacySecrets(deps, workspaceId)).toEqual({
      migrated: [{ workspace_id: workspaceId, id: subscription.id }],
    });
    const next = queued[0]!.message;
    now = new Date(Date.parse(next.not_before));
    await handleDeliveryMessage(deps, next);
    expect(received).toHaveLength(1);
    expect(accepts(secret, received[0]!)).toBe(true);
    expect(await stored(delivery)).toMatchObject({ status: 'delivered', attempts: 2 });
  });
});
