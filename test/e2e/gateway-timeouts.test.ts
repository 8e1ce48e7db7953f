import { jest } from '@jest/globals';
import { gatewayResponseTemplate } from '../../infra/cdk/gateway-responses';
import type { SeedOutput } from '../../tools/seed/seed';
import { createDocumentClient } from '../../lib/storage/client';
import { captureLogs } from '../support/captured-logs';
import { partitionOf, startFaultyWire, type FaultyWire, type WireCall } from '../support/faulty-wire';
import { startTestApi, type TestApi } from '../support/local-api';
import { seedTestWorkspace } from '../support/seed';

/**
 * Over HTTP through the local server: a function past its timeout ends as
 * Lambda ends it (API Gateway then answers 502), a route past API Gateway's integration timeout
 * gets the gateway's 504, and an authorizer past its timeout the gateway's 500; each body is the
 * stack's own gateway response (DEFAULT_5XX, infra/cdk/gateway-responses.ts). The timeouts are
 * shortened; the table is stalled on the wire (`hold`) until each test has its answer, so the
 * function is late by construction, not by chance.
 */
const functionMs = 2_000;
const integrationMs = 1_000;

let ws: SeedOutput;
let wire: FaultyWire;
let lambdaBound: TestApi;
let gatewayBound: TestApi;

beforeAll(async () => {
  ws = await seedTestWorkspace();
  wire = await startFaultyWire(process.env.DYNAMODB_ENDPOINT as string);
  const db = createDocumentClient({ endpoint: wire.endpoint });
  lambdaBound = await startTestApi({ db }, { functionMs });
  gatewayBound = await startTestApi({ db }, { integrationMs });
});
afterAll(async () => {
  wire.release();
  await lambdaBound.close();
  await gatewayBound.close();
  await wire.close();
});
afterEach(() => {
  wire.plan = () => 'pass';
  wire.release();
  jest.restoreAllMocks();
});

/** The rate counter is the route handler's first write; the API key the authorizer's first read. */
const isRateCounter = (call: WireCall) => call.operation === 'UpdateItem' && partitionOf(call).startsWith('RATE#');
const isApiKeyRead = (call: WireCall) => call.operation === 'GetItem' && partitionOf(call).startsWith('APIKEY#');
const holding = (match: (call: WireCall) => boolean) => (call: WireCall) => (match(call) ? 'hold' : 'pass');

const listPipelines = (api: TestApi) =>
  api.request('GET', '/pipelines', { headers: { Authorization: `Bearer ${ws.api_keys.admin?.secret}` } });

const gatewayBody = JSON.parse(gatewayResponseTemplate('DEFAULT_5XX')) as unknown;

it('a route function past its timeout is ended as Lambda ends it: a 502 in the gateway’s shape; the next call is answered', async () => {
  const logs = captureLogs('ERROR');
  wire.plan = holding(isRateCounter);
  const started = Date.now();
  const response = await listPipelines(lambdaBound).finally(() => logs.restore());
  const waited = Date.now() - started;
  expect(response.status).toBe(502);
  expect(response.body).toEqual(gatewayBody);
  expect(response.headers.get('x-request-id')).toBe(response.headers.get('x-amzn-requestid'));
  expect(waited).toBeGreaterThanOrEqual(functionMs);
  expect(logs.lines()).toContainEqual(
    expect.objectContaining({
      message: 'function failed',
      function: 'listPipelines',
      error: expect.objectContaining({ name: 'Sandbox.Timedout', message: 'Task timed out after 2.00 seconds' }),
    }),
  );

  wire.plan = () => 'pass';
  wire.release();
  expect((await listPipelines(lambdaBound)).status).toBe(200);
});

it('a route past API Gateway’s integration timeout gets the gateway’s 504 in the same shape', async () => {
  wire.plan = holding(isRateCounter);
  const started = Date.now();
  const response = await listPipelines(gatewayBound);
  expect(response.status).toBe(504);
  expect(response.body).toEqual(gatewayBody);
  expect(response.headers.get('x-request-id')).toBe(response.headers.get('x-amzn-requestid'));
  expect(Date.now() - started).toBeGreaterThanOrEqual(integrationMs);
});

it('an authorizer past its function timeout is the gateway’s 500 in the same shape, and no handler runs', async () => {
  wire.plan = holding(isApiKeyRead);
  const callsBefore = wire.calls.length;
  const response = await listPipelines(lambdaBound);
  expect(response.status).toBe(500);
  expect(response.body).toEqual(gatewayBody);
  expect(wire.calls.slice(callsBefore).filter(isRateCounter)).toEqual([]);
});
