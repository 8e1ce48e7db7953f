import { randomUUID } from 'node:crypto';
import { revokeApiKey } from '../../lib/settings/api-keys';
import { showProspect } from '../../lib/settings/prospects';
import type { SeedOutput } from '../../tools/seed/seed';
import { productionDeps } from '../../lib/storage/client';
import { startTestApi, type TestApi } from '../support/local-api';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

const deps = productionDeps();
let api: TestApi;
let ws: SeedOutput;
let other: SeedOutput;

beforeAll(async () => {
  [ws, other] = await Promise.all([seedTestWorkspace(), seedTestWorkspace()]);
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const secretOf = (seed: SeedOutput, key = 'admin') => seed.api_keys[key]?.secret as string;
const stage = (seed: SeedOutput, pipeline: string, key: string) => seed.pipelines[pipeline]?.stages[key] as string;
const call = (method: string, path: string, body?: unknown, secret = secretOf(ws), query?: Record<string, string>) =>
  api.request(method, path, { headers: { Authorization: `Bearer ${secret}` }, body, query });
const errorBody = (code: string) => ({ error: { code, message: expect.any(String) } });
const show = (prospectId: string, seed = ws) => showProspect(deps, { workspaceId: seed.workspace_id, prospectId });

/** A prospect of its own for each test, so tests never see each other's changes. */
async function aProspect(body: object = {}): Promise<string> {
  const response = await api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: ws.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${ws.webhook?.token}` },
    body: { email: `${randomUUID()}@test.fr`, ...body },
  });
  return (response.body as { prospect_id: string }).prospect_id;
}

describe('PATCH /prospects/{prospect_id}', () => {
  it('moves a prospect by stage name, ignoring case, within its pipeline, and logs the change', async () => {
    const id = await aProspect();
    const response = await call('PATCH', `/prospects/${id}`, { stage: 'RELANCE' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id,
      pipeline_id: ws.pipelines.sales?.id,
      stage_id: stage(ws, 'sales', 'fu'),
      setter_id: null,
      closer_id: null,
      next_follow_up_at: null,
      fields: {},
      changed: ['stage'],
    });
    expect(response.headers.get('ratelimit-limit')).toBe('30');
    const { changelog, prospect } = await show(id);
    expect(prospect.version).toBe(2);
    expect(changelog).toEqual([
      {
        id: expect.any(String),
        prospect_id: id,
        key_id: ws.api_keys.admin?.id,
        field: 'stage',
        before: stage(ws, 'sales', 'new'),
        after: stage(ws, 'sales', 'fu'),
        at: expect.any(String),
        undone_at: null,
      },
    ]);
  });

  it('moves a prospect to another pipeline by stage id', async () => {
    const id = await aProspect();
    const response = await call('PATCH', `/prospects/${id}`, { stage: stage(ws, 'partners', 'first') });
    expect(response.body).toMatchObject({
      pipeline_id: ws.pipelines.partners?.id,
      stage_id: stage(ws, 'partners', 'first'),
    });
  });

  it('answers 422 for a stage not found, a name of another pipeline, or a stage of another workspace', async () => {
    const id = await aProspect();
    for (const reference of ['Inconnue', 'Ancien', stage(other, 'sales', 'fu')]) {
      const response = await call('PATCH', `/prospects/${id}`, { stage: reference });
      expect(response.status).toBe(422);
      expect(response.body).toEqual(errorBody('unprocessable'));
    }
  });

  it('answers 409 for a move from or to Closé and Acompte, applying nothing of the PATCH', async () => {
    const sold = ws.prospects.sold as string;
    const fromSold = await call('PATCH', `/prospects/${sold}`, { stage: 'Relance', setter_id: ws.members.alice });
    expect(fromSold.status).toBe(409);
    expect(fromSold.body).toEqual(errorBody('conflict'));
    expect((await show(sold)).prospect.setter_id).toBeNull();
    const id = await aProspect();
    for (const target of ['acompte', stage(ws, 'sales', 'won')]) {
      expect((await call('PATCH', `/prospects/${id}`, { stage: target, closer_id: ws.members.bob })).status).toBe(409);
    }
    expect((await show(id)).prospect).toMatchObject({
      stage_id: stage(ws, 'sales', 'new'),
      closer_id: null,
      version: 1,
    });
  });

  it('still changes setter, closer and follow-up of a prospect in Closé', async () => {
    const sold = ws.prospects.deposit as string;
    const response = await call('PATCH', `/prospects/${sold}`, { setter_id: ws.members.alice });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ setter_id: ws.members.alice, changed: ['setter'] });
  });

  it('sets and removes setter and closer, one member for both', async () => {
    const id = await aProspect();
    const alice = ws.members.alice as string;
    const set = await call('PATCH', `/prospects/${id}`, { setter_id: alice, closer_id: alice });
    expect(set.body).toMatchObject({ setter_id: alice, closer_id: alice, changed: ['setter', 'closer'] });
    const removed = await call('PATCH', `/prospects/${id}`, { setter_id: null, closer_id: alice });
    expect(removed.body).toMatchObject({ setter_id: null, closer_id: alice, changed: ['setter'] });
    expect((await show(id)).changelog.map((entry) => entry.field).sort()).toEqual(['closer', 'setter', 'setter']);
  });

  it('answers 422 for an unknown member or one of another workspace', async () => {
    const id = await aProspect();
    for (const body of [{ setter_id: randomUUID() }, { closer_id: other.members.alice }, { closer_id: 'alice' }]) {
      const response = await call('PATCH', `/prospects/${id}`, body);
      expect(response.status).toBe(422);
      expect(response.body).toEqual(errorBody('unprocessable'));
    }
  });

  it('reschedules and cancels the follow-up; a time without zone is refused', async () => {
    const id = await aProspect();
    const set = await call('PATCH', `/prospects/${id}`, { follow_up_at: '2026-12-01T09:30:00+01:00' });
    expect(set.body).toMatchObject({ next_follow_up_at: '2026-12-01T08:30:00.000Z', changed: ['follow_up'] });
    const same = await call('PATCH', `/prospects/${id}`, { follow_up_at: '2026-12-01T08:30:00Z' });
    expect(same.body).toMatchObject({ changed: [] });
    const cancelled = await call('PATCH', `/prospects/${id}`, { follow_up_at: null });
    expect(cancelled.body).toMatchObject({ next_follow_up_at: null, changed: ['follow_up'] });
    const noZone = await call('PATCH', `/prospects/${id}`, { follow_up_at: '2026-12-01T09:30:00' });
    expect(noZone.status).toBe(400);
    expect(noZone.body).toMatchObject({ error: { code: 'bad_request', details: { field: 'follow_up_at' } } });
  });

  it('writes nothing when no value really changes', async () => {
    const id = await aProspect();
    const response = await call('PATCH', `/prospects/${id}`, { stage: 'nouveau', setter_id: null });
    expect(response.body).toMatchObject({ changed: [] });
    const { prospect, changelog } = await show(id);
    expect(prospect.version).toBe(1);
    expect(changelog).toEqual([]);
  });

  it.each([
    ['no field', {}],
    ['an unknown field', { stage: 'Relance', color: 'red' }],
    ['a wrong type', { setter_id: 42 }],
    ['an empty stage', { stage: ' ' }],
    ['a body that is not JSON', 'stage=Relance'],
    ['an array', [{ stage: 'Relance' }]],
  ])('answers 400 bad_request for %s', async (_label, body) => {
    const id = await aProspect();
    const response = await call('PATCH', `/prospects/${id}`, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: 'bad_request', message: expect.any(String) } });
    expect((await show(id)).prospect.version).toBe(1);
  });
});

describe('POST /prospects/{prospect_id}/notes', () => {
  it('stores the content exactly as sent and answers 201', async () => {
    const id = await aProspect();
    const content = '<b>Rappeler</b> lundi\n\nDeuxième paragraphe 🎉  ';
    const response = await call('POST', `/prospects/${id}/notes`, { content });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: expect.any(String), created_at: expect.any(String), warnings: [] });
    const created = response.body as { id: string; created_at: string };
    expect(created.created_at).toMatch(/Z$/);
    const { notes, changelog, prospect } = await show(id);
    expect(notes).toEqual([{ id: created.id, content, date: created.created_at, created_at: created.created_at }]);
    expect(changelog).toMatchObject([{ field: 'note', before: null, after: created.id }]);
    expect(prospect.version).toBe(2);
  });

  it('counts the limit in code points: 10 000 emoji pass, 10 001 characters do not', async () => {
    const id = await aProspect();
    expect((await call('POST', `/prospects/${id}/notes`, { content: '😀'.repeat(10_000) })).status).toBe(201);
    const tooLong = await call('POST', `/prospects/${id}/notes`, { content: 'a'.repeat(10_001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ error: { code: 'bad_request', details: { field: 'content' } } });
  });

  it('backfills a past date, and keeps the reception date with a warning for a future or invalid one', async () => {
    const id = await aProspect();
    const past = await call('POST', `/prospects/${id}/notes`, {
      content: 'Ancien appel',
      date: '2024-03-05T10:00:00+01:00',
    });
    expect(past.body).toMatchObject({ warnings: [] });
    for (const date of ['2999-01-01T00:00:00Z', 'hier', 12]) {
      const response = await call('POST', `/prospects/${id}/notes`, { content: 'Note', date });
      expect(response.status).toBe(201);
      expect((response.body as { warnings: string[] }).warnings).toHaveLength(1);
    }
    const dates = (await show(id)).notes.map((note) => note.date);
    expect(dates).toContain('2024-03-05T09:00:00.000Z');
  });

  it('answers 400 for a missing or empty content, 404 for an unknown prospect', async () => {
    const id = await aProspect();
    expect((await call('POST', `/prospects/${id}/notes`, {})).status).toBe(400);
    expect((await call('POST', `/prospects/${id}/notes`, { content: '  \n ' })).status).toBe(400);
    const unknown = await call('POST', `/prospects/${randomUUID()}/notes`, { content: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(errorBody('not_found'));
  });
});

describe('tags of a prospect', () => {
  it('adds by exact name ignoring case, then answers already_present', async () => {
    const id = await aProspect();
    const added = await call('POST', `/prospects/${id}/tags`, { tag: 'vip' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ outcome: 'added', tag: { id: ws.tags.vip, name: 'VIP' } });
    const again = await call('POST', `/prospects/${id}/tags`, { tag: ws.tags.vip });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ outcome: 'already_present', tag: { id: ws.tags.vip, name: 'VIP' } });
    expect((await show(id)).changelog).toMatchObject([{ field: 'tags', before: null, after: ws.tags.vip }]);
  });

  it('removes by id or name, then answers absent', async () => {
    const id = await aProspect();
    await call('POST', `/prospects/${id}/tags`, { tag: 'Chaud' });
    const removed = await call('DELETE', `/prospects/${id}/tags/${encodeURIComponent('CHAUD')}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ outcome: 'removed', tag: { id: ws.tags.hot, name: 'Chaud' } });
    const absent = await call('DELETE', `/prospects/${id}/tags/${ws.tags.hot}`);
    expect(absent.body).toEqual({ outcome: 'absent', tag: { id: ws.tags.hot, name: 'Chaud' } });
    expect((await show(id)).tags).toEqual([]);
  });

  it('answers 422 for an unknown tag or one of another workspace, and never creates a tag', async () => {
    const id = await aProspect();
    for (const tag of ['Nouveau tag', other.tags.vip as string]) {
      expect((await call('POST', `/prospects/${id}/tags`, { tag })).status).toBe(422);
      expect((await call('DELETE', `/prospects/${id}/tags/${encodeURIComponent(tag)}`)).status).toBe(422);
    }
    const listing = await call('GET', '/pipelines');
    expect((listing.body as { tags: unknown[] }).tags).toHaveLength(2);
  });

  it('adds a tag exactly once under concurrent identical calls', async () => {
    const id = await aProspect();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', `/prospects/${id}/tags`, { tag: 'VIP' })),
    );
    const outcomes = responses.map((response) => (response.body as { outcome: string }).outcome);
    expect(outcomes.filter((outcome) => outcome === 'added')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'already_present')).toHaveLength(9);
    expect((await show(id)).changelog).toHaveLength(1);
  });

  it('works on a prospect in Closé', async () => {
    const response = await call('POST', `/prospects/${ws.prospects.sold}/tags`, { tag: 'Chaud' });
    expect(response.status).toBe(201);
  });
});

describe('isolation, credentials and scopes', () => {
  const routesOf = (id: string): [string, string, unknown][] => [
    ['PATCH', `/prospects/${id}`, { stage: 'Relance' }],
    ['POST', `/prospects/${id}/notes`, { content: 'x' }],
    ['POST', `/prospects/${id}/tags`, { tag: 'VIP' }],
    ['DELETE', `/prospects/${id}/tags/VIP`, undefined],
  ];

  it('answers 404 on every route for a prospect of another workspace or a non-UUID id', async () => {
    for (const id of [other.prospects.lead as string, 'not-a-uuid', randomUUID()]) {
      for (const [method, path, body] of routesOf(id)) {
        const response = await call(method, path, body);
        expect([method, path, response.status]).toEqual([method, path, 404]);
        expect(response.body).toEqual(errorBody('not_found'));
      }
    }
  });

  it('answers 401 for a missing, unknown or revoked key, and for a key in the URL', async () => {
    const seed = await seedTestWorkspace(aWorkspace());
    const id = seed.prospects.lead as string;
    expect((await api.request('PATCH', `/prospects/${id}`, { body: { stage: 'Relance' } })).status).toBe(401);
    expect((await call('PATCH', `/prospects/${id}`, { stage: 'Relance' }, 'crm_key_unknown')).status).toBe(401);
    for (const parameter of ['api_key', 'apikey', 'key', 'token', 'access_token']) {
      const response = await call('PATCH', `/prospects/${id}`, { stage: 'Relance' }, secretOf(seed), {
        [parameter]: secretOf(seed),
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(errorBody('unauthorized'));
    }
    await revokeApiKey(deps, { workspaceId: seed.workspace_id, keyId: seed.api_keys.admin?.id as string });
    expect((await call('PATCH', `/prospects/${id}`, { stage: 'Relance' }, secretOf(seed))).status).toBe(401);
    expect((await show(id, seed)).prospect.version).toBe(1);
  });

  it('answers 403 for a key without the scope, with rate-limit headers', async () => {
    for (const [method, path, body] of routesOf(ws.prospects.lead as string)) {
      const response = await call(method, path, body, secretOf(ws, 'reader'));
      expect(response.status).toBe(403);
      expect(response.body).toEqual(errorBody('forbidden'));
      expect(response.headers.get('ratelimit-remaining')).toEqual(expect.any(String));
    }
  });
});

describe('20 000-character values', () => {
  it('answer 4xx on every route, never 500', async () => {
    const id = await aProspect();
    const long = 'x'.repeat(20_000);
    for (const [method, path, body] of [
      ['PATCH', `/prospects/${id}`, { stage: long }],
      ['PATCH', `/prospects/${id}`, { setter_id: long }],
      ['POST', `/prospects/${id}/tags`, { tag: long }],
      ['POST', `/prospects/${id}/notes`, { content: 'x', date: long }],
    ] as const) {
      const response = await call(method, path, body);
      expect(response.status).toBeLessThan(500);
    }
    const lead = await api.request('POST', '/webhooks/ingest-lead', {
      query: { endpoint_id: ws.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${ws.webhook?.token}` },
      body: { phone: long, social_url: long, email: `${long}@x.fr` },
    });
    expect(lead.status).toBe(400);
    const application = await api.request('POST', '/webhooks/recruitment', {
      query: { endpoint_id: ws.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${ws.webhook?.token}` },
      body: { email: 'long@test.fr', name: long },
    });
    expect(application.status).toBe(400);
  });
});
