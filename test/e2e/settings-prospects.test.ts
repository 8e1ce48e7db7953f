import { randomUUID } from 'node:crypto';
import { listAudit } from '../../lib/settings/audit';
import { productionDeps } from '../../lib/storage/client';
import { getProspect } from '../../lib/storage/prospects';
import { startLocalApi, type TestApi } from '../support/local-api';
import { bearer, workspaceWithPeople, type PeopleWorkspace, type Person } from '../support/people';

/*
 * The settings API's prospect routes over HTTP through the local server, with real sign-in (docs/api.md#settings-api):
 * a member reads what the Prospect API answers (the same use cases, the same bodies) and undoes a change-log entry.
 */

const deps = productionDeps();
let api: TestApi;
let people: PeopleWorkspace;
let other: PeopleWorkspace;

beforeAll(async () => {
  api = await startLocalApi();
  [people, other] = [await workspaceWithPeople(api), await workspaceWithPeople(api)];
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const ws = () => people.seed.workspace_id;
const prospectId = (key: string) => people.seed.prospects[key] as string;
const asMember = (method: string, path: string, options: { query?: Record<string, string>; body?: unknown } = {}) =>
  api.request(method, `/workspaces/${ws()}${path}`, { headers: bearer(people.member), ...options });
const asPerson = (person: Person, workspaceId: string, method: string, path: string) =>
  api.request(method, `/workspaces/${workspaceId}${path}`, { headers: bearer(person) });
/** The Prospect API with the seed's key of every scope: what the settings routes must answer alike. */
const withKey = (method: string, path: string, options: { query?: Record<string, string>; body?: unknown } = {}) =>
  api.request(method, path, {
    headers: { Authorization: `Bearer ${people.seed.api_keys.admin?.secret}` },
    ...options,
  });
const errorBody = (code: string) => ({ error: expect.objectContaining({ code, message: expect.any(String) }) });

/** A new prospect of the workspace whose stage the key moved: the id of that change-log entry. */
async function aStageChange(): Promise<{ prospect: string; entry: string }> {
  const email = `undo-${randomUUID()}@acme.test`;
  const lead = await api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: people.seed.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${people.seed.webhook?.token}` },
    body: { email, first_name: 'Zoé' },
  });
  expect(lead.status).toBe(200);
  const prospect = (lead.body as { prospect_id: string }).prospect_id;
  expect((await withKey('PATCH', `/prospects/${prospect}`, { body: { stage: 'Relance' } })).status).toBe(200);
  return { prospect, entry: await lastEntryId(prospect) };
}

async function lastEntryId(prospect: string): Promise<string> {
  const changes = await withKey('GET', `/prospects/${prospect}/changes`);
  return (changes.body as { changes: { id: string }[] }).changes[0]?.id as string;
}

describe('GET /workspaces/{w}/prospects', () => {
  it.each([
    ['an e-mail', { email: 'LEA.PETIT@acme.test' }],
    ['a phone', { phone: '06 00 00 00 01' }],
    ['an unknown e-mail', { email: 'personne@acme.test' }],
  ])('finds by %s as the Prospect API does', async (_case, query) => {
    const response = await asMember('GET', '/prospects', { query });
    expect(response.status).toBe(200);
    expect(response.body).toEqual((await withKey('GET', '/prospects', { query })).body);
  });

  it('answers the found prospect', async () => {
    const response = await asMember('GET', '/prospects', { query: { email: 'lea.petit@acme.test' } });
    expect(response.body).toEqual({
      prospects: [expect.objectContaining({ id: prospectId('lead'), email: 'lea.petit@acme.test' })],
    });
  });

  it.each([
    ['two contacts', { email: 'lea.petit@acme.test', phone: '+33600000001' }],
    ['an e-mail the webhook would not keep', { email: 'pas une adresse' }],
  ])('refuses %s with the Prospect API’s 400', async (_case, query) => {
    const response = await asMember('GET', '/prospects', { query });
    expect(response.status).toBe(400);
    expect(response.body).toEqual((await withKey('GET', '/prospects', { query })).body);
  });
});

describe('GET /workspaces/{w}/pipelines', () => {
  it('answers the active pipelines, their stages and the tags as the Prospect API does: the page names stages with it', async () => {
    const response = await asMember('GET', '/pipelines');
    expect(response.status).toBe(200);
    expect(response.body).toEqual((await withKey('GET', '/pipelines')).body);
    const { pipelines } = response.body as { pipelines: { id: string; stages: { id: string; name: string }[] }[] };
    const sales = pipelines.find((pipeline) => pipeline.id === people.seed.pipelines.sales?.id);
    expect(sales?.stages).toContainEqual(
      expect.objectContaining({ id: people.seed.pipelines.sales?.stages.fu, name: 'Relance' }),
    );
  });

  it('refuses an API key (401): the settings API takes a person’s token only', async () => {
    const response = await api.request('GET', `/workspaces/${ws()}/pipelines`, {
      headers: { Authorization: `Bearer ${people.seed.api_keys.admin?.secret}` },
    });
    expect(response.status).toBe(401);
  });
});

describe('GET /workspaces/{w}/prospects/{p}', () => {
  it('answers the prospect as the Prospect API does', async () => {
    const response = await asMember('GET', `/prospects/${prospectId('social')}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual((await withKey('GET', `/prospects/${prospectId('social')}`)).body);
    expect(response.body).toMatchObject({ id: prospectId('social'), tags: [{ name: 'VIP' }] });
  });

  it.each([
    ['an unknown id', () => randomUUID()],
    ['an id that is no UUID', () => 'pas-un-id'],
    ['a malformed escape', () => '%E9'],
    ["another workspace's prospect", () => other.seed.prospects.lead as string],
  ])('answers %s with 404', async (_case, id) => {
    const response = await asMember('GET', `/prospects/${id()}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(errorBody('not_found'));
  });
});

describe('GET /workspaces/{w}/prospects/{p}/changes', () => {
  it('answers the change log as the Prospect API does, paged by limit and cursor', async () => {
    const { prospect } = await aStageChange();
    expect(
      (await withKey('PATCH', `/prospects/${prospect}`, { body: { closer_id: people.member.memberId } })).status,
    ).toBe(200);
    const all = await asMember('GET', `/prospects/${prospect}/changes`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual((await withKey('GET', `/prospects/${prospect}/changes`)).body);
    const { changes } = all.body as { changes: { id: string; field: string }[] };
    expect(changes.map((change) => change.field)).toEqual(['closer', 'stage']);

    const first = await asMember('GET', `/prospects/${prospect}/changes`, { query: { limit: '1' } });
    const firstPage = first.body as { changes: unknown[]; next_cursor: string };
    expect(firstPage.changes).toEqual([changes[0]]);
    const second = await asMember('GET', `/prospects/${prospect}/changes`, {
      query: { limit: '1', cursor: firstPage.next_cursor },
    });
    expect(second.body).toEqual({ changes: [changes[1]], next_cursor: null });
  });

  it('refuses a bad limit or cursor with 400, and answers an unknown prospect with 404', async () => {
    const id = prospectId('lead');
    expect((await asMember('GET', `/prospects/${id}/changes`, { query: { limit: '0' } })).status).toBe(400);
    expect((await asMember('GET', `/prospects/${id}/changes`, { query: { cursor: 'abc' } })).status).toBe(400);
    expect((await asMember('GET', `/prospects/${randomUUID()}/changes`)).status).toBe(404);
    expect((await asMember('GET', `/prospects/${other.seed.prospects.lead}/changes`)).status).toBe(404);
  });
});

describe('POST /workspaces/{w}/changes/{entry}/undo', () => {
  it('undoes the entry: the changelog undo document, the acting member in the audit log and on the write', async () => {
    const { prospect, entry } = await aStageChange();
    const response = await asMember('POST', `/changes/${entry}/undo`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      entry: expect.objectContaining({
        id: entry,
        prospect_id: prospect,
        field: 'stage',
        after: people.seed.pipelines.sales?.stages.fu,
        undone_at: expect.any(String),
      }),
      prospect: expect.objectContaining({
        id: prospect,
        stage_id: people.seed.pipelines.sales?.stages.new,
        version: 3,
      }),
    });
    expect((await withKey('GET', `/prospects/${prospect}`)).body).toMatchObject({
      stage_id: people.seed.pipelines.sales?.stages.new,
    });

    // What the change stream's event names as its actor (docs/api.md#outbound-events).
    expect((await getProspect(deps, ws(), prospect))?.actor).toEqual({
      kind: 'undo',
      id: entry,
      member_id: people.member.memberId,
    });
    const { entries } = await listAudit(deps, { workspaceId: ws() });
    expect(entries.find((audit) => audit.target_id === entry)).toEqual({
      id: expect.any(String),
      at: expect.any(String),
      member_id: people.member.memberId,
      action: 'change.undone',
      target_id: entry,
      summary: expect.any(String),
    });
  });

  it('takes an empty JSON object as its body', async () => {
    const { entry } = await aStageChange();
    expect((await asMember('POST', `/changes/${entry}/undo`, { body: {} })).status).toBe(200);
  });

  it('answers 409 for an entry undone already and for a prospect changed since, with nothing changed', async () => {
    const { entry } = await aStageChange();
    expect((await asMember('POST', `/changes/${entry}/undo`)).status).toBe(200);
    const twice = await asMember('POST', `/changes/${entry}/undo`);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual(errorBody('conflict'));

    const moved = await aStageChange();
    expect(
      (await withKey('PATCH', `/prospects/${moved.prospect}`, { body: { setter_id: people.member.memberId } })).status,
    ).toBe(200);
    const refused = await asMember('POST', `/changes/${moved.entry}/undo`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(errorBody('conflict'));
    expect((await withKey('GET', `/prospects/${moved.prospect}`)).body).toMatchObject({
      stage_id: people.seed.pipelines.sales?.stages.fu,
    });
  });

  it('answers 422 for a note entry', async () => {
    const { prospect } = await aStageChange();
    expect((await withKey('POST', `/prospects/${prospect}/notes`, { body: { content: 'Rappelé.' } })).status).toBe(201);
    const response = await asMember('POST', `/changes/${await lastEntryId(prospect)}/undo`);
    expect(response.status).toBe(422);
    expect(response.body).toEqual(errorBody('unprocessable'));
  });

  it.each([
    ['an unknown entry', () => randomUUID()],
    ['an id that is no UUID', () => 'pas-un-id'],
  ])('answers %s with 404', async (_case, id) => {
    const response = await asMember('POST', `/changes/${id()}/undo`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(errorBody('not_found'));
  });

  it("answers another workspace's entry with 404, and leaves it as it was", async () => {
    const { entry } = await aStageChange();
    const response = await asPerson(other.member, other.seed.workspace_id, 'POST', `/changes/${entry}/undo`);
    expect(response.status).toBe(404);
    expect((await asMember('POST', `/changes/${entry}/undo`)).status).toBe(200);
  });

  it.each([
    ['an unknown field', { reason: 'erreur' }],
    ['a JSON array', []],
    ['no JSON', '{'],
  ])('refuses %s as the body with 400', async (_case, body) => {
    const { entry } = await aStageChange();
    const response = await asMember('POST', `/changes/${entry}/undo`, { body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorBody('bad_request'));
  });
});

describe('a person of another workspace', () => {
  it.each([
    ['GET', '/pipelines'],
    ['GET', '/prospects?email=lea.petit@acme.test'],
    ['GET', '/prospects/{p}'],
    ['GET', '/prospects/{p}/changes'],
    ['POST', `/changes/{e}/undo`],
  ])('%s %s answers 404', async (method, path) => {
    const concrete = path.replace('{p}', prospectId('lead')).replace('{e}', randomUUID());
    const response = await asPerson(other.admin, ws(), method, concrete);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(errorBody('not_found'));
  });
});
