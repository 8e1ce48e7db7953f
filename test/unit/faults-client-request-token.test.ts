import { jest } from '@jest/globals';
import { marshall } from '@aws-sdk/util-dynamodb';
import { routeById } from '../../lib/routes';
import { fixture } from '../support/fake-table';
import { fakeDynamoDb, wire, type FakeDynamoDb } from '../support/fake-dynamodb-http';
import { recordingMetrics } from '../support/recording-metrics';
import { callRoute, expectCleanServerError } from '../support/route-calls';

/**
 * An ambiguous DynamoDB 500 (the write may have been applied) must not become a second write.
 * TransactWriteItems has an idempotency token, ClientRequestToken: the SDK fills it in when the
 * caller gives none (it is an `idempotencyToken` member of the operation's schema) at
 * serialization, before its retry loop, so every retry of one call carries the same token and
 * DynamoDB applies the transaction at most once (within its ten-minute token window).
 */

const deps = (fake: FakeDynamoDb) => ({
  db: fake.db,
  tableName: fixture.tableName,
  clock: () => fixture.now,
  newId: () => crypto.randomUUID(),
  metrics: recordingMetrics(),
});
const counterAnswer = wire.ok({ Attributes: marshall({ requests: 1, stage_changes: 0 }) });
const tokenOf = (request: { body: Record<string, unknown> }) => request.body.ClientRequestToken;

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

describe('ClientRequestToken on every transaction', () => {
  it('is filled in by the SDK and kept identical when the SDK retries an ambiguous 500', async () => {
    const fake = await fakeDynamoDb({
      UpdateItem: [counterAnswer],
      TransactWriteItems: [wire.internalServerError(), wire.ok()],
    });
    const response = await callRoute('addNote', deps(fake));
    expect(response.statusCode).toBe(201);
    const attempts = fake.requests('TransactWriteItems');
    expect(attempts).toHaveLength(2);
    expect(tokenOf(attempts[0]!)).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    expect(tokenOf(attempts[1]!)).toBe(tokenOf(attempts[0]!));
    expect(attempts[1]?.body).toEqual(attempts[0]?.body);
  });

  it('differs between two calls, so that a new request is never taken for a retry', async () => {
    const fake = await fakeDynamoDb({ UpdateItem: [counterAnswer], TransactWriteItems: [wire.ok()] });
    await callRoute('addNote', deps(fake));
    await callRoute('addNote', deps(fake));
    const [first, second] = fake.requests('TransactWriteItems');
    expect(tokenOf(second!)).not.toBe(tokenOf(first!));
  });

  it('is carried by the lead webhook’s creation transaction too', async () => {
    const fake = await fakeDynamoDb({
      BatchGetItem: [wire.ok({ Responses: { [fixture.tableName]: [] } })],
      TransactWriteItems: [wire.internalServerError(), wire.internalServerError(), wire.ok()],
    });
    const response = await callRoute('ingestLead', deps(fake));
    expect(JSON.parse(response.body)).toMatchObject({ status: 'created' });
    const tokens = fake.requests('TransactWriteItems').map(tokenOf);
    expect(tokens).toHaveLength(3);
    expect(new Set(tokens).size).toBe(1);
  });

  it('gives up after the SDK’s bounded attempts and answers a clean 500, the same token every time', async () => {
    const fake = await fakeDynamoDb({
      UpdateItem: [counterAnswer],
      TransactWriteItems: [wire.internalServerError()],
    });
    const response = await callRoute('addNote', deps(fake));
    expectCleanServerError(routeById('addNote'), response);
    const tokens = fake.requests('TransactWriteItems').map(tokenOf);
    expect(tokens).toHaveLength(3);
    expect(new Set(tokens).size).toBe(1);
  });
});

describe('throttling through the real SDK', () => {
  it('is retried by the SDK a bounded number of times, then answered with a clean 500', async () => {
    // The SDK's pauses are random below a bound (500 ms and up for throttling): drawn at zero here.
    jest.spyOn(Math, 'random').mockReturnValue(0);
    const fake = await fakeDynamoDb({ UpdateItem: [counterAnswer], GetItem: [wire.throughputExceeded()] });
    const response = await callRoute('listPipelines', deps(fake));
    expectCleanServerError(routeById('listPipelines'), response);
    expect(fake.requests('GetItem')).toHaveLength(3);
  });
});
