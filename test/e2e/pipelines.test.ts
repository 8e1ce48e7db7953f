import type { SeedOutput } from '../../tools/seed/seed';
import { startTestApi, type TestApi } from '../support/local-api';
import { aSalesPipeline, aWorkspace, seedTestWorkspace } from '../support/seed';

let api: TestApi;
let ws: SeedOutput;

beforeAll(async () => {
  ws = await seedTestWorkspace(
    aWorkspace({
      pipelines: [
        aSalesPipeline(),
        { key: 'old', name: 'Archives', active: false, stages: [{ key: 'a', name: 'Ancien', type: 'Follow up' }] },
        {
          key: 'partners',
          name: 'Partenariats',
          active: true,
          stages: [{ key: 'p', name: 'Contact', type: 'Follow up' }],
        },
      ],
      prospects: [],
    }),
  );
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const get = (secret: string | undefined, query?: Record<string, string>) =>
  api.request('GET', '/pipelines', {
    headers: secret === undefined ? {} : { Authorization: `Bearer ${secret}` },
    query,
  });

describe('GET /pipelines', () => {
  it('lists the active sales pipelines with their stages in order, and the tags', async () => {
    const response = await get(ws.api_keys.reader?.secret);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const sales = ws.pipelines.sales;
    expect(response.body).toEqual({
      pipelines: [
        {
          id: sales?.id,
          name: 'Ventes',
          is_default: true,
          stages: [
            { id: sales?.stages.new, name: 'Nouveau', type: 'Appointment Setting', order: 0 },
            { id: sales?.stages.fu, name: 'Relance', type: 'Follow up', order: 1 },
            { id: sales?.stages.won, name: 'Closé', type: 'Follow up', order: 2 },
          ],
        },
        {
          id: ws.pipelines.partners?.id,
          name: 'Partenariats',
          is_default: false,
          stages: [{ id: ws.pipelines.partners?.stages.p, name: 'Contact', type: 'Follow up', order: 0 }],
        },
      ],
      tags: expect.arrayContaining([
        { id: ws.tags.vip, name: 'VIP' },
        { id: ws.tags.hot, name: 'Chaud' },
      ]),
    });
    expect(response.headers.get('ratelimit-limit')).toBe('120');
  });

  it('answers an empty list for a workspace without pipelines or tags', async () => {
    const empty = await seedTestWorkspace({ workspace: { name: 'Vide' }, api_keys: [{ key: 'k', name: 'K' }] });
    const response = await get(empty.api_keys.k?.secret);
    expect(response.body).toEqual({ pipelines: [], tags: [] });
  });

  it('answers 401 without a key, with an unknown key, or with a key in the URL', async () => {
    const secret = ws.api_keys.reader?.secret as string;
    for (const response of [
      await get(undefined),
      await get('crm_key_nope'),
      await get(secret, { api_key: secret }),
      await get(secret, { access_token: 'x' }),
    ]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    }
    const basic = await api.request('GET', '/pipelines', { headers: { Authorization: `Basic ${secret}` } });
    expect(basic.status).toBe(401);
  });

  it('answers 403 for a key without pipelines:read', async () => {
    const seeded = await seedTestWorkspace(
      aWorkspace({ api_keys: [{ key: 'notes', name: 'Notes', scopes: ['notes:write'] }], prospects: [] }),
    );
    const response = await get(seeded.api_keys.notes?.secret);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
  });
});
