import { randomUUID } from 'node:crypto';
import { listAudit } from '../../lib/settings/audit';
import { productionDeps } from '../../lib/storage/client';
import { captureLogs, type CapturedLogs } from '../support/captured-logs';
import { startLocalApi, type TestApi } from '../support/local-api';
import { countRoundTrips, type RoundTripCounter } from '../support/round-trips';
import { bearer, workspaceWithPeople, type PeopleWorkspace } from '../support/people';

/*
 * The workspace and its API keys over the settings API (docs/api.md#settings-api), through the local server with real
 * sign-in: GET /workspaces/{w}, GET and POST /api-keys, DELETE /api-keys/{k}, GET /api-keys/{k}/changes. A key
 * made here works on the Prospect API and fails once revoked; its value is in the creating answer only.
 */

const deps = productionDeps();
let api: TestApi;
let ws: PeopleWorkspace;
let other: PeopleWorkspace;
let logs: CapturedLogs;
let counter: RoundTripCounter;

beforeAll(async () => {
  counter = countRoundTrips(deps.db);
  api = await startLocalApi({ db: deps.db });
  [ws, other] = [await workspaceWithPeople(api), await workspaceWithPeople(api)];
  logs = captureLogs('DEBUG');
});
afterAll(async () => {
  logs.restore();
  await api.close();
  deps.db.destroy();
});

const under = (suffix = '', workspaceId = ws.seed.workspace_id) => `/workspaces/${workspaceId}${suffix}`;
const errorBody = (code: string) => ({ error: expect.objectContaining({ code, message: expect.any(String) }) });
const keyRequest = (body: unknown, person = ws.admin) =>
  api.request('POST', under('/api-keys'), { headers: bearer(person), body });

describe('GET /workspaces/{workspace_id}', () => {
  test('the workspace as `workspace show` has it, with the caller’s role', async () => {
    for (const [person, role] of [
      [ws.admin, 'admin'],
      [ws.member, 'member'],
    ] as const) {
      const response = await api.request('GET', under(), { headers: bearer(person) });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: ws.seed.workspace_id,
        name: 'Acme',
        phone_matching: 'exact',
        phone_region: 'FR',
        time_zone: 'Europe/Paris',
        retention_months: null,
        created_at: expect.stringMatching(/Z$/),
        role,
      });
    }
  });

  test('another workspace’s person, and an unknown or malformed workspace id: 404', async () => {
    for (const path of [under('', other.seed.workspace_id), under('', randomUUID()), '/workspaces/pas-un-id']) {
      const response = await api.request('GET', path, { headers: bearer(ws.admin) });
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
  });
});

describe('API keys', () => {
  test('POST: 201 the `apikey create` document; the key works on the Prospect API; audited with the admin', async () => {
    const created = await keyRequest({ name: 'Intégration', scopes: ['pipelines:read'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Intégration',
      scopes: ['pipelines:read'],
      secret: expect.stringMatching(/^crm_key_/),
    });
    const { id, secret } = created.body as { id: string; secret: string };
    const pipelines = await api.request('GET', '/pipelines', { headers: { Authorization: `Bearer ${secret}` } });
    expect(pipelines.status).toBe(200);

    const { entries } = await listAudit(deps, { workspaceId: ws.seed.workspace_id });
    const entry = entries.find((candidate) => candidate.target_id === id);
    expect(entry).toMatchObject({ action: 'api_key.created', member_id: ws.admin.memberId });
    expect(JSON.stringify(entries)).not.toContain(secret);
  });

  test('POST without scopes: the five; the list shows it without its value, to a member too', async () => {
    const created = await keyRequest({ name: 'Tous les droits' });
    expect(created.status).toBe(201);
    const { id, secret, scopes } = created.body as { id: string; secret: string; scopes: string[] };
    expect(scopes).toHaveLength(5);
    const listed = await api.request('GET', under('/api-keys'), { headers: bearer(ws.member) });
    expect(listed.status).toBe(200);
    expect((listed.body as { api_keys: unknown[] }).api_keys).toContainEqual({
      id,
      name: 'Tous les droits',
      scopes,
      created_at: expect.any(String),
      revoked_at: null,
    });
    expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toContain('fingerprint');
  });

  test('DELETE: the `apikey revoke` document; the key fails on its next call; audited; listed as revoked', async () => {
    const created = await keyRequest({ name: 'À révoquer' });
    const { id, secret } = created.body as { id: string; secret: string };
    const asKey = { headers: { Authorization: `Bearer ${secret}` } };
    expect((await api.request('GET', '/pipelines', asKey)).status).toBe(200);

    const revoked = await api.request('DELETE', under(`/api-keys/${id}`), { headers: bearer(ws.admin) });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ id, revoked_at: expect.stringMatching(/Z$/) });
    expect((await api.request('GET', '/pipelines', asKey)).status).toBe(401);

    const listed = await api.request('GET', under('/api-keys'), { headers: bearer(ws.admin) });
    const keys = (listed.body as { api_keys: { id: string; revoked_at: string | null }[] }).api_keys;
    expect(keys.find((key) => key.id === id)?.revoked_at).toBe((revoked.body as { revoked_at: string }).revoked_at);
    const { entries } = await listAudit(deps, { workspaceId: ws.seed.workspace_id });
    expect(entries.find((entry) => entry.action === 'api_key.revoked' && entry.target_id === id)).toMatchObject({
      member_id: ws.admin.memberId,
    });
  });

  test('GET /api-keys/{k}/changes: the key’s changes, newest first, a page at a time; a member may read them', async () => {
    const created = await keyRequest({ name: 'Journal' });
    const { id, secret } = created.body as { id: string; secret: string };
    const asKey = { Authorization: `Bearer ${secret}` };
    const lead = await api.request('GET', '/prospects', {
      headers: asKey,
      query: { email: 'sold@acme.test' },
    });
    const prospectId = (lead.body as { prospects: { id: string }[] }).prospects[0]?.id as string;
    for (const day of ['01', '02', '03']) {
      const body = { follow_up_at: `2027-01-${day}T10:00:00Z` };
      const patched = await api.request('PATCH', `/prospects/${prospectId}`, { headers: asKey, body });
      expect(patched.status).toBe(200);
    }
    const path = under(`/api-keys/${id}/changes`);
    const first = await api.request('GET', path, { headers: bearer(ws.member), query: { limit: '2' } });
    expect(first.status).toBe(200);
    const page1 = first.body as { changes: { key_id: string; after: unknown }[]; next_cursor: string };
    expect(page1.changes.map((change) => String(change.after).slice(0, 10))).toEqual(['2027-01-03', '2027-01-02']);
    expect(page1.changes.every((change) => change.key_id === id)).toBe(true);
    const second = await api.request('GET', path, {
      headers: bearer(ws.member),
      query: { limit: '2', cursor: page1.next_cursor },
    });
    expect(second.body).toEqual({
      changes: [expect.objectContaining({ after: expect.stringMatching(/^2027-01-01/) })],
      next_cursor: null,
    });

    for (const query of [{ limit: '0' }, { limit: 'deux' }, { cursor: 'pas-un-curseur' }] as Record<string, string>[]) {
      const refused = await api.request('GET', path, { headers: bearer(ws.member), query });
      expect({ query, status: refused.status }).toEqual({ query, status: 400 });
    }
    const elsewhere = await api.request('GET', under(`/api-keys/${randomUUID()}/changes`), {
      headers: bearer(ws.member),
      query: { cursor: page1.next_cursor },
    });
    expect(elsewhere.status).toBe(400);
  });

  test('a member may not create or revoke (403); another workspace’s key, unknown and malformed ids: 404', async () => {
    expect((await keyRequest({ name: 'Non' }, ws.member)).status).toBe(403);
    const otherKey = (await keyRequest({ name: 'Ailleurs' }, other.admin)).body as { id: string };
    expect(
      (await api.request('DELETE', under(`/api-keys/${otherKey.id}`), { headers: bearer(ws.member) })).status,
    ).toBe(403);
    for (const keyId of [otherKey.id, randomUUID(), 'pas-un-id', '%E9']) {
      const revoke = await api.request('DELETE', under(`/api-keys/${keyId}`), { headers: bearer(ws.admin) });
      const changes = await api.request('GET', under(`/api-keys/${keyId}/changes`), { headers: bearer(ws.member) });
      expect({ keyId, revoke: revoke.status, changes: changes.status }).toEqual({ keyId, revoke: 404, changes: 404 });
      expect(revoke.body).toEqual(errorBody('not_found'));
    }
    for (const [method, path] of [
      ['GET', '/api-keys'],
      ['POST', '/api-keys'],
      ['GET', ''],
    ] as const) {
      const response = await api.request(method, under(path, other.seed.workspace_id), {
        headers: bearer(ws.admin),
        body: method === 'POST' ? { name: 'X' } : undefined,
      });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
    }
  });

  test('bad bodies: 400 naming the field, nothing created', async () => {
    const before = await api.request('GET', under('/api-keys'), { headers: bearer(ws.admin) });
    for (const [body, field] of [
      [{ name: 'X', extra: 1 }, 'extra'],
      [{ name: 42 }, 'name'],
      [{}, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'X', scopes: 'pipelines:read' }, 'scopes'],
      [{ name: 'X', scopes: ['lecture'] }, 'scopes'],
      [{ name: 'X', scopes: [] }, 'scopes'],
      [{ name: 'x'.repeat(201) }, 'name'],
    ] as const) {
      const response = await keyRequest(body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.body).toMatchObject({ error: { code: 'bad_request', details: { field } } });
    }
    expect((await keyRequest('pas du JSON')).status).toBe(400);
    const after = await api.request('GET', under('/api-keys'), { headers: bearer(ws.admin) });
    expect(after.body).toEqual(before.body);
  });

  test('round trips: the authorizer’s one BatchGetItem, the member’s counter, then what `apikey …` reads and writes', async () => {
    const trips = async (method: string, path: string, body?: unknown) => {
      counter.reset();
      const response = await api.request(method, under(path), { headers: bearer(ws.admin), body });
      expect(response.status).toBeLessThan(300);
      return [...counter.calls];
    };
    const gate = ['BatchGetItem', 'UpdateItem'];
    expect(await trips('GET', '')).toEqual([...gate, 'GetItem']);
    expect(await trips('GET', '/api-keys')).toEqual([...gate, 'GetItem', 'Query']);
    const created = await keyRequest({ name: 'Comptée' });
    const { id } = created.body as { id: string };
    expect(await trips('POST', '/api-keys', { name: 'Comptée aussi' })).toEqual([
      ...gate,
      'GetItem',
      'TransactWriteItems',
    ]);
    // The key among the workspace's keys and a page of its log, two Queries at once.
    expect(await trips('GET', `/api-keys/${id}/changes`)).toEqual([...gate, 'Query', 'Query']);
    expect(await trips('DELETE', `/api-keys/${id}`)).toEqual([...gate, 'GetItem', 'Query', 'TransactWriteItems']);
  });

  test('no key value in any log line of these calls', () => {
    const written = logs.raw().join('\n');
    expect(written).not.toMatch(/crm_key_/);
    expect(written).not.toContain(ws.admin.accessToken);
  });
});
