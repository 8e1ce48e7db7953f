import { removeMember } from '../../lib/settings/members';
import { productionDeps } from '../../lib/storage/client';
import type { SeedOutput } from '../../tools/seed/seed';
import { startTestApi, type TestApi } from '../support/local-api';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

let api: TestApi;
let ws: SeedOutput;
let other: SeedOutput;

beforeAll(async () => {
  ws = await seedTestWorkspace(
    aWorkspace({
      members: [
        { key: 'fabien', name: 'Fabien Roux', email: 'fabien@acme.test', role: 'admin' },
        { key: 'emile', name: 'Émile Zola', email: 'emile@acme.test' },
        { key: 'denis', name: 'denis Blanc', email: null },
        { key: 'alice', name: 'Alice Martin', email: 'alice@acme.test' },
      ],
      api_keys: [
        { key: 'reader', name: 'Tableau de bord', scopes: ['pipelines:read'] },
        { key: 'notes', name: 'Notes', scopes: ['notes:write', 'prospects:read'] },
      ],
      prospects: [],
    }),
  );
  other = await seedTestWorkspace(
    aWorkspace({
      workspace: { name: 'Autre' },
      members: [{ key: 'zoe', name: 'Zoé Autre', email: 'zoe@autre.test' }],
      prospects: [],
    }),
  );
  await removeMember(productionDeps(), {
    workspaceId: ws.workspace_id,
    actingMemberId: ws.members.fabien as string,
    memberId: ws.members.emile as string,
  });
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const get = (secret: string | undefined) =>
  api.request('GET', '/members', { headers: secret === undefined ? {} : { Authorization: `Bearer ${secret}` } });

describe('GET /members', () => {
  it('lists every member by name as French sorts them, removed ones included, with id and name only', async () => {
    const response = await get(ws.api_keys.reader?.secret);
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-limit')).toBe('120');
    expect(response.body).toEqual({
      members: [
        { id: ws.members.alice, name: 'Alice Martin' },
        { id: ws.members.denis, name: 'denis Blanc' },
        { id: ws.members.emile, name: 'Émile Zola' },
        { id: ws.members.fabien, name: 'Fabien Roux' },
      ],
    });
  });

  it('shows no e-mail address, role or sign-in state', async () => {
    const response = await get(ws.api_keys.reader?.secret);
    const text = JSON.stringify(response.body);
    for (const hidden of ['@acme.test', 'email', 'role', 'can_sign_in', 'removed']) expect(text).not.toContain(hidden);
  });

  it("answers only the key's own workspace", async () => {
    const response = await get(other.api_keys.reader?.secret);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ members: [{ id: other.members.zoe, name: 'Zoé Autre' }] });
  });

  it('answers 403 for a key without pipelines:read, 401 without a key', async () => {
    const forbidden = await get(ws.api_keys.notes?.secret);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
    const anonymous = await get(undefined);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
  });

  it('counts toward the key’s 120 requests a minute', async () => {
    const response = await get(ws.api_keys.reader?.secret);
    expect(response.headers.get('ratelimit-limit')).toBe('120');
    expect(Number(response.headers.get('ratelimit-remaining'))).toBeLessThan(120);
  });
});
