import type { Deps } from '../../lib/deps';
import { answer, type IncomingRequest } from '../../tools/local/api-gateway';
import { startLocalServer, type LocalServer } from '../../tools/local/server';
import { routes } from '../../lib/routes';

/**
 * Bodies between Lambda's 6 MB and API Gateway's 10 MB, and past 10 MB, over HTTP: the web ACL's
 * body-size rules answer before routing and the authorizer, so no function (and no table) is reached.
 */
let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({ deps: {} as Deps, port: 0 });
});

afterAll(async () => {
  await server.close();
});

const endpointId = '00000000-0000-4000-8000-000000000000';
const sevenMegabytes = 'x'.repeat(7 * 1024 * 1024);

async function post(path: string, body: string) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer crm_key_x' },
    body,
  });
  return { status: response.status, headers: response.headers, body: JSON.parse(await response.text()) as unknown };
}

const standard = (code: string) => ({ error: { code, message: expect.any(String) } });

test.each([
  [
    'the lead webhook',
    `/webhooks/ingest-lead?endpoint_id=${endpointId}`,
    { error: 'invalid_payload', message: expect.any(String) },
  ],
  ['the recruitment webhook', `/webhooks/recruitment?endpoint_id=${endpointId}`, standard('bad_request')],
  ['a Prospect API route', `/prospects/${endpointId}/notes`, standard('bad_request')],
  ['an unknown route', '/nowhere', standard('bad_request')],
])('a 7 MB body on %s is the route’s 400, as the WAF answers it', async (_, path, expected) => {
  const response = await post(path, sevenMegabytes);
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.body).toEqual(expected);
});

test.each([`/webhooks/ingest-lead?endpoint_id=${endpointId}`, '/pipelines'])(
  'a body over 10 MB on %s is API Gateway’s 413, in the standard shape',
  async (path) => {
    const response = await post(path, 'x'.repeat(10 * 1024 * 1024 + 1));
    expect(response.status).toBe(413);
    expect(response.body).toEqual(standard('bad_request'));
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  },
);

test('a 7 MB body without Content-Length (chunked) passes the WAF and fails at Lambda: a JSON 502', async () => {
  const handlerCalls: unknown[] = [];
  const incoming: IncomingRequest = {
    method: 'POST',
    target: `/webhooks/ingest-lead?endpoint_id=${endpointId}`,
    rawHeaders: ['Host', 'localhost', 'Transfer-Encoding', 'chunked'],
    body: sevenMegabytes,
    sourceIp: '127.0.0.1',
    httpVersion: '1.1',
  };
  const reply = await answer(
    routes,
    incoming,
    {
      authorizer: async (event) => ({
        principalId: 'w',
        policyDocument: {
          Version: '2012-10-17',
          Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }],
        },
        context: { outcome: 'allowed' },
      }),
      handler: async (route, event) => {
        handlerCalls.push([route, event]);
        return { statusCode: 200, body: '{}' };
      },
    },
    { requestId: 'r-1', extendedRequestId: 'e-1', now: new Date() },
  );
  expect(reply.statusCode).toBe(502);
  expect(JSON.parse(reply.body.toString())).toEqual(standard('internal'));
  expect(handlerCalls).toHaveLength(0);
});
