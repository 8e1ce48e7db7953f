import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { webhookCallEvent } from '../../lib/settings/webhook-call-replay';
import { deployedWebhooks, invokedWebhooks } from '../../lib/settings/webhook-functions';
import type { SeedOutput } from '../../tools/seed/seed';
import { createLambdaClient, lambdaFunctionInvoker } from '../../lib/lambda/function-invoker';
import { routeById } from '../../lib/routes';
import { createDocumentClient } from '../../lib/storage/client';
import { captureLogs } from '../support/captured-logs';
import { startFaultyWire, type FaultyWire } from '../support/faulty-wire';
import { startTestApi, type TestApi } from '../support/local-api';
import { seedTestWorkspace } from '../support/seed';

/**
 * The replay's way to the webhooks (lib/settings/webhook-functions.ts): each webhook's own function, invoked through
 * the Lambda API (lib/lambda/function-invoker.ts), here the local server's, which runs its functions as the local
 * runtime does, timeouts included (tools/local/lambda-runtime.ts `lambdaApiReply`).
 */

const functionMs = 1_500;
let ws: SeedOutput;
let wire: FaultyWire;
let api: TestApi;

beforeAll(async () => {
  ws = await seedTestWorkspace();
  wire = await startFaultyWire(process.env.DYNAMODB_ENDPOINT as string);
  api = await startTestApi({ db: createDocumentClient({ endpoint: wire.endpoint }) }, { functionMs });
});
afterAll(async () => {
  wire.release();
  await api.close();
  await wire.close();
});

const invoke = () => lambdaFunctionInvoker(createLambdaClient({ endpoint: api.url }, 5_000));
/** A lead the webhook refuses (no contact), as the replay sends it: allowed for the workspace's endpoint. */
const refusedLead = (): APIGatewayProxyEvent =>
  webhookCallEvent(
    routeById('ingestLead'),
    { id: ws.webhook?.endpoint_id as string, workspace_id: ws.workspace_id },
    { body: JSON.stringify({ first_name: 'Sans contact' }), content_type: 'application/json' },
    `test-${randomUUID()}`,
  );

test('a webhook function answers the event with its proxy result', async () => {
  const answer = await invoke()('ingestLead', refusedLead());
  expect(answer).toMatchObject({ statusCode: 400, body: expect.stringContaining('invalid_payload') });
});

test('a function the Lambda API does not know: the call fails, naming it', async () => {
  await expect(invoke()('noSuchFunction', {})).rejects.toMatchObject({
    name: 'ResourceNotFoundException',
    message: expect.stringContaining('noSuchFunction'),
  });
});

test('an unsigned request (a web page’s, say) invokes nothing: 403, as Lambda answers it', async () => {
  const sent = await fetch(`${api.url}/2015-03-31/functions/ingestLead/invocations`, {
    method: 'POST',
    body: JSON.stringify(refusedLead()),
  });
  expect(sent.status).toBe(403);
  expect(sent.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
});

test('a function past its timeout: the call fails with its error type, never its message', async () => {
  const logs = captureLogs('ERROR');
  wire.plan = (call) => (call.operation === 'PutItem' ? 'hold' : 'pass');
  try {
    await expect(invoke()('ingestLead', refusedLead())).rejects.toThrow(
      /^ingestLead failed \(Unhandled, Sandbox\.Timedout\)$/,
    );
  } finally {
    wire.plan = () => 'pass';
    wire.release();
    logs.restore();
  }
});

test('the replay’s invoker picks the webhook’s function by route, and refuses an answer that is no proxy result', async () => {
  const invoked = jest.fn(async (name: string) => (name === 'fn-recruitment' ? {} : { statusCode: 200, body: '{}' }));
  const webhooks = invokedWebhooks(invoked, { ingestLead: 'fn-ingest', recruitment: 'fn-recruitment' });
  expect(await webhooks(routeById('ingestLead'), refusedLead())).toEqual({ statusCode: 200, body: '{}' });
  await expect(webhooks(routeById('recruitment'), refusedLead())).rejects.toThrow('fn-recruitment');
  expect(invoked.mock.calls.map(([name]) => name)).toEqual(['fn-ingest', 'fn-recruitment']);
});

test('deployed, the replay cannot start without both functions’ names', () => {
  expect(() => deployedWebhooks({ RECRUITMENT_FUNCTION_NAME: 'r' }, 'eu-west-3')).toThrow(
    'Configuration invalide : INGEST_LEAD_FUNCTION_NAME',
  );
  expect(() => deployedWebhooks({ INGEST_LEAD_FUNCTION_NAME: 'i' }, 'eu-west-3')).toThrow(
    'Configuration invalide : RECRUITMENT_FUNCTION_NAME',
  );
});
