import { productionDeps } from '../../lib/storage/client';
import { loadWorkspaceConfig } from '../../lib/storage/workspace-config';
import { startLocalApi, type TestApi } from '../support/local-api';
import { countRoundTrips, type RoundTripCounter } from '../support/round-trips';
import { bearer, workspaceWithPeople, type PeopleWorkspace } from '../support/people';
import { workspaceSettingsCalls } from '../support/workspace-settings';

/*
 * The workspace's time zone over the settings API (docs/api.md#workspaces), through the local server with real
 * sign-in: GET /workspaces/{w} shows it (Europe/Paris until set), PATCH /workspaces/{w} (admin) sets it by a
 * configuration edit with its audit entry, and refuses what is no known IANA zone, naming the field, writing nothing.
 */

const deps = productionDeps();
let api: TestApi;
let ws: PeopleWorkspace;
let other: PeopleWorkspace;
let counter: RoundTripCounter;

beforeAll(async () => {
  counter = countRoundTrips(deps.db);
  api = await startLocalApi({ db: deps.db });
  [ws, other] = [await workspaceWithPeople(api), await workspaceWithPeople(api)];
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const { under, show, change, storedItem, workspaceAudit } = workspaceSettingsCalls(deps, () => ({ api, ws }));

/** What a refused PATCH must leave: the configuration item as it was, and no audit entry. */
async function expectNothingWritten(write: () => Promise<unknown>, workspaceId = ws.seed.workspace_id) {
  const [item, entries] = [await storedItem(workspaceId), await workspaceAudit(workspaceId)];
  await write();
  expect(await storedItem(workspaceId)).toEqual(item);
  expect(await workspaceAudit(workspaceId)).toEqual(entries);
}

// The tests below run in order: the first sees the workspace as seeded, the next ones the zone it set.
test('GET: a workspace that never set its zone answers Europe/Paris, to a member', async () => {
  const response = await show();
  expect(response.status).toBe(200);
  expect(response.body).toEqual({
    id: ws.seed.workspace_id,
    name: expect.any(String),
    phone_matching: 'exact',
    phone_region: 'FR',
    time_zone: 'Europe/Paris',
    retention_months: null,
    created_at: expect.any(String),
    role: 'member',
  });
  expect(await storedItem()).not.toHaveProperty('time_zone');
});

test('PATCH: 200 with the document GET answers, the zone stored on the configuration item, audited with the admin', async () => {
  const version = (await storedItem()).config_version as number;
  const changed = await change({ time_zone: 'America/Montreal' });
  expect(changed.status).toBe(200);
  const shown = await show(ws.admin);
  expect(changed.body).toEqual(shown.body);
  expect(shown.body).toMatchObject({ time_zone: 'America/Montreal', role: 'admin' });
  expect((await show(ws.member)).body).toMatchObject({ time_zone: 'America/Montreal', role: 'member' });
  expect(await storedItem()).toMatchObject({ time_zone: 'America/Montreal', config_version: version + 1 });
  expect(await workspaceAudit()).toEqual([
    {
      id: expect.any(String),
      at: expect.any(String),
      member_id: ws.admin.memberId,
      action: 'workspace.time_zone_changed',
      target_id: ws.seed.workspace_id,
      summary: "Réglage de l'espace modifié : fuseau horaire Europe/Paris → America/Montreal.",
    },
  ]);
  // Every route that reads the configuration has the zone with it: the one read of the configuration item.
  expect((await loadWorkspaceConfig(deps, ws.seed.workspace_id)).settings.time_zone).toBe('America/Montreal');
});

test('PATCH: the zone the workspace already has writes nothing and answers the workspace', async () => {
  await expectNothingWritten(async () => {
    const again = await change({ time_zone: 'America/Montreal' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual((await show(ws.admin)).body);
  });
});

test.each([
  ['a place the database does not have', { time_zone: 'Europe/Lyon' }, 'time_zone'],
  ['a fixed offset', { time_zone: '+02:00' }, 'time_zone'],
  ['an abbreviation', { time_zone: 'CEST' }, 'time_zone'],
  ['an empty name', { time_zone: '' }, 'time_zone'],
  ['a name past 64 characters', { time_zone: `Europe/${'P'.repeat(60)}` }, 'time_zone'],
  ['a number', { time_zone: 2 }, 'time_zone'],
  ['null', { time_zone: null }, 'time_zone'],
  ['a list', { time_zone: ['Europe/Paris'] }, 'time_zone'],
  ['an empty body', {}, 'body'],
  ['an unknown member', { timezone: 'Europe/Paris' }, 'timezone'],
  ['an unknown member beside a good zone', { time_zone: 'Asia/Tokyo', language: 'fr' }, 'language'],
])('PATCH: %s is a 400 naming the field, in French, nothing written', async (_case, body, field) => {
  await expectNothingWritten(async () => {
    const response = await change(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'bad_request', message: expect.any(String), details: { field, message: expect.any(String) } },
    });
    const { message } = (response.body as { error: { message: string } }).error;
    expect(message).toContain(field === 'body' ? 'time_zone' : `« ${field} »`);
    expect(message).toMatch(/invalide|inconnu/);
  });
});

test('PATCH: a body that is not a JSON object is a 400, nothing written', async () => {
  await expectNothingWritten(async () => {
    for (const body of ['"Europe/Paris"', '[]', 'time_zone=Europe/Paris']) {
      const response = await change(body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
    }
  });
});

test('PATCH: a member (not an admin) is refused 403; another workspace 404; no session 401; nothing written', async () => {
  await expectNothingWritten(async () => {
    const asMember = await change({ time_zone: 'Asia/Tokyo' }, ws.member);
    expect(asMember.status).toBe(403);
    expect(asMember.body).toMatchObject({ error: { code: 'forbidden' } });
    const anonymous = await api.request('PATCH', under(), { body: { time_zone: 'Asia/Tokyo' } });
    expect(anonymous.status).toBe(401);
  });
  await expectNothingWritten(async () => {
    const elsewhere = await change({ time_zone: 'Asia/Tokyo' }, ws.admin, other.seed.workspace_id);
    expect(elsewhere.status).toBe(404);
    expect((await show(ws.admin, other.seed.workspace_id)).status).toBe(404);
  }, other.seed.workspace_id);
  expect((await show(other.admin, other.seed.workspace_id)).body).toMatchObject({ time_zone: 'Europe/Paris' });
});

test('a change of the lists and a change of the zone at once: both land, neither undoes the other', async () => {
  const version = (await storedItem()).config_version as number;
  const [zone, tag] = await Promise.all([
    change({ time_zone: 'Pacific/Auckland' }),
    api.request('POST', `${under()}/tags`, { headers: bearer(ws.admin), body: { name: 'En même temps' } }),
  ]);
  expect([zone.status, tag.status]).toEqual([200, 201]);
  const config = await loadWorkspaceConfig(deps, ws.seed.workspace_id);
  expect(config.settings.time_zone).toBe('Pacific/Auckland');
  expect(config.tags.map((entry) => entry.name)).toContain('En même temps');
  expect((await storedItem()).config_version).toBe(version + 2);
});

test('round trips: the authorizer’s one BatchGetItem, the member’s counter, then the read and one transaction', async () => {
  const gate = ['BatchGetItem', 'UpdateItem'];
  counter.reset();
  await change({ time_zone: 'Europe/Brussels' });
  expect(counter.calls).toEqual([...gate, 'GetItem', 'TransactWriteItems']);
  counter.reset();
  await change({ time_zone: 'Europe/Brussels' });
  expect(counter.calls).toEqual([...gate, 'GetItem']);
  counter.reset();
  await change({ time_zone: 'Europe/Lyon' });
  expect(counter.calls).toEqual(gate);
});
