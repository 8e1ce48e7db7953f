import { randomUUID } from 'node:crypto';
import { showProspect } from '../../lib/settings/prospects';
import type { SeedOutput } from '../../tools/seed/seed';
import { productionDeps } from '../../lib/storage/client';
import { messages } from '../../lib/messages';
import { startTestApi, type TestApi } from '../support/local-api';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/**
 * Over HTTP through the local server: path parameters reach the functions still
 * percent-encoded, as API Gateway REST hands them over, and each is decoded exactly once. Tag names
 * with spaces, accents, `+`, `/` and `%` are added, then removed by their name in the path.
 */
const names = {
  spaced: 'Très chaud',
  plus: 'A+B',
  slash: 'Achat/Vente',
  percent: '100% client',
  escapeLike: '50%25',
  fifty: '50%',
  mixed: ' Ré/duc +10% ',
};

const deps = productionDeps();
let api: TestApi;
let ws: SeedOutput;

beforeAll(async () => {
  ws = await seedTestWorkspace(
    aWorkspace({
      tags: [{ key: 'vip', name: 'VIP' }, ...Object.entries(names).map(([key, name]) => ({ key, name: name.trim() }))],
    }),
  );
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const headers = (extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${ws.api_keys.admin?.secret}`,
  ...extra,
});
const call = (method: string, path: string, body?: unknown, extra?: Record<string, string>) =>
  api.request(method, path, { headers: headers(extra), body });
const tagOf = (key: keyof typeof names) => ({ id: ws.tags[key], name: names[key].trim() });
const tagsOf = async (prospectId: string) =>
  (await showProspect(deps, { workspaceId: ws.workspace_id, prospectId })).tags;

async function aProspect(): Promise<string> {
  const response = await api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: ws.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${ws.webhook?.token}` },
    body: { email: `${randomUUID()}@chemins.test` },
  });
  return (response.body as { prospect_id: string }).prospect_id;
}

describe('DELETE /prospects/{prospect_id}/tags/{tag} with the name percent-encoded', () => {
  it.each(Object.keys(names) as (keyof typeof names)[])(
    'adds, then removes the tag %s by its encoded name',
    async (key) => {
      const id = await aProspect();
      const added = await call('POST', `/prospects/${id}/tags`, { tag: names[key] });
      expect(added.status).toBe(201);
      const path = `/prospects/${id}/tags/${encodeURIComponent(names[key])}`;
      const removed = await call('DELETE', path);
      expect([removed.status, removed.body]).toEqual([200, { outcome: 'removed', tag: tagOf(key) }]);
      expect((await call('DELETE', path)).body).toEqual({ outcome: 'absent', tag: tagOf(key) });
      expect(await tagsOf(id)).toEqual([]);
    },
  );

  it('decodes exactly once: %2525 names the tag « 50%25 », %25 the tag « 50% »', async () => {
    const id = await aProspect();
    await call('POST', `/prospects/${id}/tags`, { tag: names.fifty });
    await call('POST', `/prospects/${id}/tags`, { tag: names.escapeLike });
    expect((await call('DELETE', `/prospects/${id}/tags/50%2525`)).body).toMatchObject({
      outcome: 'removed',
      tag: tagOf('escapeLike'),
    });
    expect(await tagsOf(id)).toEqual([tagOf('fifty')]);
    expect((await call('DELETE', `/prospects/${id}/tags/50%25`)).body).toMatchObject({
      outcome: 'removed',
      tag: tagOf('fifty'),
    });
  });

  it('reads a plain + in the path as a plus, and unreserved characters sent escaped as themselves', async () => {
    const id = await aProspect();
    await call('POST', `/prospects/${id}/tags`, { tag: names.plus });
    expect((await call('DELETE', `/prospects/${id}/tags/A+B`)).body).toMatchObject({ outcome: 'removed' });
    await call('POST', `/prospects/${id}/tags`, { tag: names.plus });
    expect((await call('DELETE', `/prospects/${id}/tags/%41%2b%42`)).body).toMatchObject({ outcome: 'removed' });
  });

  it('takes the prospect id percent-encoded too', async () => {
    const id = await aProspect();
    await call('POST', `/prospects/${id}/tags`, { tag: names.spaced });
    const escaped = [...id].map((character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    expect((await call('DELETE', `/prospects/${escaped}/tags/Tr%C3%A8s%20chaud`)).body).toMatchObject({
      outcome: 'removed',
    });
  });

  it('keeps one Idempotency-Key for one concrete path however it is encoded: A+B, A%2BB and A%2bB', async () => {
    const id = await aProspect();
    await call('POST', `/prospects/${id}/tags`, { tag: names.plus });
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await call('DELETE', `/prospects/${id}/tags/A%2BB`, undefined, key);
    expect(first.body).toMatchObject({ outcome: 'removed' });
    for (const spelling of ['A+B', 'A%2bB']) {
      const replayed = await call('DELETE', `/prospects/${id}/tags/${spelling}`, undefined, key);
      expect([replayed.status, replayed.body]).toEqual([200, first.body]);
    }
    const otherPath = await call('DELETE', `/prospects/${id}/tags/${encodeURIComponent(names.slash)}`, undefined, key);
    expect(otherPath.status).toBe(422);
  });
});

describe('a malformed escape in the path', () => {
  const badRequest = {
    error: {
      code: 'bad_request',
      message: messages.path.unreadable('tag'),
      details: { field: 'tag', message: messages.path.unreadable('tag') },
    },
  };
  const notFound = { error: { code: 'not_found', message: messages.prospect.notFound } };

  it.each(['%E9', '%', 'Tr%C3', 'Tr%E8s%20chaud', '%G1', 'a%2'])(
    'in the tag (%s) is the route’s 400, before the prospect is looked for',
    async (tag) => {
      const id = await aProspect();
      for (const prospectId of [id, randomUUID()]) {
        const response = await call('DELETE', `/prospects/${prospectId}/tags/${tag}`);
        expect([response.status, response.body]).toEqual([400, badRequest]);
      }
    },
  );

  it('in the tag, under an Idempotency-Key, is the same 400 each time, never a 500', async () => {
    const id = await aProspect();
    const key = { 'Idempotency-Key': randomUUID() };
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await call('DELETE', `/prospects/${id}/tags/%E9`, undefined, key);
      expect([response.status, response.body]).toEqual([400, badRequest]);
    }
  });

  it.each([
    ['GET', '/prospects/%E9'],
    ['GET', '/prospects/%'],
    ['GET', '/prospects/%E9/notes'],
    ['GET', '/prospects/%/changes'],
    ['DELETE', '/prospects/%E9/tags/VIP'],
  ])('in the prospect id (%s %s) is the route’s 404', async (method, path) => {
    const response = await call(method, path);
    expect([response.status, response.body]).toEqual([404, notFound]);
  });

  it.each([
    ['PATCH', '/prospects/%E9', { stage: 'Relance' }],
    ['POST', '/prospects/%/notes', { content: 'Rappeler' }],
    ['POST', '/prospects/%C3/tags', { tag: 'VIP' }],
  ])('in the prospect id of a write (%s %s) is the route’s 404', async (method, path, body) => {
    const response = await call(method, path, body);
    expect([response.status, response.body]).toEqual([404, notFound]);
  });
});
