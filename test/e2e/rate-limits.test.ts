import type { SeedOutput } from '../../tools/seed/seed';
import { startTestApi, type TestApi } from '../support/local-api';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/** The window is driven by an injected clock, never the wall clock, so no test straddles a minute. */
let now = new Date('2026-11-22T09:00:10.000Z');
let api: TestApi;
let ws: SeedOutput;

beforeAll(async () => {
  ws = await seedTestWorkspace(
    aWorkspace({
      api_keys: [
        { key: 'one', name: 'Une', scopes: ['*'] },
        { key: 'two', name: 'Deux', scopes: ['*'] },
      ],
    }),
  );
  api = await startTestApi({ clock: () => now });
});
afterAll(async () => {
  await api.close();
});

const get = (key: string) =>
  api.request('GET', '/pipelines', { headers: { Authorization: `Bearer ${ws.api_keys[key]?.secret}` } });
const patchStage = (key: string) =>
  api.request('PATCH', `/prospects/${ws.prospects.lead}`, {
    headers: { Authorization: `Bearer ${ws.api_keys[key]?.secret}` },
    body: { stage: 'Nouveau' },
  });

test('120 requests per key and minute, then 429 with Retry-After; another key and the next minute are unaffected', async () => {
  const responses = await Promise.all(Array.from({ length: 120 }, () => get('one')));
  expect(responses.every((response) => response.status === 200)).toBe(true);
  const remaining = responses
    .map((response) => Number(response.headers.get('ratelimit-remaining')))
    .sort((a, b) => a - b);
  expect(remaining).toEqual(Array.from({ length: 120 }, (_, index) => index));

  const refused = await get('one');
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
  expect(refused.headers.get('retry-after')).toBe('50');
  expect(refused.headers.get('ratelimit-limit')).toBe('120');
  expect(refused.headers.get('ratelimit-remaining')).toBe('0');
  expect(refused.headers.get('ratelimit-reset')).toBe('50');

  expect((await get('two')).status).toBe(200);
  now = new Date('2026-11-22T09:01:00.000Z');
  expect((await get('one')).status).toBe(200);
});

test('30 stage changes per key and minute, the other requests still served', async () => {
  now = new Date('2026-11-22T09:05:30.000Z');
  const responses = await Promise.all(Array.from({ length: 30 }, () => patchStage('two')));
  expect(responses.every((response) => response.status === 200)).toBe(true);
  const refused = await patchStage('two');
  expect(refused.status).toBe(429);
  expect(refused.headers.get('ratelimit-limit')).toBe('30');
  expect(refused.headers.get('retry-after')).toBe('30');
  const other = await get('two');
  expect(other.status).toBe(200);
  expect(other.headers.get('ratelimit-remaining')).toBe(String(120 - 31));
});
