import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { AuthDecision } from '../../lib/auth/context';
import { productionDeps, type Deps } from '../../lib/storage/client';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { apiKeyRoute } from '../../lib/http/middleware/api-key-gate';
import { responseHeadersAndErrors, json, observed, type HttpResponse } from '../../lib/http/middleware/route';
import { webhookGate, webhookJournal } from '../../lib/http/middleware/webhook';
import type { Route } from '../../lib/routes';
import { aLambdaContext, aProxyEvent } from '../support/events';

const apiRoute: Route = {
  id: 'test',
  method: 'PATCH',
  path: '/prospects/{prospect_id}',
  credential: 'api-key',
  scope: 'prospects:write',
  errorShape: 'standard',
  countsStageChanges: true,
};
const leadRoute: Route = {
  ...apiRoute,
  path: '/webhooks/ingest-lead',
  credential: 'webhook-token',
  errorShape: 'lead',
};

type Handle = () => Promise<HttpResponse>;

const webhookChain = (route: Route, deps: Deps, handle: Handle) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(webhookJournal(route, deps))
      .use(responseHeadersAndErrors(route))
      .use(webhookGate(route, deps))
      .handler(handle),
  );

const fixedNow = new Date('2026-11-22T10:00:30.000Z');
const deps = { ...productionDeps(), clock: () => fixedNow };

const keyDecision = (outcome: 'allowed' | 'forbidden', keyId = randomUUID()): AuthDecision => ({
  outcome,
  principal: { kind: 'api-key', workspaceId: randomUUID(), keyId, scopes: ['prospects:write'] },
});

describe('the gate every API-key handler goes through', () => {
  it('answers 401 without running the handler or counting when the authorizer refused', async () => {
    const handle = jest.fn(async () => json(200, {}));
    const handler = apiKeyRoute(apiRoute, deps, handle);
    const response = await handler(aProxyEvent({ decision: { outcome: 'unauthorized' } }), aLambdaContext());
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    expect(response.headers?.['RateLimit-Limit']).toBeUndefined();
    expect(handle).not.toHaveBeenCalled();
  });

  it('answers 401 when there is no authorizer context at all', async () => {
    const handle = jest.fn(async () => json(200, {}));
    const response = await apiKeyRoute(apiRoute, deps, handle)(aProxyEvent(), aLambdaContext());
    expect(response.statusCode).toBe(401);
    expect(handle).not.toHaveBeenCalled();
  });

  it('answers 403 with rate-limit headers for a key without the scope', async () => {
    const handle = jest.fn(async () => json(200, {}));
    const response = await apiKeyRoute(
      apiRoute,
      deps,
      handle,
    )(aProxyEvent({ decision: keyDecision('forbidden') }), aLambdaContext());
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body).error.code).toBe('forbidden');
    expect(response.headers).toMatchObject({ 'RateLimit-Limit': '120', 'RateLimit-Remaining': '119' });
    expect(handle).not.toHaveBeenCalled();
  });

  it('answers 500 in the route shape when the authorizer failed', async () => {
    const handle = jest.fn(async () => json(200, {}));
    const response = await webhookChain(
      leadRoute,
      deps,
      handle,
    )(aProxyEvent({ decision: { outcome: 'failed' } }), aLambdaContext());
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ error: 'ingest_failed', message: expect.any(String) });
    expect(handle).not.toHaveBeenCalled();
  });

  it('counts 120 requests per key and window, then answers 429 without counting', async () => {
    const decision = keyDecision('allowed');
    const handler = apiKeyRoute(apiRoute, deps, async () => json(200, { ok: true }));
    const responses = await Promise.all(
      Array.from({ length: 125 }, () => handler(aProxyEvent({ decision, body: '{}' }), aLambdaContext())),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(120);
    const refused = responses.filter((response) => response.statusCode === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]?.headers).toMatchObject({
      'Retry-After': '30',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '30',
    });
    expect(JSON.parse(refused[0]?.body ?? '').error.code).toBe('rate_limited');
  });

  it('counts 30 stage changes per key and window, the general limit staying open', async () => {
    const decision = keyDecision('allowed');
    const handler = apiKeyRoute(apiRoute, deps, async () => json(200, {}));
    const send = (body: string) => handler(aProxyEvent({ decision, body }), aLambdaContext());
    const stageResponses = await Promise.all(Array.from({ length: 32 }, () => send('{"stage":"x"}')));
    expect(stageResponses.filter((response) => response.statusCode === 200)).toHaveLength(30);
    const last = await send('{"stage":"x"}');
    expect(last.statusCode).toBe(429);
    expect(last.headers).toMatchObject({ 'RateLimit-Limit': '30', 'RateLimit-Remaining': '0' });
    const other = await send('{"setter_id":null}');
    expect(other.statusCode).toBe(200);
    expect(other.headers).toMatchObject({ 'RateLimit-Limit': '120', 'RateLimit-Remaining': '89' });
  });

  it('starts a fresh count in the next window and for another key', async () => {
    const decision = keyDecision('allowed');
    const handler = (now: Date) => apiKeyRoute(apiRoute, { ...deps, clock: () => now }, async () => json(200, {}));
    const first = await handler(fixedNow)(aProxyEvent({ decision, body: null }), aLambdaContext());
    expect(first.headers).toMatchObject({ 'RateLimit-Remaining': '119', 'RateLimit-Reset': '30' });
    const nextWindow = await handler(new Date('2026-11-22T10:01:00.000Z'))(
      aProxyEvent({ decision, body: null }),
      aLambdaContext(),
    );
    expect(nextWindow.headers).toMatchObject({ 'RateLimit-Remaining': '119', 'RateLimit-Reset': '60' });
    const otherKey = await handler(fixedNow)(aProxyEvent({ decision: keyDecision('allowed') }), aLambdaContext());
    expect(otherKey.headers).toMatchObject({ 'RateLimit-Remaining': '119' });
  });
});
