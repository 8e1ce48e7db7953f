import { aWorkspace } from '../support/seed';
import { useSeededApi } from '../support/seeded-api';
import { startLocalApi, type TestApi } from '../support/local-api';
import { bearer, workspaceWithPeople, type PeopleWorkspace } from '../support/people';

/*
 * End to end: the lists of prospects (docs/api.md#lists-of-prospects), `GET /prospects` without a contact on the
 * Prospect API and `GET /workspaces/{w}/prospects` on the settings API, through the local server: orders, filters
 * (any of a parameter's values, AND across them), pages and their cursors, the refusals, and a change shown at once.
 */
const world = useSeededApi({
  ...aWorkspace(),
  api_keys: [
    { key: 'admin', name: 'Zapier', scopes: ['*'] },
    { key: 'reads', name: 'Synchro', scopes: ['prospects:read'] },
  ],
});

type Listed = { id: string; stage_id: string | null; next_follow_up_at: string | null; updated_at: string } & Record<
  string,
  unknown
>;
type Page = { prospects: Listed[]; next_cursor: string | null };

const list = async (query: Record<string, string | string[]> = {}) => {
  const response = await world.api.request('GET', '/prospects', {
    query,
    headers: { Authorization: `Bearer ${world.ws.api_keys.reads?.secret}` },
  });
  return {
    status: response.status,
    body: response.body as Page & { error?: { code?: string; details?: { field?: string } } },
  };
};

const ids = (page: Page) => page.prospects.map((prospect) => prospect.id);

/** Every page of a list, following `next_cursor` to its end. */
async function everyPage(query: Record<string, string | string[]>): Promise<{ ids: string[]; sizes: number[] }> {
  const [shown, sizes] = [[] as string[], [] as number[]];
  let cursor: string | null = null;
  do {
    const { status, body } = await list({ ...query, ...(cursor ? { cursor } : {}) });
    expect(status).toBe(200);
    shown.push(...ids(body));
    sizes.push(body.prospects.length);
    cursor = body.next_cursor;
  } while (cursor !== null);
  return { ids: shown, sizes };
}

const seeded = (key: string) => world.ws.prospects[key] as string;

describe('GET /prospects without a contact: the list', () => {
  it('is newest first by default, every prospect as GET answers it, with next_cursor', async () => {
    const newest = await world.aProspect({ first_name: 'Nina' });
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['next_cursor', 'prospects']);
    expect(body.prospects[0]).toMatchObject({ id: newest, first_name: 'Nina', fields: {}, tags: [] });
    expect(ids(body)).toEqual(expect.arrayContaining(['lead', 'social', 'sold', 'deposit'].map(seeded)));
    const created = body.prospects.map((prospect) => String(prospect.created_at));
    expect(created).toEqual([...created].sort().reverse());
    expect(body.next_cursor).toBeNull();
  });

  it('gives full pages, each prospect once, until next_cursor is null; a cursor is bound to its query', async () => {
    for (let count = 0; count < 5; count += 1) await world.aProspect({ first_name: `Page ${count}` });
    const whole = ids((await list({ limit: '100' })).body);
    const paged = await everyPage({ limit: '2' });
    expect(paged.ids).toEqual(whole);
    expect(paged.sizes.slice(0, -1).every((size) => size === 2)).toBe(true);
    const { body: first } = await list({ limit: '2' });
    const others: Record<string, string>[] = [
      { limit: '3' },
      { limit: '2', sort: 'created_at' },
      { limit: '2', stage: 'Nouveau' },
    ];
    for (const other of others) {
      const refused = await list({ ...other, cursor: first.next_cursor! });
      expect([other, refused.status, refused.body.error?.details?.field]).toEqual([other, 400, 'cursor']);
    }
  });

  it('filters by stage (name or id), pipeline, setter, closer, member and tag, any of a repeated value', async () => {
    const alice = world.ws.members.alice as string;
    const bob = world.ws.members.bob as string;
    expect(ids((await list({ stage: 'Relance' })).body)).toEqual([seeded('social')]);
    expect(ids((await list({ stage: ['Relance', 'Closé'] })).body).sort()).toEqual(
      [seeded('social'), seeded('sold')].sort(),
    );
    expect(ids((await list({ setter_id: alice })).body)).toEqual([seeded('social')]);
    expect(ids((await list({ closer_id: bob })).body)).toEqual([seeded('sold')]);
    expect(ids((await list({ member_id: [alice, bob] })).body).sort()).toEqual(
      [seeded('social'), seeded('sold')].sort(),
    );
    expect(ids((await list({ setter_id: 'none' })).body)).not.toContain(seeded('social'));
    expect(ids((await list({ tag: 'VIP' })).body)).toEqual([seeded('social')]);
    // Different parameters combine with AND.
    expect(ids((await list({ tag: 'VIP', stage: 'Nouveau' })).body)).toEqual([]);
    const partners = await list({ pipeline: 'Partenaires' });
    expect(partners.body.prospects.every((prospect) => prospect.stage_id !== null)).toBe(true);
    expect(ids(partners.body)).not.toContain(seeded('lead'));
  });

  it('by follow-up: overdue, due and none, soonest first, those without one last', async () => {
    const [late, soon] = [await world.aProspect({ first_name: 'En retard' }), await world.aProspect({})];
    await world.call('PATCH', `/prospects/${late}`, { follow_up_at: '2020-01-01T09:00:00Z' });
    await world.call('PATCH', `/prospects/${soon}`, { follow_up_at: '2999-01-01T09:00:00Z' });
    expect(ids((await list({ follow_up: 'overdue' })).body)).toContain(late);
    expect(ids((await list({ follow_up: 'overdue' })).body)).not.toContain(soon);
    expect(ids((await list({ follow_up: 'none' })).body)).not.toContain(late);
    const ordered = ids((await list({ sort: 'next_follow_up_at', limit: '100' })).body);
    expect(ordered.indexOf(late)).toBeLessThan(ordered.indexOf(soon));
    expect(ordered.indexOf(soon)).toBeLessThan(ordered.indexOf(seeded('lead')));
    const range = await list({ follow_up_from: '2019-12-31', follow_up_to: '2020-01-02' });
    expect(ids(range.body)).toEqual([late]);
  });

  it('shows a change at once, in the order of the last change', async () => {
    const moved = await world.aProspect({ first_name: 'Déplacé' });
    expect((await world.call('PATCH', `/prospects/${moved}`, { stage: 'Relance' })).status).toBe(200);
    const { body } = await list({ sort: '-updated_at', limit: '1' });
    expect(body.prospects[0]).toMatchObject({ id: moved });
    expect(ids((await list({ stage: 'Relance', sort: '-updated_at' })).body)[0]).toBe(moved);
    expect(ids((await list({ stage: 'Nouveau' })).body)).not.toContain(moved);
  });

  it('a lead matching a known contact moves updated_at only when it changes something', async () => {
    const body = { email: 'retour@acme.test', first_name: 'Rémi' };
    const id = await world.aProspect(body);
    const read = async () =>
      (
        await world.api.request('GET', `/prospects/${id}`, {
          headers: { Authorization: `Bearer ${world.ws.api_keys.reads?.secret}` },
        })
      ).body as Listed;
    const before = await read();
    const later = await world.aProspect({ first_name: 'Plus tard' });
    expect((await world.lead(body)).body).toMatchObject({ status: 'existing', prospect_id: id });
    expect((await read()).updated_at).toBe(before.updated_at);
    expect(ids((await list({ sort: '-updated_at', limit: '1' })).body)).toEqual([later]);
    expect((await world.lead({ ...body, tag_ids: [world.ws.tags.vip] })).body).toMatchObject({ status: 'existing' });
    expect((await read()).updated_at > before.updated_at).toBe(true);
    expect(ids((await list({ sort: '-updated_at', limit: '1' })).body)).toEqual([id]);
  });

  it('refuses an unknown parameter, a malformed value, too many values (400) and an unknown reference (422)', async () => {
    const refusals: [Record<string, string | string[]>, number, string][] = [
      [{ colour: 'bleu' }, 400, 'colour'],
      [{ sort: 'name' }, 400, 'sort'],
      [{ limit: '0' }, 400, 'limit'],
      [{ created_from: '2026-13-01' }, 400, 'created_from'],
      [{ created_from: '2026-03-29T10:00:00' }, 400, 'created_from'],
      [{ tag: Array.from({ length: 21 }, (_, index) => `t${index}`) }, 400, 'tag'],
      [{ email: 'lea.petit@acme.test', limit: '5' }, 400, 'limit'],
      [{ email: 'lea.petit@acme.test', stage: 'Nouveau' }, 400, 'stage'],
      [{ email: 'lea.petit@acme.test', phone: '+33600000001' }, 400, 'query'],
      [{ stage: 'Inconnue' }, 422, 'stage'],
      [{ tag: 'Inconnu' }, 422, 'tag'],
      [{ pipeline: 'Inconnu' }, 422, 'pipeline'],
      [{ 'fields.budget': '1' }, 422, 'fields.budget'],
    ];
    for (const [query, status, field] of refusals) {
      const refused = await list(query);
      expect([query, refused.status, refused.body.error?.details?.field]).toEqual([query, status, field]);
    }
  });

  it('keeps the look-up by contact as it was', async () => {
    const { status, body } = await list({ email: 'LEA.PETIT@acme.test' });
    expect(status).toBe(200);
    expect(ids(body)).toEqual([seeded('lead')]);
    expect(body).not.toHaveProperty('next_cursor');
  });
});

describe('GET /workspaces/{w}/prospects without a contact: the same list for a member', () => {
  let api: TestApi;
  let ws: PeopleWorkspace;
  beforeAll(async () => {
    api = await startLocalApi();
    ws = await workspaceWithPeople(api);
  });
  afterAll(() => api.close());

  it('lists by custom field value as its type reads it, for a member; another workspace’s prospects never', async () => {
    const under = `/workspaces/${ws.seed.workspace_id}`;
    const created = await api.request('POST', `${under}/fields`, {
      headers: bearer(ws.admin),
      body: { key: 'budget', label: 'Budget', type: 'number' },
    });
    expect(created.status).toBe(201);
    const lead = await api.request('POST', '/webhooks/ingest-lead', {
      query: { endpoint_id: ws.seed.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${ws.seed.webhook?.token}` },
      body: { email: 'budget@acme.test', budget: '1 500,50' },
    });
    const prospectId = (lead.body as { prospect_id: string }).prospect_id;
    // The same answers again: a known contact whose prospect, read for its field values, changes in nothing.
    const read = async () => {
      const shown = await api.request('GET', `${under}/prospects/${prospectId}`, { headers: bearer(ws.member) });
      expect(shown.status).toBe(200);
      return (shown.body as Listed).updated_at;
    };
    const updatedAt = await read();
    const again = await api.request('POST', '/webhooks/ingest-lead', {
      query: { endpoint_id: ws.seed.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${ws.seed.webhook?.token}` },
      body: { email: 'budget@acme.test', budget: '1500.50' },
    });
    expect(again.body).toMatchObject({ status: 'existing', prospect_id: prospectId });
    expect(await read()).toBe(updatedAt);
    const found = await api.request('GET', `${under}/prospects`, {
      query: { 'fields.budget': '1500.5' },
      headers: bearer(ws.member),
    });
    expect(found.status).toBe(200);
    expect((found.body as Page).prospects.map((prospect) => prospect.id)).toEqual([prospectId]);
    expect((found.body as Page).prospects[0]).toMatchObject({ fields: { budget: 1500.5 } });
    const everything = await api.request('GET', `${under}/prospects`, { headers: bearer(ws.member) });
    const listed = (everything.body as Page).prospects.map((prospect) => prospect.id);
    expect(listed).toContain(prospectId);
    expect(listed).toEqual(expect.arrayContaining(Object.values(ws.seed.prospects) as string[]));
    expect(listed).toHaveLength(Object.keys(ws.seed.prospects).length + 1);
  });
});
