import type { SeedOutput } from '../../tools/seed/seed';
import { startTestApi, type TestApi } from '../support/local-api';
import { rawRequest } from '../support/raw-http';
import { seedTestWorkspace } from '../support/seed';

/**
 * The local gateway over HTTP: the authorizer's policy, the method ARN, header and query-string
 * quotas and routing of API Gateway REST (docs/deploy.md, "Authorizer policy and routing"). Raw
 * requests: the targets here are not in the OpenAPI document on purpose.
 */

let api: TestApi;
let seed: SeedOutput;

beforeAll(async () => {
  [api, seed] = await Promise.all([startTestApi(), seedTestWorkspace()]);
});

afterAll(async () => {
  await api.close();
});

const admin = () => ({ Authorization: `Bearer ${seed.api_keys.admin?.secret}` });
const send = (method: string, target: string, headers: Record<string, string> = {}, body?: string) =>
  rawRequest(api.url, method, target, headers, body);
const errorCode = (text: string): unknown => {
  const body = JSON.parse(text) as { error: unknown };
  return typeof body.error === 'string' ? body.error : (body.error as { code: string }).code;
};

/** arn:aws:execute-api:eu-west-3:123456789012:localapi/local/POST/prospects/<id>/notes */
const arnBytesWithoutId = 'arn:aws:execute-api:eu-west-3:123456789012:localapi/local/POST/prospects//notes'.length;

test('a very long path (method ARN of 1600 bytes) still goes through the authorizer to the handler', async () => {
  const id = 'p'.repeat(1600 - arnBytesWithoutId);
  const response = await send('POST', `/prospects/${id}/notes`, admin(), JSON.stringify({ content: 'Rappeler' }));
  // Past the authorizer and the gate (no 401/403/414/500): the handler looked the prospect up.
  expect(response.status).toBe(404);
  expect(errorCode(response.text)).toBe('not_found');
});

test('one byte more is the 414 API Gateway answers, before any credential check', async () => {
  const id = 'p'.repeat(1600 - arnBytesWithoutId + 1);
  const response = await send('POST', `/prospects/${id}/notes`, {}, JSON.stringify({ content: 'Rappeler' }));
  expect(response.status).toBe(414);
  expect(errorCode(response.text)).toBe('bad_request');
});

test('a trailing slash reaches the resource without it', async () => {
  const response = await send('GET', '/pipelines/', admin());
  expect(response.status).toBe(200);
  expect((JSON.parse(response.text) as { pipelines: unknown[] }).pipelines).toHaveLength(2);
});

test('a semicolon splits the query string: a credential behind it is seen and refused', async () => {
  expect((await send('GET', '/pipelines?view=all;api_key=leaked', admin())).status).toBe(401);
  expect((await send('GET', '/pipelines?view=all%3Bapi_key=leaked', admin())).status).toBe(200);
});

test('headers over 10240 bytes in all are a 431 bad_request; 10240 pass', async () => {
  const probe = { ...admin(), 'X-Pad': '' };
  // What node:http sends besides: Host and Connection.
  const sent = `Host: ${new URL(api.url).host}\r\nConnection: keep-alive\r\n`.length;
  const fixed =
    sent + Object.entries(probe).reduce((total, [name, value]) => total + `${name}: ${value}\r\n`.length, 0);
  const padded = (bytes: number) => ({ ...admin(), 'X-Pad': 'x'.repeat(bytes - fixed) });
  expect((await send('GET', '/pipelines', padded(10240))).status).toBe(200);
  const refused = await send('GET', '/pipelines', padded(10241));
  expect(refused.status).toBe(431);
  expect(errorCode(refused.text)).toBe('bad_request');
});

test('a repeated query parameter: the authorizer reads its last value', async () => {
  const unknown = '00000000-0000-4000-8000-000000000000';
  const lastMalformed = await send('POST', `/webhooks/ingest-lead?endpoint_id=${unknown}&endpoint_id=nope`, {}, '{}');
  expect(lastMalformed.status).toBe(400);
  expect(errorCode(lastMalformed.text)).toBe('invalid_endpoint_id');
  const lastUnknown = await send('POST', `/webhooks/ingest-lead?endpoint_id=nope&endpoint_id=${unknown}`, {}, '{}');
  expect(lastUnknown.status).toBe(401);
});
