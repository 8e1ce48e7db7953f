import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { purgeDeletedFields } from '../../lib/domain/fields/field-purge';
import { productionDeps } from '../../lib/storage/client';
import { keys } from '../../lib/storage/table-items';
import { startLocalApi, type TestApi } from '../support/local-api';
import { bearer, workspaceWithPeople, type PeopleWorkspace } from '../support/people';
import { aWorkspace } from '../support/seed';

/*
 * A field deleted by its route, then purged (docs/data-model.md, "The purge of a deleted field"): values the lead
 * webhook wrote leave the table without a version raised, and the webhook goes on writing the fields that remain,
 * through the local server with real sign-in. The purge runs on every settled deletion of the table: this file's, and
 * those other files made, which it purges too; so it runs until this workspace's tombstone is done.
 */

const deps = productionDeps();
let api: TestApi;
let ws: PeopleWorkspace;

beforeAll(async () => {
  api = await startLocalApi({ db: deps.db });
  ws = await workspaceWithPeople(api, aWorkspace({ prospects: [] }));
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const under = (suffix: string) => `/workspaces/${ws.seed.workspace_id}${suffix}`;
const lead = async (body: Record<string, unknown>) => {
  const response = await api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: ws.seed.webhook?.endpoint_id ?? '' },
    headers: { Authorization: `Bearer ${ws.seed.webhook?.token}` },
    body,
  });
  expect(response.status).toBe(200);
  return (response.body as { prospect_id: string }).prospect_id;
};
const stored = async (key: { pk: string; sk: string }) =>
  (await deps.db.send(new GetCommand({ TableName: deps.tableName, Key: key, ConsistentRead: true }))).Item!;

test('DELETE /fields/{key}, then the purge: values gone from the table, versions unmoved, the other field kept and written on', async () => {
  for (const field of [
    { key: 'budget', label: 'Budget', type: 'number' },
    { key: 'ville', label: 'Ville', type: 'text' },
  ]) {
    const created = await api.request('POST', under('/fields'), { headers: bearer(ws.admin), body: field });
    expect(created.status).toBe(201);
  }
  const alone = keys.prospect(ws.seed.workspace_id, await lead({ email: 'seul@purge.test', budget: '1 500' }));
  const beside = keys.prospect(
    ws.seed.workspace_id,
    await lead({ email: 'deux@purge.test', budget: '20', ville: 'Lyon' }),
  );
  const before = [await stored(alone), await stored(beside)];
  expect(before.map((item) => item.fields)).toEqual([{ budget: 1500 }, { budget: 20, ville: 'Lyon' }]);

  expect((await api.request('DELETE', under('/fields/budget'), { headers: bearer(ws.admin) })).status).toBe(200);
  const tombstone = async () =>
    ((await stored(keys.workspace(ws.seed.workspace_id))).fields as { key: string; purging?: boolean }[])[0];
  expect(await tombstone()).toMatchObject({ key: 'budget', purging: true });

  const afterSettling = () => new Date(Date.now() + 2 * 60_000);
  for (let run = 0; run < 10 && (await tombstone())?.purging === true; run += 1)
    await purgeDeletedFields({ ...deps, clock: afterSettling });
  expect(await tombstone()).toEqual({ key: 'budget', deleted_at: expect.any(String) });

  const [alonePurged, besidePurged] = [await stored(alone), await stored(beside)];
  expect(alonePurged).not.toHaveProperty('fields');
  expect(besidePurged.fields).toEqual({ ville: 'Lyon' });
  for (const [purged, was] of [
    [alonePurged, before[0]!],
    [besidePurged, before[1]!],
  ] as const) {
    expect([purged.version, purged.updated_at, purged.actor]).toEqual([was.version, was.updated_at, was.actor]);
  }

  // The webhook writes on a prospect the purge left without values, as on one that never had any.
  await lead({ email: 'seul@purge.test', ville: 'Brest' });
  expect(await stored(alone)).toMatchObject({
    fields: { ville: 'Brest' },
    version: (alonePurged.version as number) + 1,
  });
});
