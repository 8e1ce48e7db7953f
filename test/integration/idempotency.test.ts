import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { productionDeps } from '../../lib/deps';
import { IdempotencyKeyInFlightError } from '../../lib/domain/errors';
import { answerOnce } from '../../lib/http/middleware/idempotency';
import { errorResponse, json } from '../../lib/http/middleware/route';
import { routeById } from '../../lib/routes';
import { DynamoDeadlineExceeded, withDynamoDeadline } from '../../lib/storage/client';
import { keys } from '../../lib/storage/table-items';

const deps = productionDeps();
afterAll(() => deps.db.destroy());

const principal = { kind: 'api-key', workspaceId: randomUUID(), keyId: randomUUID(), scopes: ['*'] } as const;
const route = routeById('addNote');
const event = (key: string, body = '{"content":"x"}') => ({ headers: { 'Idempotency-Key': key }, body });

describe('answerOnce on DynamoDB Local', () => {
  it('refuses a second call while the first is still running, then replays its answer', async () => {
    const key = randomUUID();
    let finish: () => void = () => undefined;
    let started: () => void = () => undefined;
    const claimed = new Promise<void>((resolve) => (started = resolve));
    const running = answerOnce(deps, route, event(key), principal, async () => {
      started();
      await new Promise<void>((resolve) => (finish = resolve));
      return json(201, { id: 'n1' });
    });
    await claimed;
    await expect(
      answerOnce(deps, route, event(key), principal, async () => json(201, { id: 'n2' })),
    ).rejects.toBeInstanceOf(IdempotencyKeyInFlightError);
    finish();
    expect((await running).body).toBe('{"id":"n1"}');
    const replay = await answerOnce(deps, route, event(key), principal, async () => json(201, { id: 'n3' }));
    expect(replay).toEqual({
      statusCode: 201,
      body: '{"id":"n1"}',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
  });

  it('lets the retry of a 5xx run again', async () => {
    const key = randomUUID();
    await answerOnce(deps, route, event(key), principal, async () => json(500, { error: 'x' }));
    const retry = await answerOnce(deps, route, event(key), principal, async () => json(201, { id: 'ok' }));
    expect(retry.body).toBe('{"id":"ok"}');
  });

  it('takes over a first call abandoned by a Lambda that died', async () => {
    const key = randomUUID();
    const start = new Date('2026-11-22T10:00:00Z');
    const stalled = { ...deps, clock: () => start };
    let started: () => void = () => undefined;
    const claimed = new Promise<void>((resolve) => (started = resolve));
    void answerOnce(stalled, route, event(key), principal, () => {
      started();
      return new Promise(() => undefined);
    });
    await claimed;
    const later = { ...deps, clock: () => new Date(start.getTime() + 61_000) };
    const retry = await answerOnce(later, route, event(key), principal, async () => json(201, { id: 'after' }));
    expect(retry.body).toBe('{"id":"after"}');
  });

  describe('when the request has spent its DynamoDB time (withDynamoDeadline)', () => {
    const budgetMs = 300;
    const pastTheDeadline = () => new Promise((resolve) => setTimeout(resolve, budgetMs + 100));

    it('still gives the key back after a failure: the retry runs at once, not "still running"', async () => {
      const key = randomUUID();
      const first = withDynamoDeadline(
        () =>
          answerOnce(deps, route, event(key), principal, async () => {
            await pastTheDeadline();
            await deps.db.send(
              new GetCommand({ TableName: deps.tableName, Key: keys.workspace(principal.workspaceId) }),
            );
            return json(201, { id: 'never' });
          }),
        budgetMs,
      );
      await expect(first).rejects.toBeInstanceOf(DynamoDeadlineExceeded);
      const retry = await answerOnce(deps, route, event(key), principal, async () => json(201, { id: 'retry' }));
      expect(retry.body).toBe('{"id":"retry"}');
    });

    it('still keeps an answer given late: the retry replays it', async () => {
      const key = randomUUID();
      const first = await withDynamoDeadline(
        () =>
          answerOnce(deps, route, event(key), principal, async () => {
            await pastTheDeadline();
            return json(201, { id: 'late' });
          }),
        budgetMs,
      );
      expect(first.body).toBe('{"id":"late"}');
      const retry = await answerOnce(deps, route, event(key), principal, async () => json(201, { id: 'again' }));
      expect(retry.body).toBe('{"id":"late"}');
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
