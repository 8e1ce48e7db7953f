import type { Deps } from '../../lib/storage/client';
import { startLocalServer, type LocalServer } from '../../tools/local/server';

/**
 * A body past API Gateway's 10 MB over HTTP: refused before routing and the authorizer, so no
 * function (and no table) is reached. The web ACL's smaller limits are the stack's, tested with its
 * rules (test/unit/gateway-responses.test.ts), not modelled by the local runtime.
 */
let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({ deps: {} as Deps, port: 0 });
});

afterAll(async () => {
  await server.close();
});

const endpointId = '00000000-0000-4000-8000-000000000000';

async function post(path: string, body: string) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer crm_key_x' },
    body,
  });
  return { status: response.status, headers: response.headers, body: JSON.parse(await response.text()) as unknown };
}

const standard = (code: string) => ({ error: { code, message: expect.any(String) } });

test.each([`/webhooks/ingest-lead?endpoint_id=${endpointId}`, '/pipelines'])(
  'a body over 10 MB on %s is API Gateway’s 413, in the standard shape',
  async (path) => {
    const response = await post(path, 'x'.repeat(10 * 1024 * 1024 + 1));
    expect(response.status).toBe(413);
    expect(response.body).toEqual(standard('bad_request'));
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  },
);
