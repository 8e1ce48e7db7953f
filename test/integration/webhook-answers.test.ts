import { randomUUID } from 'node:crypto';
import { productionDeps } from '../../lib/storage/client';
import { InvalidInputError } from '../../lib/domain/model';
import type { WebhookAnswer, WebhookCallContext } from '../../lib/domain/webhook-call';
import { webhookRoute, type WebhookUseCase } from '../../lib/http/middleware/webhook';
import { routeById } from '../../lib/routes';
import { getWorkspaceAndCall } from '../../lib/storage/webhook-call-list';
import { aLambdaContext, aProxyEvent } from '../support/events';
import { recordingMetrics } from '../support/recording-metrics';

/**
 * The webhook route (`webhookRoute`, the composition of both webhooks and of the replay), around a use case of the
 * test's: the route answers, journals and counts from the value the use case returns, and from the
 * error mapping when it throws. On DynamoDB Local, where the entry is read back.
 */
const route = routeById('ingestLead');
const metrics = recordingMetrics();
const deps = { ...productionDeps(), metrics };
afterAll(() => deps.db.destroy());

const workspaceId = randomUUID();
const endpointId = randomUUID();

/** Runs one call through the chain; `seen` is the call the use case was given. */
async function callWith(answer: (call: WebhookCallContext) => Promise<WebhookAnswer<unknown>>) {
  let seen: WebhookCallContext | undefined;
  const useCase: WebhookUseCase = (_deps, call) => {
    seen = call;
    return answer(call);
  };
  const handler = webhookRoute(route, deps, useCase);
  const event = aProxyEvent({
    httpMethod: 'POST',
    body: '{"email":"a@b.fr"}',
    headers: { 'Content-Type': 'application/json' },
    decision: { outcome: 'allowed', principal: { kind: 'webhook', workspaceId, endpointId } },
  });
  metrics.clear();
  const response = await handler(event, aLambdaContext());
  const call = seen as WebhookCallContext;
  const { call: entry } = await getWorkspaceAndCall(deps, workspaceId, call.id, new Date());
  return { response, entry };
}

const value = (journaledWithChange: boolean): WebhookAnswer<unknown> => ({
  answer: { status: 'created', prospect_id: 'p1' },
  journal: { outcome: 'created', record_id: 'p1', placement: 'defaut', warnings: ['w'] },
  journaledWithChange,
  counts: [{ metric: 'LeadsCreated' }, { metric: 'LeadWarnings', value: 1 }],
});

describe('a webhook answered from its use case value', () => {
  it('answers the value, counts what it reports, and journals the entry the change did not write', async () => {
    const { response, entry } = await callWith(async () => value(false));
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ status: 'created', prospect_id: 'p1' });
    expect(metrics.counts).toEqual([
      { metric: 'LeadsCreated', dimensions: {}, value: 1 },
      { metric: 'LeadWarnings', dimensions: {}, value: 1 },
    ]);
    expect(entry).toMatchObject({
      status: 200,
      outcome: 'created',
      record_id: 'p1',
      placement: 'defaut',
      warnings: ['w'],
      endpoint_id: endpointId,
    });
    expect(entry?.body).toBeUndefined();
  });

  it('writes no entry of its own when the value says it went with the change', async () => {
    const { response, entry } = await callWith(async () => value(true));
    expect(response.statusCode).toBe(200);
    expect(entry).toBeUndefined();
    expect(metrics.total('LeadsCreated')).toBe(1);
  });

  it('journals and counts a use case error by the code the error mapping gives, with the body sent', async () => {
    const { response, entry } = await callWith(async () => {
      throw new InvalidInputError('Aucun moyen de contact.');
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 'invalid_payload', message: 'Aucun moyen de contact.' });
    expect(metrics.counts).toEqual([{ metric: 'LeadsRefused', dimensions: { code: 'invalid_payload' }, value: 1 }]);
    expect(entry).toMatchObject({
      status: 400,
      outcome: 'invalid_payload',
      record_id: null,
      body: '{"email":"a@b.fr"}',
    });
  });
});
