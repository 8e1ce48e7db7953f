import { seedWorkspace } from '../../tools/seed/seed';
import { productionDeps } from '../../lib/storage/client';
import { startTestApi, type TestApi } from '../support/local-api';
import { countRoundTrips, type RoundTripCounter } from '../support/round-trips';
import { editWorkspaceConfig, partsOf } from '../../lib/storage/config-edits';
import { withNewField } from '../../lib/domain/fields/field-definitions';

/** The DynamoDB calls of each route, authorizer included, as docs/data-model.md lists them. */
const deps = productionDeps();
let api: TestApi;
let counter: RoundTripCounter;
let ws: Awaited<ReturnType<typeof seedWorkspace>>;

beforeAll(async () => {
  ws = await seedWorkspace(deps, {
    workspace: { name: 'Compteur' },
    tags: [{ key: 'vip', name: 'VIP' }],
    pipelines: [
      {
        key: 'sales',
        name: 'Ventes',
        is_default: true,
        active: true,
        stages: [
          { key: 'new', name: 'Nouveau', type: 'Follow up' },
          { key: 'fu', name: 'Relance', type: 'Follow up' },
        ],
      },
    ],
    recruitment_pipelines: [
      { key: 'devs', name: 'Devs', is_default: true, active: true, columns: [{ key: 'in', name: 'Reçue' }] },
    ],
    api_keys: [{ key: 'k', name: 'K', scopes: ['*'] }],
    webhook: { active: true },
  });
  counter = countRoundTrips(deps.db);
  api = await startTestApi({ db: deps.db });
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => counter.reset());

const lead = (body: object) =>
  api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: ws.webhook?.endpoint_id ?? '' },
    headers: { Authorization: `Bearer ${ws.webhook?.token}` },
    body,
  });

test('GET /pipelines: key, rate counter, configuration', async () => {
  const response = await api.request('GET', '/pipelines', {
    headers: { Authorization: `Bearer ${ws.api_keys.k?.secret}` },
  });
  expect(response.status).toBe(200);
  expect(counter.calls).toEqual(['GetItem', 'UpdateItem', 'GetItem']);
});

test('GET /members: key, rate counter, configuration (the members are in it)', async () => {
  const response = await api.request('GET', '/members', {
    headers: { Authorization: `Bearer ${ws.api_keys.k?.secret}` },
  });
  expect(response.status).toBe(200);
  expect(counter.calls).toEqual(['GetItem', 'UpdateItem', 'GetItem']);
});

test('new lead: one conditional write for token and last call, configuration with markers, one transaction', async () => {
  expect((await lead({ email: 'count@test.fr', phone: '+100' })).body).toMatchObject({ status: 'created' });
  expect(counter.calls).toEqual(['UpdateItem', 'BatchGetItem', 'TransactWriteItems']);
});

test('known lead: one transaction when it changes nothing (the check against the marker’s placement and the journal entry), one more when it does', async () => {
  await lead({ email: 'known@test.fr', phone: '+200', first_name: 'Léa' });
  counter.reset();
  expect((await lead({ email: 'known@test.fr', first_name: 'Léa' })).body).toMatchObject({ status: 'existing' });
  expect(counter.calls).toEqual(['UpdateItem', 'BatchGetItem', 'TransactWriteItems']);
  counter.reset();
  expect((await lead({ email: 'known@test.fr', first_name: 'Léa', tag_ids: [ws.tags.vip] })).body).toMatchObject({
    status: 'existing',
  });
  expect(counter.calls).toEqual(['UpdateItem', 'BatchGetItem', 'TransactWriteItems', 'TransactWriteItems']);
});

test('known lead moved since its marker was written: one more transaction, which refreshes the hint', async () => {
  const first = (await lead({ email: 'moved@test.fr' })).body as { prospect_id: string; stage_id: string };
  const patched = await api.request('PATCH', `/prospects/${first.prospect_id}`, {
    headers: { Authorization: `Bearer ${ws.api_keys.k?.secret}` },
    body: { stage: 'Relance' },
  });
  const movedTo = (patched.body as { stage_id: string }).stage_id;
  expect(movedTo).not.toBe(first.stage_id);
  counter.reset();
  expect((await lead({ email: 'moved@test.fr' })).body).toMatchObject({ status: 'existing', stage_id: movedTo });
  expect(counter.calls).toEqual(['UpdateItem', 'BatchGetItem', 'TransactWriteItems', 'TransactWriteItems']);
  counter.reset();
  expect((await lead({ email: 'moved@test.fr' })).body).toMatchObject({ status: 'existing', stage_id: movedTo });
  expect(counter.calls).toEqual(['UpdateItem', 'BatchGetItem', 'TransactWriteItems']);
});

test('known lead taking a new phone: the record, then one transaction', async () => {
  await lead({ email: 'mover@test.fr', phone: '+300' });
  counter.reset();
  expect((await lead({ email: 'mover@test.fr', phone: '+301' })).body).toMatchObject({ status: 'existing' });
  expect(counter.calls).toEqual(['UpdateItem', 'BatchGetItem', 'GetItem', 'TransactWriteItems']);
});

test('a call refused for its token: the refused check, the minute’s counter, its entry (from the 11th: the counting entry)', async () => {
  // One clock for the eleven calls: one minute, whatever the time it takes to send them.
  const minute = new Date();
  const refusing = await startTestApi({ db: deps.db, clock: () => minute });
  try {
    const refused = () =>
      refusing.request('POST', '/webhooks/ingest-lead', {
        query: { endpoint_id: ws.webhook?.endpoint_id ?? '' },
        headers: { Authorization: 'Bearer pas-le-bon-jeton' },
        body: { email: 'refus@test.fr' },
      });
    for (let call = 1; call <= 10; call += 1) {
      counter.reset();
      expect((await refused()).status).toBe(401);
      expect(counter.calls).toEqual(['UpdateItem', 'UpdateItem', 'PutItem']);
    }
    counter.reset();
    expect((await refused()).status).toBe(401);
    expect(counter.calls).toEqual(['UpdateItem', 'UpdateItem', 'UpdateItem']);
  } finally {
    await refusing.close();
  }
});

const application = (body: object) =>
  api.request('POST', '/webhooks/recruitment', {
    query: { endpoint_id: ws.webhook?.endpoint_id ?? '' },
    headers: { Authorization: `Bearer ${ws.webhook?.token}` },
    body,
  });

test('new candidate: token and last call in one write, configuration, one transaction', async () => {
  expect((await application({ email: 'cand@test.fr', name: 'A', answers: { Q: 'R' } })).body).toMatchObject({
    action: 'created',
  });
  expect(counter.calls).toEqual(['UpdateItem', 'GetItem', 'TransactWriteItems']);
});

test('known candidate: the refused transaction names the owner, then one transaction for the note and journal entry', async () => {
  await application({ email: 'again@test.fr', name: 'A' });
  counter.reset();
  expect((await application({ email: 'again@test.fr', name: 'A' })).body).toMatchObject({ action: 'existing' });
  expect(counter.calls).toEqual(['UpdateItem', 'GetItem', 'TransactWriteItems', 'TransactWriteItems']);
});

const prospectCall = (method: string, path: string, body?: unknown) =>
  api.request(method, path, { headers: { Authorization: `Bearer ${ws.api_keys.k?.secret}` }, body });

async function aLeadId(): Promise<string> {
  const response = await lead({ email: `${Math.random()}@round.trip` });
  counter.reset();
  return (response.body as { prospect_id: string }).prospect_id;
}

test('PATCH: key, rate counter, prospect with configuration, one transaction', async () => {
  const id = await aLeadId();
  await prospectCall('PATCH', `/prospects/${id}`, { follow_up_at: '2027-01-01T10:00:00Z' });
  expect(counter.calls).toEqual(['GetItem', 'UpdateItem', 'BatchGetItem', 'TransactWriteItems']);
});

test('POST note: key, rate counter, one transaction that also finds the prospect', async () => {
  const id = await aLeadId();
  expect((await prospectCall('POST', `/prospects/${id}/notes`, { content: 'x' })).status).toBe(201);
  expect(counter.calls).toEqual(['GetItem', 'UpdateItem', 'TransactWriteItems']);
});

test('POST and DELETE tag: key, rate counter, prospect with configuration, one transaction', async () => {
  const id = await aLeadId();
  const calls = ['GetItem', 'UpdateItem', 'BatchGetItem', 'TransactWriteItems'];
  expect((await prospectCall('POST', `/prospects/${id}/tags`, { tag: 'VIP' })).status).toBe(201);
  expect(counter.calls).toEqual(calls);
  counter.reset();
  expect((await prospectCall('DELETE', `/prospects/${id}/tags/VIP`)).status).toBe(200);
  expect(counter.calls).toEqual(calls);
});

test('PATCH or tag that changes nothing: one more read, the prospect alone and strongly consistent', async () => {
  const id = await aLeadId();
  const confirmed = ['GetItem', 'UpdateItem', 'BatchGetItem', 'BatchGetItem'];
  await prospectCall('PATCH', `/prospects/${id}`, { follow_up_at: '2027-01-01T10:00:00Z' });
  counter.reset();
  expect(
    (await prospectCall('PATCH', `/prospects/${id}`, { follow_up_at: '2027-01-01T10:00:00Z' })).body,
  ).toMatchObject({
    changed: [],
  });
  expect(counter.calls).toEqual(confirmed);
  counter.reset();
  expect((await prospectCall('DELETE', `/prospects/${id}/tags/VIP`)).body).toMatchObject({ outcome: 'absent' });
  expect(counter.calls).toEqual(confirmed);
});

test('read routes: GET prospect 3, look-up 4, a page of notes or changes 3 (first page or later)', async () => {
  const email = `${Math.random()}@lecture.test`;
  const id = ((await lead({ email })).body as { prospect_id: string }).prospect_id;
  await prospectCall('POST', `/prospects/${id}/notes`, { content: 'un' });
  await prospectCall('POST', `/prospects/${id}/notes`, { content: 'deux' });
  const expected: [string, string[]][] = [
    [`/prospects/${id}`, ['GetItem', 'UpdateItem', 'BatchGetItem']],
    [`/prospects?email=${encodeURIComponent(email)}`, ['GetItem', 'UpdateItem', 'BatchGetItem', 'GetItem']],
    [`/prospects/${id}/notes?limit=1`, ['GetItem', 'UpdateItem', 'Query']],
    [`/prospects/${id}/changes`, ['GetItem', 'UpdateItem', 'Query']],
  ];
  for (const [path, calls] of expected) {
    counter.reset();
    expect((await prospectCall('GET', path)).status).toBe(200);
    expect([path, counter.calls]).toEqual([path, calls]);
  }
  const { next_cursor: cursor } = (await prospectCall('GET', `/prospects/${id}/notes?limit=1`)).body as {
    next_cursor: string;
  };
  counter.reset();
  expect((await prospectCall('GET', `/prospects/${id}/notes?limit=1&cursor=${cursor}`)).status).toBe(200);
  expect(counter.calls).toEqual(['GetItem', 'UpdateItem', 'Query']);
});

test('a list’s page: 5 by creation, by id, by follow-up; by last change, one Query per stage (in parallel)', async () => {
  const id = ((await lead({ email: `${Math.random()}@liste.test` })).body as { prospect_id: string }).prospect_id;
  await prospectCall('PATCH', `/prospects/${id}`, { follow_up_at: '2999-01-01T09:00:00Z' });
  const page = ['GetItem', 'UpdateItem', 'GetItem', 'Query', 'BatchGetItem'];
  const expected: [string, string[]][] = [
    ['/prospects?limit=2', page],
    ['/prospects?sort=next_follow_up_at&follow_up=any', page],
    [`/prospects?id=${id}`, ['GetItem', 'UpdateItem', 'GetItem', 'BatchGetItem']],
    ['/prospects?sort=-updated_at&stage=Nouveau&limit=1', page],
  ];
  for (const [path, calls] of expected) {
    counter.reset();
    expect((await prospectCall('GET', path)).status).toBe(200);
    expect([path, counter.calls]).toEqual([path, calls]);
  }
});

test("custom fields: PATCH as any, a page of changes holding a field's entry reads the fields too (4)", async () => {
  await editWorkspaceConfig(deps, ws.workspace_id, (config) => ({
    ...partsOf(config),
    fields: withNewField(config, { key: 'budget', label: 'Budget', type: 'number' }),
  }));
  const id = await aLeadId();
  expect((await prospectCall('PATCH', `/prospects/${id}`, { fields: { budget: 12 } })).status).toBe(200);
  expect(counter.calls).toEqual(['GetItem', 'UpdateItem', 'BatchGetItem', 'TransactWriteItems']);
  counter.reset();
  expect((await prospectCall('GET', `/prospects/${id}`)).body).toMatchObject({ fields: { budget: 12 } });
  expect(counter.calls).toEqual(['GetItem', 'UpdateItem', 'BatchGetItem']);
  counter.reset();
  expect((await prospectCall('GET', `/prospects/${id}/changes`)).status).toBe(200);
  expect(counter.calls).toEqual(['GetItem', 'UpdateItem', 'Query', 'GetItem']);
});

test('a non-UUID prospect id: nothing read beyond the credential and its counter', async () => {
  expect((await prospectCall('PATCH', '/prospects/not-a-uuid', { stage: 'Nouveau' })).status).toBe(404);
  expect(counter.calls).toEqual(['GetItem', 'UpdateItem']);
});
