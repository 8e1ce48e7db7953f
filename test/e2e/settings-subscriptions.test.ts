import { randomUUID } from 'node:crypto';
import { listAudit } from '../../lib/settings/audit';
import { messages } from '../../lib/messages';
import type { CreatedSubscription } from '../../lib/settings/subscriptions';
import type { SubscriptionView } from '../../lib/settings/subscription-list';
import { productionSecretsDeps } from '../../lib/storage/client';
import type { DeliveryView } from '../../lib/domain/events/delivery-view';
import { eventTypes } from '../../lib/domain/events/event-types';
import { startEventPipeline, type EventPipeline } from '../../tools/local/event-pipeline';
import { startReceiver, verified, type Receiver } from '../support/event-world';
import { startLocalApi, type TestApi } from '../support/local-api';
import { bearer, workspaceWithPeople, type PeopleWorkspace } from '../support/people';
import { aWorkspace } from '../support/seed';

/**
 * The settings API's subscriptions and deliveries over HTTP (docs/api.md#outbound-events, #settings-api), signed in for
 * real, with the local runtime's outbound events: the table's stream read by the stream handler, deliveries sent by the
 * delivery function from the in-process queue that the redeliver route queues on, as `npm start` runs them.
 */

const deps = productionSecretsDeps();
let pipeline: EventPipeline;
let api: TestApi;
let receiver: Receiver;
let ws: PeopleWorkspace;
let other: PeopleWorkspace;

beforeAll(async () => {
  pipeline = await startEventPipeline({
    deps,
    endpoint: process.env.DYNAMODB_ENDPOINT as string,
    startingPosition: 'LATEST',
  });
  api = await startLocalApi({}, {}, { queue: pipeline.queue });
  receiver = await startReceiver();
  ws = await workspaceWithPeople(api, aWorkspace({ prospects: [] }));
  other = await workspaceWithPeople(api, aWorkspace({ prospects: [] }));
}, 60_000);
afterAll(async () => {
  await pipeline.stop();
  await api.close();
  await receiver.close();
  deps.db.destroy();
});

/** Every write so far through the stream handler, every message due handed to the delivery function. */
async function settle(): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    await pipeline.caughtUp();
    await pipeline.idle();
  }
}

const base = () => `/workspaces/${ws.seed.workspace_id}`;
const asAdmin = (method: string, path: string, options: { query?: Record<string, string>; body?: unknown } = {}) =>
  api.request(method, `${base()}${path}`, { ...options, headers: bearer(ws.admin) });
const lead = () =>
  api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: ws.seed.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${ws.seed.webhook?.token}` },
    body: { first_name: 'Abonné', email: `${randomUUID()}@exemple.test` },
  });
const newestAudit = async () => (await listAudit(deps, { workspaceId: ws.seed.workspace_id })).entries[0];

let subscription: CreatedSubscription;
let secret: string;

describe('POST /subscriptions', () => {
  test('201: the subscription, every type without `events`, its secret once; audited', async () => {
    const answer = await asAdmin('POST', '/subscriptions', { body: { url: receiver.url } });
    expect(answer.status).toBe(201);
    subscription = answer.body as CreatedSubscription;
    expect(subscription).toEqual({
      id: expect.any(String),
      url: receiver.url,
      events: [...eventTypes],
      secret: expect.stringMatching(/^whsec_/),
    });
    secret = subscription.secret;
    expect(await newestAudit()).toMatchObject({
      member_id: ws.admin.memberId,
      action: 'subscription.created',
      target_id: subscription.id,
    });
    expect(JSON.stringify(await newestAudit())).not.toContain(secret);
  });

  test('`events` names the types sent', async () => {
    const answer = await asAdmin('POST', '/subscriptions', {
      body: { url: `${receiver.url}/notes`, events: ['prospect.note_added'] },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ events: ['prospect.note_added'] });
    const id = (answer.body as CreatedSubscription).id;
    expect((await asAdmin('DELETE', `/subscriptions/${id}`)).body).toEqual({ id, deleted: true });
  });

  test.each([
    [{ url: 'ftp://exemple.test/hook' }, 'url'],
    [{ url: 42 }, 'url'],
    [{ url: 'http://127.0.0.1/x', events: ['prospect.deleted'] }, 'events'],
    [{ url: 'http://127.0.0.1/x', events: 'prospect.created' }, 'events'],
    [{ url: 'http://127.0.0.1/x', secret: 'whsec_mine' }, 'secret'],
  ])('%j: 400 naming %s, nothing created', async (body, field) => {
    const before = ((await asAdmin('GET', '/subscriptions')).body as { subscriptions: unknown[] }).subscriptions;
    const answer = await asAdmin('POST', '/subscriptions', { body });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: 'bad_request', details: { field } } });
    expect(((await asAdmin('GET', '/subscriptions')).body as { subscriptions: unknown[] }).subscriptions).toEqual(
      before,
    );
  });
});

describe('GET /subscriptions', () => {
  test('the subscriptions, never a secret', async () => {
    const answer = await asAdmin('GET', '/subscriptions');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      subscriptions: [
        {
          id: subscription.id,
          url: receiver.url,
          events: [...eventTypes],
          active: true,
          created_at: expect.any(String),
        } satisfies SubscriptionView,
      ],
    });
    expect(answer.text).not.toContain('whsec_');
  });
});

describe('PATCH /subscriptions/{subscription_id}', () => {
  const path = () => `/subscriptions/${subscription.id}`;
  const stored = async () =>
    ((await asAdmin('GET', '/subscriptions')).body as { subscriptions: SubscriptionView[] }).subscriptions.find(
      (each) => each.id === subscription.id,
    );
  const newestAudits = async (count: number) =>
    (await listAudit(deps, { workspaceId: ws.seed.workspace_id })).entries.slice(0, count);
  const deliveriesOf = async () =>
    ((await asAdmin('GET', `${path()}/deliveries`)).body as { deliveries: DeliveryView[] }).deliveries;

  test('{ active } turns it off and on, audited; the answer names its events', async () => {
    expect((await asAdmin('PATCH', path(), { body: { active: false } })).body).toEqual({
      id: subscription.id,
      active: false,
      events: [...eventTypes],
    });
    expect(await newestAudit()).toMatchObject({ action: 'subscription.disabled', member_id: ws.admin.memberId });
    expect((await asAdmin('PATCH', path(), { body: { active: true } })).body).toEqual({
      id: subscription.id,
      active: true,
      events: [...eventTypes],
    });
    expect(await newestAudit()).toMatchObject({ action: 'subscription.enabled', target_id: subscription.id });
  });

  test('{ events } replaces the list (the new type among them), audited as subscription.events_changed naming the types', async () => {
    const answer = await asAdmin('PATCH', path(), {
      body: { events: ['prospect.follow_up_due', 'prospect.note_added', 'prospect.note_added'] },
    });
    expect(answer.status).toBe(200);
    // Known types once each, in the order of the event types; `active` as it was.
    const events = ['prospect.note_added', 'prospect.follow_up_due'];
    expect(answer.body).toEqual({ id: subscription.id, active: true, events });
    expect(await stored()).toMatchObject({ id: subscription.id, active: true, events });
    expect(await newestAudit()).toEqual({
      id: expect.any(String),
      at: expect.any(String),
      member_id: ws.admin.memberId,
      action: 'subscription.events_changed',
      target_id: subscription.id,
      summary: messages.audit.subscriptionEventsChanged('prospect.note_added, prospect.follow_up_due'),
    });
  });

  test('a lead written while `prospect.created` is not listed makes no delivery, not even once listed again', async () => {
    expect((await lead()).status).toBe(200);
    await settle();
    expect(await deliveriesOf()).toEqual([]);
    const every = await asAdmin('PATCH', path(), { body: { events: [...eventTypes] } });
    expect(every.body).toEqual({ id: subscription.id, active: true, events: [...eventTypes] });
    // The list applies from the change on: the lead before it is still not sent.
    await settle();
    expect(await deliveriesOf()).toEqual([]);
  }, 30_000);

  test('{ active, events } at once: both written, one audit entry each, in one transaction', async () => {
    const answer = await asAdmin('PATCH', path(), { body: { active: false, events: ['prospect.created'] } });
    expect(answer.body).toEqual({ id: subscription.id, active: false, events: ['prospect.created'] });
    expect((await newestAudits(2)).map((entry) => entry.action).sort()).toEqual([
      'subscription.disabled',
      'subscription.events_changed',
    ]);
    expect((await asAdmin('PATCH', path(), { body: { active: true, events: [...eventTypes] } })).body).toEqual({
      id: subscription.id,
      active: true,
      events: [...eventTypes],
    });
  });

  test.each([
    [{ active: 'oui' }, 'active'],
    [{ active: null }, 'active'],
    [{}, 'body'],
    [{ active: true, url: 'x' }, 'url'],
    [{ events: [] }, 'events'],
    [{ active: false, events: [] }, 'events'],
    [{ events: ['prospect.created', 'prospect.deleted'] }, 'events'],
    [{ events: ['prospect.created,prospect.updated'] }, 'events'],
    [{ events: 'prospect.created' }, 'events'],
    [{ events: [42] }, 'events'],
    [{ events: null }, 'events'],
  ])('%j: 400 naming %s, in French, nothing written', async (body, field) => {
    const [before, audited] = [await stored(), await newestAudit()];
    const answer = await asAdmin('PATCH', path(), { body });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: { code: 'bad_request', details: { field, message: expect.not.stringMatching(/Invalid|expected/) } },
    });
    expect([await stored(), await newestAudit()]).toEqual([before, audited]);
  });

  test('an empty list and an unknown type: the words of the command line', async () => {
    expect((await asAdmin('PATCH', path(), { body: { events: [] } })).body).toMatchObject({
      error: { message: messages.admin.subscription.noEventType },
    });
    expect((await asAdmin('PATCH', path(), { body: { events: ['prospect.deleted'] } })).body).toMatchObject({
      error: {
        message: messages.admin.subscription.unknownEventTypes('prospect.deleted', eventTypes.join(', ')),
      },
    });
  });

  test.each([
    ['pas-un-uuid', { active: false }],
    [randomUUID(), { active: false }],
    [randomUUID(), { events: ['prospect.created'] }],
  ])('%s %j: 404', async (id, body) => {
    expect((await asAdmin('PATCH', `/subscriptions/${id}`, { body })).status).toBe(404);
  });
});

describe('POST /subscriptions/{subscription_id}/secret', () => {
  test('201: a new secret, once; audited without it', async () => {
    const answer = await asAdmin('POST', `/subscriptions/${subscription.id}/secret`);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: subscription.id, secret: expect.stringMatching(/^whsec_/) });
    const rotated = (answer.body as { secret: string }).secret;
    expect(rotated).not.toBe(secret);
    secret = rotated;
    const entry = await newestAudit();
    expect(entry).toMatchObject({ action: 'subscription.secret_rotated', member_id: ws.admin.memberId });
    expect(JSON.stringify(entry)).not.toContain(rotated);
  });

  test.each(['pas-un-uuid', randomUUID()])('%s: 404', async (id) => {
    expect((await asAdmin('POST', `/subscriptions/${id}/secret`)).status).toBe(404);
  });
});

describe('deliveries', () => {
  let deliveries: DeliveryView[];
  beforeAll(async () => {
    await lead();
    await lead();
    await settle();
    const answer = await asAdmin('GET', `/subscriptions/${subscription.id}/deliveries`);
    expect(answer.status).toBe(200);
    deliveries = (answer.body as { deliveries: DeliveryView[] }).deliveries;
  }, 30_000);

  test('GET …/deliveries: newest first, by pages, by status', async () => {
    expect(deliveries).toHaveLength(2);
    expect(deliveries[0]).toEqual({
      id: expect.any(String),
      event_id: expect.any(String),
      type: 'prospect.created',
      status: 'delivered',
      attempts: 1,
      last_status_code: 204,
      last_error: null,
      next_attempt_at: null,
      created_at: expect.any(String),
    });
    const path = `/subscriptions/${subscription.id}/deliveries`;
    const first = await asAdmin('GET', path, { query: { limit: '1' } });
    expect(first.body).toEqual({ deliveries: [deliveries[0]], next_cursor: expect.any(String) });
    const cursor = (first.body as { next_cursor: string }).next_cursor;
    expect((await asAdmin('GET', path, { query: { limit: '1', cursor } })).body).toEqual({
      deliveries: [deliveries[1]],
      next_cursor: null,
    });
    expect((await asAdmin('GET', path, { query: { status: 'delivered' } })).body).toEqual({
      deliveries,
      next_cursor: null,
    });
    expect((await asAdmin('GET', path, { query: { status: 'failed' } })).body).toEqual({
      deliveries: [],
      next_cursor: null,
    });
    // A cursor is bound to its status filter.
    expect((await asAdmin('GET', path, { query: { status: 'delivered', limit: '1', cursor } })).status).toBe(400);
  });

  test.each([
    [{ status: 'perdue' }, 'status'],
    [{ limit: 'dix' }, 'limit'],
  ])('%j: 400 naming %s (before the subscription: also for an unknown one)', async (query, field) => {
    for (const id of [subscription.id, randomUUID()]) {
      const answer = await asAdmin('GET', `/subscriptions/${id}/deliveries`, { query });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: { details: { field } } });
    }
  });

  test.each(['pas-un-uuid', randomUUID()])('GET …/deliveries of %s: 404', async (id) => {
    expect((await asAdmin('GET', `/subscriptions/${id}/deliveries`)).status).toBe(404);
  });

  test('POST /deliveries/{d}/redeliver: 202, queued; the delivery function sends it again, signed, same webhook-id', async () => {
    const delivery = deliveries[1] as DeliveryView;
    const from = receiver.requests.length;
    const answer = await asAdmin('POST', `/deliveries/${delivery.id}/redeliver`);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual(delivery);
    expect(await newestAudit()).toMatchObject({
      action: 'delivery.redelivered',
      member_id: ws.admin.memberId,
      target_id: delivery.id,
    });
    await settle();
    const sent = receiver.requests.slice(from);
    expect(sent).toHaveLength(1);
    const request = sent[0] as Receiver['requests'][number];
    expect(request.headers['webhook-id']).toBe(delivery.event_id);
    expect(verified(secret, request)).toEqual(JSON.parse(request.body));
    const after = (await asAdmin('GET', `/subscriptions/${subscription.id}/deliveries`)).body as {
      deliveries: DeliveryView[];
    };
    expect(after.deliveries[1]).toMatchObject({ id: delivery.id, status: 'delivered', attempts: 2 });
  });

  test('a disabled subscription: 409, nothing queued', async () => {
    const delivery = deliveries[0] as DeliveryView;
    await asAdmin('PATCH', `/subscriptions/${subscription.id}`, { body: { active: false } });
    const from = receiver.requests.length;
    const answer = await asAdmin('POST', `/deliveries/${delivery.id}/redeliver`);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error: { code: 'conflict' } });
    await settle();
    expect(receiver.requests.length).toBe(from);
    await asAdmin('PATCH', `/subscriptions/${subscription.id}`, { body: { active: true } });
  });

  test.each(['pas-un-uuid', randomUUID()])('redeliver %s: 404', async (id) => {
    expect((await asAdmin('POST', `/deliveries/${id}/redeliver`)).status).toBe(404);
  });
});

describe('who may call', () => {
  const calls = (): [string, string, unknown?][] => [
    ['GET', '/subscriptions'],
    ['POST', '/subscriptions', { url: 'http://127.0.0.1/x' }],
    ['PATCH', `/subscriptions/${subscription.id}`, { active: false }],
    ['PATCH', `/subscriptions/${subscription.id}`, { events: ['prospect.created'] }],
    ['DELETE', `/subscriptions/${subscription.id}`],
    ['POST', `/subscriptions/${subscription.id}/secret`],
    ['GET', `/subscriptions/${subscription.id}/deliveries`],
    ['POST', `/deliveries/${randomUUID()}/redeliver`],
  ];

  test('a member (not admin): 403 on every route; an admin of another workspace: 404', async () => {
    for (const [method, path, body] of calls()) {
      const asMember = await api.request(method, `${base()}${path}`, { headers: bearer(ws.member), body });
      const asStranger = await api.request(method, `${base()}${path}`, { headers: bearer(other.admin), body });
      expect({ path, statuses: [asMember.status, asStranger.status] }).toEqual({ path, statuses: [403, 404] });
    }
    // Nothing changed: the subscription is still there, active, every type listed.
    expect((await asAdmin('GET', '/subscriptions')).body).toMatchObject({
      subscriptions: [{ id: subscription.id, active: true, events: [...eventTypes] }],
    });
  });

  test("another workspace's subscription is unknown in its own", async () => {
    const own = `/workspaces/${other.seed.workspace_id}/subscriptions/${subscription.id}`;
    expect((await api.request('DELETE', own, { headers: bearer(other.admin) })).status).toBe(404);
  });
});

describe('DELETE /subscriptions/{subscription_id}', () => {
  test('{ id, deleted: true }, audited; then 404', async () => {
    const path = `/subscriptions/${subscription.id}`;
    expect((await asAdmin('DELETE', path)).body).toEqual({ id: subscription.id, deleted: true });
    expect(await newestAudit()).toMatchObject({ action: 'subscription.deleted', member_id: ws.admin.memberId });
    expect((await asAdmin('DELETE', path)).status).toBe(404);
    expect((await asAdmin('GET', '/subscriptions')).body).toEqual({ subscriptions: [] });
  });
});
