import { randomUUID } from 'node:crypto';
import { listAudit } from '../../lib/settings/audit';
import { productionDeps } from '../../lib/storage/client';
import { captureLogs, type CapturedLogs } from '../support/captured-logs';
import { startLocalApi, type TestApi } from '../support/local-api';
import { countRoundTrips, type RoundTripCounter } from '../support/round-trips';
import { bearer, workspaceWithPeople, type PeopleWorkspace, type Person } from '../support/people';
import { aWorkspace } from '../support/seed';

/*
 * The workspace's webhook over the settings API (docs/api.md#settings-api), through the local server with real sign-in:
 * GET /webhook, POST /webhook/token, PATCH /webhook (admin only). A token generated here works on the lead
 * webhook, and the one it replaces fails on its next call; the token is in the generating answer only.
 */

const deps = productionDeps();
let api: TestApi;
/** A workspace seeded without a webhook: the first generation is the API's. */
let ws: PeopleWorkspace;
let other: PeopleWorkspace;
let logs: CapturedLogs;
let counter: RoundTripCounter;

beforeAll(async () => {
  counter = countRoundTrips(deps.db);
  api = await startLocalApi({ db: deps.db });
  ws = await workspaceWithPeople(api, { ...aWorkspace(), webhook: undefined });
  other = await workspaceWithPeople(api);
  logs = captureLogs('DEBUG');
});
afterAll(async () => {
  logs.restore();
  await api.close();
  deps.db.destroy();
});

type Generated = { endpoint_id: string; url: string; token: string };
const under = (suffix: string, workspaceId = ws.seed.workspace_id) => `/workspaces/${workspaceId}${suffix}`;
const status = (person: Person = ws.admin) => api.request('GET', under('/webhook'), { headers: bearer(person) });
const generate = (person: Person = ws.admin, body?: unknown) =>
  api.request('POST', under('/webhook/token'), { headers: bearer(person), body });
const setActive = (body: unknown, person: Person = ws.admin) =>
  api.request('PATCH', under('/webhook'), { headers: bearer(person), body });
const lead = (endpointId: string, token: string, email: string) =>
  api.request('POST', '/webhooks/ingest-lead', {
    headers: { Authorization: `Bearer ${token}` },
    query: { endpoint_id: endpointId },
    body: { email },
  });
const tokens: string[] = [];

test('none generated yet: GET and PATCH answer 404', async () => {
  expect((await status()).status).toBe(404);
  expect((await status()).body).toMatchObject({ error: { code: 'not_found' } });
  expect((await setActive({ active: false })).status).toBe(404);
});

test('POST /webhook/token: 201 the `webhook generate` document; the token works on the lead webhook', async () => {
  const generated = await generate();
  expect(generated.status).toBe(201);
  const { endpoint_id, token, url } = generated.body as Generated;
  tokens.push(token);
  expect(generated.body).toEqual({
    endpoint_id: expect.any(String),
    url: `${api.url}/webhooks/ingest-lead?endpoint_id=${endpoint_id}`,
    token: expect.stringMatching(/^crm_whk_/),
  });
  // The URL shown is the one to call, as given.
  const viaUrl = await api.request('POST', new URL(url).pathname + new URL(url).search, {
    headers: { Authorization: `Bearer ${token}` },
    body: { email: `premier-${randomUUID()}@acme.test` },
  });
  expect(viaUrl.status).toBe(200);

  const shown = await status();
  expect(shown.status).toBe(200);
  expect(shown.body).toEqual({
    endpoint_id,
    url,
    active: true,
    last_call_at: expect.stringMatching(/Z$/),
    recruitment_url: `${api.url}/webhooks/recruitment?endpoint_id=${endpoint_id}`,
  });
  expect(shown.text).not.toContain(token);
  const { entries } = await listAudit(deps, { workspaceId: ws.seed.workspace_id });
  expect(entries.find((entry) => entry.target_id === endpoint_id)).toMatchObject({
    action: 'webhook.token_generated',
    member_id: ws.admin.memberId,
  });
});

test('POST again: a new token on the same endpoint; the old one fails on its next call', async () => {
  const first = (await status()).body as { endpoint_id: string };
  const old = tokens.at(-1) as string;
  const regenerated = await generate(ws.admin, {});
  expect(regenerated.status).toBe(201);
  const { endpoint_id, token } = regenerated.body as Generated;
  tokens.push(token);
  expect(endpoint_id).toBe(first.endpoint_id);
  expect(token).not.toBe(old);
  expect((await lead(endpoint_id, old, `ancien-${randomUUID()}@acme.test`)).status).toBe(401);
  expect((await lead(endpoint_id, token, `nouveau-${randomUUID()}@acme.test`)).status).toBe(200);
  const { entries } = await listAudit(deps, { workspaceId: ws.seed.workspace_id });
  expect(entries.filter((entry) => entry.action === 'webhook.token_generated')).toHaveLength(2);
});

test('PATCH { active }: the `webhook status` document; a disabled webhook answers 401; audited', async () => {
  const { endpoint_id } = (await status()).body as { endpoint_id: string };
  const token = tokens.at(-1) as string;
  const disabled = await setActive({ active: false });
  expect(disabled.status).toBe(200);
  expect(disabled.body).toEqual({
    endpoint_id,
    url: `${api.url}/webhooks/ingest-lead?endpoint_id=${endpoint_id}`,
    active: false,
    last_call_at: expect.any(String),
  });
  expect((await lead(endpoint_id, token, `coupe-${randomUUID()}@acme.test`)).status).toBe(401);
  const enabled = await setActive({ active: true });
  expect(enabled.body).toMatchObject({ active: true });
  expect((await lead(endpoint_id, token, `rouvert-${randomUUID()}@acme.test`)).status).toBe(200);
  const { entries } = await listAudit(deps, { workspaceId: ws.seed.workspace_id });
  const actions = entries.filter((entry) => entry.target_id === endpoint_id).map((entry) => entry.action);
  expect(actions.slice(0, 2)).toEqual(['webhook.enabled', 'webhook.disabled']);
  expect(entries.every((entry) => entry.member_id === ws.admin.memberId)).toBe(true);
});

test('admin only: a member is refused every webhook route (403), whatever the body', async () => {
  expect((await status(ws.member)).status).toBe(403);
  expect((await generate(ws.member)).status).toBe(403);
  expect((await setActive({ active: false }, ws.member)).status).toBe(403);
  expect((await setActive('pas du JSON', ws.member)).status).toBe(403);
});

test('another workspace: 404 on every webhook route, its webhook untouched', async () => {
  for (const [method, path, body] of [
    ['GET', '/webhook', undefined],
    ['POST', '/webhook/token', undefined],
    ['PATCH', '/webhook', { active: false }],
  ] as const) {
    const response = await api.request(method, under(path, other.seed.workspace_id), {
      headers: bearer(ws.admin),
      body,
    });
    expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
  }
  const seeded = other.seed.webhook as { endpoint_id: string; token: string };
  expect((await lead(seeded.endpoint_id, seeded.token, `autre-${randomUUID()}@acme.test`)).status).toBe(200);
});

test('bad bodies: 400 naming the field', async () => {
  for (const [body, field] of [
    [{}, 'active'],
    [{ active: 'false' }, 'active'],
    [{ active: true, token: 'x' }, 'token'],
  ] as const) {
    const response = await setActive(body);
    expect({ body, status: response.status }).toEqual({ body, status: 400 });
    expect(response.body).toMatchObject({ error: { code: 'bad_request', details: { field } } });
  }
  expect((await setActive('pas du JSON')).status).toBe(400);
  expect((await generate(ws.admin, { token: 'le mien' })).status).toBe(400);
});

test('round trips: the authorizer’s one BatchGetItem, the member’s counter, then what `webhook …` reads and writes', async () => {
  const gate = ['BatchGetItem', 'UpdateItem'];
  const trips = async (call: () => Promise<{ status: number }>) => {
    counter.reset();
    expect((await call()).status).toBeLessThan(300);
    return [...counter.calls];
  };
  expect(await trips(() => status())).toEqual([...gate, 'GetItem', 'GetItem']);
  const generating = async () => {
    const generated = await generate();
    tokens.push((generated.body as Generated).token);
    return generated;
  };
  expect(await trips(generating)).toEqual([...gate, 'GetItem', 'TransactWriteItems']);
  expect(await trips(() => setActive({ active: true }))).toEqual([...gate, 'GetItem', 'TransactWriteItems', 'GetItem']);
});

test('no token in any log line, nor in the audit log', async () => {
  const written = logs.raw().join('\n');
  const { entries } = await listAudit(deps, { workspaceId: ws.seed.workspace_id });
  for (const token of tokens) {
    expect(written).not.toContain(token);
    expect(JSON.stringify(entries)).not.toContain(token);
  }
  expect(written).not.toMatch(/crm_whk_/);
});
