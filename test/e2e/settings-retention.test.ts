import { messages } from '../../lib/messages';
import { productionDeps } from '../../lib/storage/client';
import { runAdminInProcess } from '../support/admin-cli';
import { startLocalApi, type TestApi } from '../support/local-api';
import { workspaceWithPeople, type PeopleWorkspace } from '../support/people';
import { workspaceSettingsCalls } from '../support/workspace-settings';

/*
 * The workspace's retention over the settings API and the command line (docs/api.md#workspaces), through the local
 * server with real sign-in: `retention_months` null until set, set by an admin with PATCH (an integer from 1 to 120,
 * or null to keep until erased), audited as the time zone is, refused with nothing written otherwise; `workspace set
 * --retention-months N|none` through the same use case, in process.
 */

const deps = productionDeps();
let api: TestApi;
let ws: PeopleWorkspace;
let other: PeopleWorkspace;

beforeAll(async () => {
  api = await startLocalApi({ db: deps.db });
  [ws, other] = [await workspaceWithPeople(api), await workspaceWithPeople(api)];
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const { under, show, change, storedItem, workspaceAudit } = workspaceSettingsCalls(deps, () => ({ api, ws }));
const summaries = async (workspaceId?: string) =>
  (await workspaceAudit(workspaceId)).map(({ member_id, action, summary }) => ({ member_id, action, summary }));
const retentionChange = (before: number | null, after: number | null) => ({
  action: 'workspace.retention_changed',
  summary: messages.audit.workspaceSettingChanged(
    messages.audit.workspaceSettings.retention_months,
    messages.audit.retention(before),
    messages.audit.retention(after),
  ),
});

/** What a refused change must leave: the configuration item as it was, and no audit entry. */
async function expectNothingWritten(write: () => Promise<unknown>, workspaceId = ws.seed.workspace_id) {
  const [item, entries] = [await storedItem(workspaceId), await summaries(workspaceId)];
  await write();
  expect(await storedItem(workspaceId)).toEqual(item);
  expect(await summaries(workspaceId)).toEqual(entries);
}

// The tests below run in order: each sees the retention the one before left.
test('GET: a workspace that never set its retention answers null (kept until erased), to a member', async () => {
  const response = await show();
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({ retention_months: null, role: 'member' });
  expect(await storedItem()).not.toHaveProperty('retention_months');
});

test('PATCH: an admin sets 36 months; stored on the configuration item, shown to every member, audited with the admin', async () => {
  const version = (await storedItem()).config_version as number;
  const changed = await change({ retention_months: 36 });
  expect(changed.status).toBe(200);
  expect(changed.body).toEqual((await show(ws.admin)).body);
  expect(changed.body).toMatchObject({ retention_months: 36, time_zone: 'Europe/Paris', role: 'admin' });
  expect((await show(ws.member)).body).toMatchObject({ retention_months: 36, role: 'member' });
  expect(await storedItem()).toMatchObject({ retention_months: 36, config_version: version + 1 });
  expect(await summaries()).toEqual([{ member_id: ws.admin.memberId, ...retentionChange(null, 36) }]);
});

test('PATCH: the retention the workspace already has writes nothing and answers the workspace', async () => {
  await expectNothingWritten(async () => {
    const again = await change({ retention_months: 36 });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ retention_months: 36 });
  });
});

test.each([
  ['zero', 0],
  ['121 months', 121],
  ['a fraction', 1.5],
  ['a negative number', -12],
  ['a number written as a string', '12'],
  ['an empty string', ''],
  ['true', true],
  ['a list', [12]],
  ['an object', { months: 12 }],
])('PATCH: %s is a 400 naming retention_months, in French, nothing written', async (_case, value) => {
  await expectNothingWritten(async () => {
    const response = await change({ retention_months: value });
    expect(response.status).toBe(400);
    const message = messages.body.invalidField('retention_months', messages.rules.retentionMonths(1, 120));
    expect(response.body).toEqual({
      error: { code: 'bad_request', message, details: { field: 'retention_months', message } },
    });
  });
});

test('PATCH: a good zone beside a bad retention is refused whole, nothing written', async () => {
  await expectNothingWritten(async () => {
    const response = await change({ time_zone: 'Asia/Tokyo', retention_months: 0 });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { details: { field: 'retention_months' } } });
  });
});

test('PATCH: a member is refused 403, another workspace’s admin 404, no session 401; nothing written', async () => {
  await expectNothingWritten(async () => {
    const asMember = await change({ retention_months: 12 }, ws.member);
    expect(asMember.status).toBe(403);
    expect(asMember.body).toMatchObject({ error: { code: 'forbidden' } });
    expect((await api.request('PATCH', under(), { body: { retention_months: 12 } })).status).toBe(401);
    expect((await change({ retention_months: 12 }, other.admin, ws.seed.workspace_id)).status).toBe(404);
  });
});

test('PATCH: the zone and the retention at once, one write with one entry per setting', async () => {
  const version = (await storedItem()).config_version as number;
  const before = await summaries();
  const changed = await change({ time_zone: 'America/Montreal', retention_months: 120 });
  expect(changed.status).toBe(200);
  expect(changed.body).toMatchObject({ time_zone: 'America/Montreal', retention_months: 120 });
  expect(await storedItem()).toMatchObject({ config_version: version + 1 });
  const zone = {
    action: 'workspace.time_zone_changed',
    summary: messages.audit.workspaceSettingChanged(
      messages.audit.workspaceSettings.time_zone,
      'Europe/Paris',
      'America/Montreal',
    ),
  };
  const [first, second, ...rest] = await summaries();
  // Written in one transaction at one instant: their order in the log is not the PATCH's.
  expect([first, second]).toEqual(
    expect.arrayContaining([
      { member_id: ws.admin.memberId, ...zone },
      { member_id: ws.admin.memberId, ...retentionChange(36, 120) },
    ]),
  );
  expect(rest).toEqual(before);
});

test('PATCH: null clears it: the attribute removed, GET answers null again, audited', async () => {
  const changed = await change({ retention_months: null });
  expect(changed.status).toBe(200);
  expect(changed.body).toMatchObject({ retention_months: null, time_zone: 'America/Montreal' });
  expect(await storedItem()).not.toHaveProperty('retention_months');
  expect((await show()).body).toMatchObject({ retention_months: null });
  expect((await summaries())[0]).toEqual({
    member_id: ws.admin.memberId,
    ...retentionChange(120, null),
  });
});

test('workspace set --retention-months: set and cleared through the same use case, audited as the command line', async () => {
  const workspaceId = other.seed.workspace_id;
  const set = await runAdminInProcess(
    deps,
    ...['workspace', 'set', '--workspace', workspaceId, '--retention-months', '24', '--json'],
  );
  expect({ code: set.code, stderr: set.stderr }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(set.stdout)).toMatchObject({ id: workspaceId, retention_months: 24 });
  expect((await show(other.member, workspaceId)).body).toMatchObject({ retention_months: 24 });
  const shown = await runAdminInProcess(deps, 'workspace', 'show', '--workspace', workspaceId);
  expect(shown.stdout).toMatch(/Conservation des données\s+: 24 mois/);

  const cleared = await runAdminInProcess(
    deps,
    ...['workspace', 'set', '--workspace', workspaceId, '--retention-months', 'none', '--json'],
  );
  expect({ code: cleared.code, stderr: cleared.stderr }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(cleared.stdout)).toMatchObject({ retention_months: null });
  expect(await storedItem(workspaceId)).not.toHaveProperty('retention_months');
  expect(await summaries(workspaceId)).toEqual([
    { member_id: null, ...retentionChange(24, null) },
    { member_id: null, ...retentionChange(null, 24) },
  ]);
});

test.each(['0', '121', '1.5', '12 mois', '', 'jamais'])(
  'workspace set --retention-months %j: exit 2, the refusal in French, nothing written',
  async (value) => {
    const workspaceId = other.seed.workspace_id;
    await expectNothingWritten(async () => {
      const run = await runAdminInProcess(
        deps,
        ...['workspace', 'set', '--workspace', workspaceId, '--retention-months', value],
      );
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
      expect(run.stderr).toContain(messages.admin.workspaceSettings.invalidRetention(value, 1, 120));
    }, workspaceId);
  },
);
