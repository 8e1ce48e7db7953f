import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { messages } from '../../lib/messages';
import { listAudit } from '../../lib/settings/audit';
import type { WebhookCallView } from '../../lib/domain/webhook-call-view';
import { productionDeps } from '../../lib/storage/client';
import { startLocalApi, type TestApi } from '../support/local-api';
import { bearer, workspaceWithPeople, type PeopleWorkspace } from '../support/people';
import { countRoundTrips } from '../support/round-trips';
import { aWorkspace } from '../support/seed';

/**
 * The settings API's webhook call journal and replay over HTTP (docs/api.md#webhook-call-journal, #settings-api): admin
 * routes on the admin command line's use cases (lib/settings/webhook-call-replay.ts), signed in for real.
 */

const deps = productionDeps();
const counter = countRoundTrips(deps.db);
let api: TestApi;
let ws: PeopleWorkspace;
let other: PeopleWorkspace;

beforeAll(async () => {
  api = await startLocalApi({ db: deps.db });
  ws = await workspaceWithPeople(api, aWorkspace({ prospects: [] }));
  other = await workspaceWithPeople(api, aWorkspace({ prospects: [] }));
}, 60_000);
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const base = () => `/workspaces/${ws.seed.workspace_id}`;
const asAdmin = (method: string, path: string, options: { query?: Record<string, string>; body?: unknown } = {}) =>
  api.request(method, `${base()}${path}`, { ...options, headers: bearer(ws.admin) });

/** A lead through the lead webhook of the workspace, on `through` (an API whose table may fail). */
const lead = (through: TestApi, body: unknown) =>
  through.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: ws.seed.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${ws.seed.webhook?.token}` },
    body,
  });

/** The table as an outage leaves it for writes: every transaction fails (a new lead's write is one). */
function transactionsFail(db: DynamoDBDocumentClient): DynamoDBDocumentClient {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: { constructor: { name: string } }) =>
        command.constructor.name === 'TransactWriteCommand'
          ? Promise.reject(new Error('DynamoDB injoignable (test)'))
          : target.send(command as never);
    },
  });
}

const calls = (answer: { body: unknown }) => (answer.body as { calls: WebhookCallView[] }).calls;

/** Journaled in this order: a lead lost to an outage (500, body kept), one created (200, no body), one cut at 64 KB. */
let lost: WebhookCallView;
let created: WebhookCallView;
let cut: WebhookCallView;
const lostLead = { first_name: 'Perdu', email: `${randomUUID()}@exemple.test` };

beforeAll(async () => {
  const outage = await startLocalApi({ db: transactionsFail(deps.db) });
  const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  expect((await lead(outage, lostLead)).status).toBe(500);
  quiet.mockRestore();
  await outage.close();
  expect((await lead(api, { first_name: 'Reçu', email: `${randomUUID()}@exemple.test` })).status).toBe(200);
  expect((await lead(api, { first_name: 'Sans contact', commentaire: `x${'é'.repeat(40_000)}` })).status).toBe(400);
  const listed = calls(await asAdmin('GET', '/webhook/calls'));
  [cut, created, lost] = listed as [WebhookCallView, WebhookCallView, WebhookCallView];
  expect([lost.status, created.status, cut.status, cut.body_truncated]).toEqual([500, 200, 400, true]);
}, 60_000);

describe('GET /webhook/calls', () => {
  test('every call, newest first, by pages; failed=true the failed ones', async () => {
    const all = await asAdmin('GET', '/webhook/calls');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ calls: [cut, created, lost], next_cursor: null });
    expect(lost).toEqual({
      id: expect.any(String),
      at: expect.any(String),
      route: 'ingest-lead',
      status: 500,
      outcome: 'ingest_failed',
      record_id: null,
      placement: null,
      pipeline_id: null,
      stage_id: null,
      warnings: [],
      message: messages.failure.leadNotSaved,
      request_id: expect.any(String),
      count: 1,
      body_truncated: false,
    });
    const failed = await asAdmin('GET', '/webhook/calls', { query: { failed: 'true' } });
    expect(failed.body).toEqual({ calls: [cut, lost], next_cursor: null });

    const first = await asAdmin('GET', '/webhook/calls', { query: { failed: 'true', limit: '1' } });
    const { next_cursor: cursor } = first.body as { next_cursor: string };
    expect(first.body).toEqual({ calls: [cut], next_cursor: expect.any(String) });
    const second = await asAdmin('GET', '/webhook/calls', { query: { failed: 'true', limit: '1', cursor } });
    expect(second.body).toEqual({ calls: [lost], next_cursor: null });
    // A cursor of the failed calls is not one of the whole journal.
    const mixed = await asAdmin('GET', '/webhook/calls', { query: { limit: '1', cursor } });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toMatchObject({ error: { code: 'bad_request', details: { field: 'cursor' } } });
  });

  test.each([
    [{ failed: 'oui' }, 'failed'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ cursor: 'pas-un-curseur' }, 'cursor'],
  ])('%j: 400 naming %s', async (query, field) => {
    const answer = await asAdmin('GET', '/webhook/calls', { query });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: 'bad_request', details: { field } } });
  });
});

describe('GET /webhook/calls/{call_id}', () => {
  test('the call and its kept body; a cut body as its text; none kept: null', async () => {
    expect((await asAdmin('GET', `/webhook/calls/${lost.id}`)).body).toEqual({ call: lost, body: lostLead });
    expect((await asAdmin('GET', `/webhook/calls/${created.id.toUpperCase()}`)).body).toEqual({
      call: created,
      body: null,
    });
    const shown = (await asAdmin('GET', `/webhook/calls/${cut.id}`)).body as { body: { raw: string } };
    // Its first 64 KB, cut on a character: the start of what was sent.
    expect(shown.body.raw.startsWith('{"first_name":"Sans contact","commentaire":"xé')).toBe(true);
    expect(Buffer.byteLength(shown.body.raw)).toBeGreaterThan(64 * 1024 - 4);
    expect(Buffer.byteLength(shown.body.raw)).toBeLessThanOrEqual(64 * 1024);
  });

  test.each(['pas-un-uuid', randomUUID()])('%s: 404', async (id) => {
    const answer = await asAdmin('GET', `/webhook/calls/${id}`);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('POST /webhook/calls/{call_id}/replay', () => {
  test('a failed call replayed now succeeds: the new call and the answer, with its audit entry', async () => {
    const answer = await asAdmin('POST', `/webhook/calls/${lost.id}/replay`);
    expect(answer.status).toBe(200);
    const replay = answer.body as {
      call: WebhookCallView;
      response: { status: number; body: { prospect_id: string } };
    };
    expect(replay).toEqual({
      call: expect.objectContaining({ status: 200, outcome: 'created', record_id: replay.response.body.prospect_id }),
      response: { status: 200, body: expect.objectContaining({ status: 'created' }) },
    });
    expect(replay.call.id).not.toBe(lost.id);
    const { entries } = await listAudit(deps, { workspaceId: ws.seed.workspace_id });
    expect(entries[0]).toMatchObject({
      member_id: ws.admin.memberId,
      action: 'webhook_call.replayed',
      target_id: lost.id,
    });
    // The replay is a call of the journal, listed first.
    expect(calls(await asAdmin('GET', '/webhook/calls'))[0]).toEqual(replay.call);
  });

  test.each([
    ['no body kept', () => created],
    ['a body cut at 64 KB', () => cut],
  ])('%s: 422, nothing replayed', async (_case, call) => {
    const before = calls(await asAdmin('GET', '/webhook/calls')).length;
    const answer = await asAdmin('POST', `/webhook/calls/${call().id}/replay`);
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: { code: 'unprocessable' } });
    expect(calls(await asAdmin('GET', '/webhook/calls'))).toHaveLength(before);
  });

  test.each(['pas-un-uuid', randomUUID()])('%s: 404', async (id) => {
    expect((await asAdmin('POST', `/webhook/calls/${id}/replay`)).status).toBe(404);
  });
});

test('round trips: after the authorizer and the member’s counter, the workspace and the call in one BatchGetItem; a replay then runs the webhook, and writes its audit entry while it reads the new call', async () => {
  const gate = ['BatchGetItem', 'UpdateItem'];
  expect((await lead(api, { first_name: 'Sans contact' })).status).toBe(400);
  const [refused] = calls(await asAdmin('GET', '/webhook/calls', { query: { limit: '1' } }));
  counter.reset();
  expect((await asAdmin('GET', `/webhook/calls/${refused?.id}`)).status).toBe(200);
  expect(counter.calls).toEqual([...gate, 'BatchGetItem']);
  counter.reset();
  const replayed = await asAdmin('POST', `/webhook/calls/${refused?.id}/replay`);
  expect(replayed.body).toMatchObject({ call: { status: 400 }, response: { status: 400 } });
  // The webhook refuses the lead before any read, and journals it (PutItem); the last two run together.
  expect(counter.calls.slice(0, 4)).toEqual([...gate, 'BatchGetItem', 'PutItem']);
  expect(counter.calls.slice(4).sort()).toEqual(['PutItem', 'Query']);
});

describe('who may call', () => {
  const paths = () => [
    ['GET', '/webhook/calls'],
    ['GET', `/webhook/calls/${lost.id}`],
    ['POST', `/webhook/calls/${lost.id}/replay`],
  ];

  test('a member (not admin): 403 on every route', async () => {
    for (const [method, path] of paths()) {
      const answer = await api.request(method as string, `${base()}${path}`, { headers: bearer(ws.member) });
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
    }
  });

  test('an admin of another workspace: 404 on every route of this one, its own call ids unknown in its own', async () => {
    for (const [method, path] of paths()) {
      const answer = await api.request(method as string, `${base()}${path}`, { headers: bearer(other.admin) });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      const own = `/workspaces/${other.seed.workspace_id}${path}`;
      if (path !== '/webhook/calls') {
        expect((await api.request(method as string, own, { headers: bearer(other.admin) })).status).toBe(404);
      }
    }
  });

  test('no token: 401', async () => {
    expect((await api.request('GET', `${base()}/webhook/calls`)).status).toBe(401);
  });
});
