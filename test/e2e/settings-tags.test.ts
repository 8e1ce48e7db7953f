import { randomUUID } from 'node:crypto';
import { listAudit } from '../../lib/settings/audit';
import { productionDeps } from '../../lib/storage/client';
import { startLocalApi, type TestApi } from '../support/local-api';
import { countRoundTrips, type RoundTripCounter } from '../support/round-trips';
import { bearer, workspaceWithPeople, type PeopleWorkspace, type Person } from '../support/people';

/*
 * The workspace's tags over the settings API (docs/api.md#settings-api), through the local server with real sign-in:
 * GET /tags (member), POST /tags and PATCH /tags/{t} (admin), names compared as docs/api.md#names-as-references
 * says (409), each change an audit entry with the acting member.
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

type Tag = { id: string; name: string };
const under = (suffix: string, workspaceId = ws.seed.workspace_id) => `/workspaces/${workspaceId}${suffix}`;
const tagsOf = async (person: Person = ws.member) =>
  (await api.request('GET', under('/tags'), { headers: bearer(person) })).body as { tags: Tag[] };
const create = (body: unknown, person: Person = ws.admin) =>
  api.request('POST', under('/tags'), { headers: bearer(person), body });
const rename = (tagId: string, body: unknown, person: Person = ws.admin) =>
  api.request('PATCH', under(`/tags/${tagId}`), { headers: bearer(person), body });
const auditOf = async (targetId: string) =>
  (await listAudit(deps, { workspaceId: ws.seed.workspace_id })).entries.filter(
    (entry) => entry.target_id === targetId,
  );

test('GET: the seeded tags in their order, to a member', async () => {
  const response = await api.request('GET', under('/tags'), { headers: bearer(ws.member) });
  expect(response.status).toBe(200);
  expect(response.body).toEqual({
    tags: [
      { id: ws.seed.tags.vip, name: 'VIP' },
      { id: ws.seed.tags.hot, name: 'Chaud' },
    ],
  });
});

test('POST: 201 the new tag, last of the list, audited with the admin', async () => {
  const created = await create({ name: '  Relance été  ' });
  expect(created.status).toBe(201);
  expect(created.body).toEqual({ id: expect.any(String), name: 'Relance été' });
  const tag = created.body as Tag;
  expect((await tagsOf()).tags.at(-1)).toEqual(tag);
  expect(await auditOf(tag.id)).toEqual([
    expect.objectContaining({ action: 'tag.created', member_id: ws.admin.memberId, target_id: tag.id }),
  ]);
});

test('POST: a name equal to another’s as names are compared (case, surrounding spaces): 409, nothing written', async () => {
  const before = await tagsOf();
  for (const name of ['vip', ' VIP ', 'chaud', 'CHAUD']) {
    const response = await create({ name });
    expect({ name, status: response.status }).toEqual({ name, status: 409 });
    expect(response.body).toMatchObject({ error: { code: 'conflict' } });
  }
  expect(await tagsOf()).toEqual(before);
});

test('PATCH: renamed everywhere it is shown, audited; the same name again writes nothing', async () => {
  const tag = (await create({ name: 'À renommer' })).body as Tag;
  const renamed = await rename(tag.id, { name: 'Renommée' });
  expect(renamed.status).toBe(200);
  expect(renamed.body).toEqual({ id: tag.id, name: 'Renommée' });
  expect((await tagsOf()).tags).toContainEqual({ id: tag.id, name: 'Renommée' });
  const again = await rename(tag.id.toUpperCase(), { name: 'Renommée' });
  expect(again.body).toEqual({ id: tag.id, name: 'Renommée' });
  expect((await auditOf(tag.id)).map((entry) => [entry.action, entry.member_id])).toEqual([
    ['tag.renamed', ws.admin.memberId],
    ['tag.created', ws.admin.memberId],
  ]);
});

test('PATCH: another tag’s name is 409; a change of case of its own name is a rename', async () => {
  const tag = (await create({ name: 'Froid' })).body as Tag;
  const taken = await rename(tag.id, { name: 'vip' });
  expect(taken.status).toBe(409);
  const recased = await rename(tag.id, { name: 'FROID' });
  expect(recased.body).toEqual({ id: tag.id, name: 'FROID' });
});

test('PATCH: an unknown, another workspace’s or malformed tag id: 404', async () => {
  const foreign = other.seed.tags.vip as string;
  for (const tagId of [randomUUID(), foreign, 'pas-un-id', '%E9']) {
    const response = await rename(tagId, { name: 'Nouveau' });
    expect({ tagId, status: response.status }).toEqual({ tagId, status: 404 });
  }
});

test('a member may read but not create or rename (403); another workspace: 404', async () => {
  expect((await create({ name: 'Non' }, ws.member)).status).toBe(403);
  expect((await rename(ws.seed.tags.vip as string, { name: 'Non' }, ws.member)).status).toBe(403);
  for (const [method, path] of [
    ['GET', '/tags'],
    ['POST', '/tags'],
    ['PATCH', `/tags/${other.seed.tags.vip}`],
  ] as const) {
    const response = await api.request(method, under(path, other.seed.workspace_id), {
      headers: bearer(ws.admin),
      body: method === 'GET' ? undefined : { name: 'Intrus' },
    });
    expect({ method, status: response.status }).toEqual({ method, status: 404 });
  }
});

test('bad bodies: 400 naming the field, before the tag is looked for', async () => {
  for (const [body, field] of [
    [{}, 'name'],
    [{ name: 7 }, 'name'],
    [{ name: ' ' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ name: 'Ok', color: 'rouge' }, 'color'],
  ] as const) {
    const created = await create(body);
    const renamed = await rename(randomUUID(), body);
    expect({ body, created: created.status, renamed: renamed.status }).toEqual({ body, created: 400, renamed: 400 });
    expect(created.body).toMatchObject({ error: { code: 'bad_request', details: { field } } });
  }
  expect((await create('[]')).status).toBe(400);
});

test('round trips: the authorizer’s one BatchGetItem, the member’s counter, then `tag add`’s read and transaction', async () => {
  const gate = ['BatchGetItem', 'UpdateItem'];
  counter.reset();
  await tagsOf();
  expect(counter.calls).toEqual([...gate, 'GetItem']);
  counter.reset();
  const tag = (await create({ name: 'Comptée' })).body as Tag;
  expect(counter.calls).toEqual([...gate, 'GetItem', 'TransactWriteItems']);
  counter.reset();
  await rename(tag.id, { name: 'Comptée deux fois' });
  expect(counter.calls).toEqual([...gate, 'GetItem', 'TransactWriteItems']);
});
