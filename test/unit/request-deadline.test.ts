import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { jest } from '@jest/globals';
import { createAuthorizer } from '../../functions/authorizer';
import { functionTimeoutSeconds, routeById } from '../../lib/routes';
import { createDocumentClient, dynamoRequestBudgetMs } from '../../lib/storage/client';
import { fixture } from '../support/fake-table';
import { anAuthorizerEvent } from '../support/gateway-fixtures';
import { recordingMetrics } from '../support/recording-metrics';
import { callRoute, expectCleanServerError } from '../support/route-calls';

/**
 * The request deadline is wired where requests enter: a table that accepts connections and never
 * answers ends a route in its clean 5xx, and the authorizer in its `failed` decision, once the
 * request's DynamoDB budget is spent — well before the per-call timeouts alone would (DynamoDB
 * Local's client waits 15 s per attempt) and before the 10 s Lambda timeout.
 */
let sockets: Socket[] = [];
const server = createServer((socket) => {
  sockets.push(socket);
  socket.on('error', () => undefined);
});
let endpoint: string;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  sockets.forEach((socket) => socket.destroy());
  sockets = [];
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

test('a stalled table ends the route and the authorizer within the request budget', async () => {
  const deps = {
    db: createDocumentClient({ endpoint }),
    tableName: fixture.tableName,
    clock: () => new Date(),
    newId: () => '00000000-0000-4000-8000-000000000001',
    metrics: recordingMetrics(),
  };
  const started = Date.now();
  const [response, authorization] = await Promise.all([
    callRoute('addNote', deps),
    createAuthorizer(deps)(anAuthorizerEvent({ headers: { Authorization: 'Bearer crm_key_x' } })),
  ]);
  const elapsed = Date.now() - started;
  deps.db.destroy();
  expectCleanServerError(routeById('addNote'), response);
  expect(authorization.context).toEqual({ outcome: 'failed' });
  expect(elapsed).toBeGreaterThanOrEqual(dynamoRequestBudgetMs - 100);
  // What matters, however late a loaded machine fires timers: before the Lambda timeout, where the
  // per-call timeouts alone would have waited 3 × 15 s.
  expect(elapsed).toBeLessThan(functionTimeoutSeconds * 1000);
}, 20_000);
