import type { SeedOutput } from '../../tools/seed/seed';
import { startTestApi, type TestApi } from '../support/local-api';
import { seedTestWorkspace } from '../support/seed';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const notFound = { error: { code: 'not_found', message: expect.any(String) } };

test('GET /health answers 200 {"ok":true} without any credential', async () => {
  const response = await api.request('GET', '/health');
  expect(response.status).toBe(200);
  expect(response.text).toBe('{"ok":true}');
});

test('a request on a kept-alive connection after the event loop ran late is answered, not reset', async () => {
  expect((await api.request('GET', '/health')).status).toBe(200);
  // The client's own bookkeeping runs once, then the loop is held (without spending CPU) past
  // Node's 5 s keep-alive window and its 1 s buffer: a server that closes idle connections itself
  // would do it as the next request goes out on this one (ECONNRESET, every time).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 6500);
  expect((await api.request('GET', '/health')).status).toBe(200);
}, 20_000);

test('an unknown path is a 404 not_found', async () => {
  const response = await api.request('GET', '/nowhere/at/all');
  expect(response.status).toBe(404);
  expect(response.body).toEqual(notFound);
});

test.each([
  ['DELETE', '/pipelines'],
  ['GET', '/webhooks/ingest-lead'],
])('a known path with another method (%s %s) is a 404 not_found in the standard shape', async (method, path) => {
  const response = await api.request(method, path);
  expect(response.status).toBe(404);
  expect(response.body).toEqual(notFound);
});

test('GET /pipelines without a credential is a 401 from the authorizer contract', async () => {
  const response = await api.request('GET', '/pipelines');
  expect(response.status).toBe(401);
  expect(response.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
  expect(response.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
});

/** A gateway response has one static body for the whole API (no VTL): the standard shape, even on the lead webhook. */
test('a body over 10 MB is a 413 in the standard error shape, before any credential check', async () => {
  const response = await api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: '00000000-0000-4000-8000-000000000000' },
    body: 'x'.repeat(10 * 1024 * 1024 + 1),
  });
  expect(response.status).toBe(413);
  expect(response.body).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
});

describe('with a seeded workspace', () => {
  let seed: SeedOutput;

  beforeAll(async () => {
    seed = await seedTestWorkspace();
  });

  const bearer = (key: string) => ({ Authorization: `Bearer ${seed.api_keys[key]?.secret}` });

  test('GET /pipelines with a valid key goes through the authorizer to the handler', async () => {
    const response = await api.request('GET', '/pipelines', { headers: bearer('admin') });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('ratelimit-limit')).toBe('120');
    const body = response.body as { pipelines: Array<{ id: string; name: string }> };
    expect(body.pipelines.map((pipeline) => pipeline.name)).toEqual(['Ventes', 'Partenaires']);
    expect(body.pipelines[0]?.id).toBe(seed.pipelines.sales?.id);
  });

  test('a clock given to startTestApi reaches the handlers', async () => {
    const clockedApi = await startTestApi({ clock: () => new Date('2030-01-01T10:00:45.000Z') });
    try {
      const response = await clockedApi.request('GET', '/pipelines', { headers: bearer('reader') });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-reset')).toBe('15');
    } finally {
      await clockedApi.close();
    }
  });
});
