import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { productionDeps, DynamoDeadlineExceeded, withDynamoDeadline } from '../../lib/storage/client';
import { IdempotencyKeyInFlightError } from '../../lib/domain/model';
import { oncePerIdempotencyKey, type Replayable } from '../../lib/http/middleware/idempotency';
import { errorResponse, json, type HttpResponse } from '../../lib/http/middleware/route';
import { routeById } from '../../lib/routes';
import { keys } from '../../lib/storage/table-items';

const deps = productionDeps();
afterAll(() => deps.db.destroy());

const principal = { kind: 'api-key', workspaceId: randomUUID(), keyId: randomUUID(), scopes: ['*'] } as const;
const route = routeById('addNote');
const event = (key: string, body = '{"content":"x"}') => ({ headers: { 'Idempotency-Key': key }, body });

/** `oncePerIdempotencyKey` as a Prospect API handler uses it: a plain HTTP answer, replayed as kept. */
const oncePerKeyAsProspectApi = (
  store: Parameters<typeof oncePerIdempotencyKey>[0],
  key: string,
  answer: () => Promise<HttpResponse>,
): Promise<HttpResponse> =>
  oncePerIdempotencyKey(
    store,
    route,
    event(key),
    principal,
    async () => ({ response: await answer() }),
    (kept) => kept,
  ).then(({ response }) => response);

describe('oncePerIdempotencyKey on DynamoDB Local', () => {
  it('refuses a second call while the first is still running, then replays its answer', async () => {
    const key = randomUUID();
    let finish: () => void = () => undefined;
    let started: () => void = () => undefined;
    const claimed = new Promise<void>((resolve) => (started = resolve));
    const running = oncePerKeyAsProspectApi(deps, key, async () => {
      started();
      await new Promise<void>((resolve) => (finish = resolve));
      return json(201, { id: 'n1' });
    });
    await claimed;
    await expect(oncePerKeyAsProspectApi(deps, key, async () => json(201, { id: 'n2' }))).rejects.toBeInstanceOf(
      IdempotencyKeyInFlightError,
    );
    finish();
    expect((await running).body).toBe('{"id":"n1"}');
    const replay = await oncePerKeyAsProspectApi(deps, key, async () => json(201, { id: 'n3' }));
    expect(replay).toEqual({
      statusCode: 201,
      body: '{"id":"n1"}',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
  });

  it('lets the retry of a 5xx run again', async () => {
    const key = randomUUID();
    await oncePerKeyAsProspectApi(deps, key, async () => json(500, { error: 'x' }));
    const retry = await oncePerKeyAsProspectApi(deps, key, async () => json(201, { id: 'ok' }));
    expect(retry.body).toBe('{"id":"ok"}');
  });

  it('takes over a first call abandoned by a Lambda that died', async () => {
    const key = randomUUID();
    const start = new Date('2026-11-22T10:00:00Z');
    const stalled = { ...deps, clock: () => start };
    let started: () => void = () => undefined;
    const claimed = new Promise<void>((resolve) => (started = resolve));
    void oncePerKeyAsProspectApi(stalled, key, () => {
      started();
      return new Promise(() => undefined);
    });
    await claimed;
    const later = { ...deps, clock: () => new Date(start.getTime() + 61_000) };
    const retry = await oncePerKeyAsProspectApi(later, key, async () => json(201, { id: 'after' }));
    expect(retry.body).toBe('{"id":"after"}');
  });

  describe('when the request has spent its DynamoDB time (withDynamoDeadline)', () => {
    // Room for the claim's own write on a loaded DynamoDB Local (300 ms was once passed there before the answer).
    const budgetMs = 1500;
    const pastTheDeadline = () => new Promise((resolve) => setTimeout(resolve, budgetMs + 100));

    it('still gives the key back after a failure: the retry runs at once, not "still running"', async () => {
      const key = randomUUID();
      const first = withDynamoDeadline(
        () =>
          oncePerKeyAsProspectApi(deps, key, async () => {
            await pastTheDeadline();
            await deps.db.send(
              new GetCommand({ TableName: deps.tableName, Key: keys.workspace(principal.workspaceId) }),
            );
            return json(201, { id: 'never' });
          }),
        budgetMs,
      );
      await expect(first).rejects.toBeInstanceOf(DynamoDeadlineExceeded);
      const retry = await oncePerKeyAsProspectApi(deps, key, async () => json(201, { id: 'retry' }));
      expect(retry.body).toBe('{"id":"retry"}');
    });

    it('still keeps an answer given late: the retry replays it', async () => {
      const key = randomUUID();
      const first = await withDynamoDeadline(
        () =>
          oncePerKeyAsProspectApi(deps, key, async () => {
            await pastTheDeadline();
            return json(201, { id: 'late' });
          }),
        budgetMs,
      );
      expect(first.body).toBe('{"id":"late"}');
      const retry = await oncePerKeyAsProspectApi(deps, key, async () => json(201, { id: 'again' }));
      expect(retry.body).toBe('{"id":"late"}');
    });
  });

  it('keeps a webhook answer with what its journal entry says, and replays both as values', async () => {
    const key = randomUUID();
    const webhook = { kind: 'webhook', workspaceId: randomUUID(), endpointId: randomUUID() } as const;
    const journal = { outcome: 'created', record_id: 'p1', placement: 'defaut', warnings: ['w'] };
    const once = (answer: () => Promise<Replayable>) =>
      oncePerIdempotencyKey(
        deps,
        routeById('ingestLead'),
        event(key, '{"email":"a@b.fr"}'),
        webhook,
        answer,
        (kept) => ({
          ...kept,
          replayed: true,
        }),
      );
    const first = await once(async () => ({ response: json(200, { status: 'created' }), journal }));
    expect(first).toEqual({ response: json(200, { status: 'created' }), journal });
    const replay = await once(async () => ({ response: json(200, { status: 'other' }) }));
    expect(replay).toEqual({
      response: {
        statusCode: 200,
        body: '{"status":"created"}',
        headers: { 'Content-Type': json(200, {}).headers['Content-Type'] },
      },
      journal,
      replayed: true,
    });
  });

  it('answers the in-flight case with 500 and Retry-After on the webhooks, 409 on the API', () => {
    const error = new IdempotencyKeyInFlightError('en cours');
    expect(errorResponse(routeById('ingestLead'), error)).toMatchObject({
      statusCode: 500,
      headers: { 'Retry-After': '1' },
    });
    expect(JSON.parse(errorResponse(routeById('ingestLead'), error).body)).toMatchObject({ error: 'ingest_failed' });
    expect(errorResponse(routeById('recruitment'), error)).toMatchObject({ statusCode: 500 });
    expect(errorResponse(routeById('addNote'), error)).toMatchObject({
      statusCode: 409,
      headers: { 'Retry-After': '1' },
    });
  });
});
