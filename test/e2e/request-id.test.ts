import { captureLogs } from '../support/captured-logs';
import type { SeedOutput } from '../../tools/seed/seed';
import { productionDeps } from '../../lib/storage/client';
import { startTestApi, type TestApi } from '../support/local-api';
import { seedTestWorkspace } from '../support/seed';

/** Every answer names its request, and the error logs name it too, so a caller's report leads to the logs. */

let api: TestApi;
let ws: SeedOutput;

beforeAll(async () => {
  [ws, api] = await Promise.all([seedTestWorkspace(), startTestApi()]);
});
afterAll(async () => {
  await api.close();
});

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test.each([
  ['a success', 'GET', '/pipelines', 200],
  ['an error of the handler', 'PATCH', '/prospects/inconnu', 404],
  ['a refusal of the gate', 'POST', '/webhooks/ingest-lead', 404],
  ['a gateway response (unknown route)', 'GET', '/nulle-part', 404],
])('%s carries x-request-id, API Gateway’s request id', async (_case, method, path, status) => {
  const response = await api.request(method, path, {
    headers: { Authorization: `Bearer ${ws.api_keys.admin?.secret}` },
    body: method === 'GET' ? undefined : { setter_id: null },
  });
  expect(response.status).toBe(status);
  expect(response.headers.get('x-request-id')).toMatch(uuid);
  expect(response.headers.get('x-request-id')).toBe(response.headers.get('x-amzn-requestid'));
});

test('each request has its own id', async () => {
  const ids = await Promise.all(
    [1, 2, 3].map(async () => (await api.request('GET', '/pipelines')).headers.get('x-request-id')),
  );
  expect(new Set(ids).size).toBe(3);
});

test('a 500 logs the request id its answer carries', async () => {
  const failing = productionDeps();
  failing.db.middlewareStack.add(
    () => async () => {
      throw new Error('DynamoDB injoignable');
    },
    { step: 'initialize', name: 'outage' },
  );
  const failingApi = await startTestApi({ db: failing.db });
  const logs = captureLogs('ERROR');
  try {
    const response = await failingApi.request('POST', '/webhooks/recruitment', {
      query: { endpoint_id: ws.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${ws.webhook?.token}` },
      body: { email: 'panne@exemple.test', name: 'Panne' },
    });
    expect(response.status).toBe(500);
    const requestId = response.headers.get('x-request-id');
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({
        level: 'ERROR',
        message: 'request failed',
        route: 'recruitment',
        correlation_id: requestId,
      }),
    );
  } finally {
    logs.restore();
    await failingApi.close();
    failing.db.destroy();
  }
});
