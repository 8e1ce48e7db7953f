import { jest } from '@jest/globals';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { batchGetItems, defaultBatchPolicy } from '../../lib/storage/client';

/**
 * Under load a BatchGetItem may leave part of its keys unprocessed; AWS asks to send that part
 * again with backoff ("BatchGetItem", UnprocessedKeys). Every batch read of the service goes
 * through `batchGetItems`.
 */
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-3' }));
const mock = mockClient(db);
const store = { db, tableName: 't' };
const key = (n: number) => ({ pk: `K#${n}`, sk: 'S' });

let pauses: number[];
beforeEach(() => {
  mock.reset();
  pauses = [];
  jest.spyOn(defaultBatchPolicy, 'sleep').mockImplementation(async (ms) => void pauses.push(ms));
});
afterEach(() => jest.restoreAllMocks());

test('sends the unprocessed keys again after a pause and returns every item found', async () => {
  mock
    .on(BatchGetCommand)
    .resolvesOnce({ Responses: { t: [{ ...key(1), v: 1 }] }, UnprocessedKeys: { t: { Keys: [key(2), key(3)] } } })
    .resolvesOnce({ Responses: { t: [{ ...key(3), v: 3 }] } });
  const found = await batchGetItems(store, [key(1), key(2), key(3)], { consistentRead: true });
  expect(found).toEqual([
    { ...key(1), v: 1 },
    { ...key(3), v: 3 },
  ]);
  const requests = mock.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems?.t);
  expect(requests).toEqual([
    { Keys: [key(1), key(2), key(3)], ConsistentRead: true },
    { Keys: [key(2), key(3)], ConsistentRead: true },
  ]);
  expect(pauses).toHaveLength(1);
});

test('gives up with an error when DynamoDB keeps part of the batch unprocessed', async () => {
  mock.on(BatchGetCommand).resolves({ UnprocessedKeys: { t: { Keys: [key(1)] } } });
  await expect(batchGetItems(store, [key(1)], { consistentRead: false })).rejects.toThrow(/unprocessed/);
  expect(mock.commandCalls(BatchGetCommand)).toHaveLength(defaultBatchPolicy.attempts);
});

test('sends nothing for no key', async () => {
  expect(await batchGetItems(store, [], { consistentRead: true })).toEqual([]);
  expect(mock.commandCalls(BatchGetCommand)).toHaveLength(0);
});

test('names at most 100 keys in one request, the limit of BatchGetItem', async () => {
  mock.on(BatchGetCommand).callsFake(async (input: { RequestItems: Record<string, { Keys: object[] }> }) => ({
    Responses: { t: input.RequestItems.t?.Keys.map((wanted) => ({ ...wanted, v: 1 })) },
  }));
  const wanted = Array.from({ length: 250 }, (_, n) => key(n));
  const found = await batchGetItems(store, wanted, { consistentRead: true });
  expect(found).toHaveLength(250);
  const sizes = mock.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems?.t?.Keys?.length);
  expect(sizes).toEqual([100, 100, 50]);
  expect(pauses).toEqual([]);
});
