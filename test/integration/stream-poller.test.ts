import { createTableWithoutStream } from '../support/dynamodb';
import { randomUUID } from 'node:crypto';
import { DeleteItemCommand, PutItemCommand, UpdateItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import {
  startStreamPoller,
  StreamDisabledError,
  type DiscardedBatch,
  type StreamPoller,
} from '../../tools/local/stream-poller';
import { eventFunctions } from '../../lib/routes';
import { createDynamoClient } from '../../lib/storage/client';
import { ensureTable } from '../../lib/storage/create-table';

/** Each test reads the stream of a table of its own: the shared crm-test table's stream carries every other file's writes. */
const endpoint = process.env.DYNAMODB_ENDPOINT as string;
const streamFilters = eventFunctions.find((candidate) => candidate.id === 'streamHandler')?.streamFilters;
let client: DynamoDBClient;
const pollers: StreamPoller[] = [];

beforeAll(() => {
  client = createDynamoClient({ endpoint });
});

afterEach(async () => {
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
});

afterAll(() => client.destroy());

async function newTable(): Promise<string> {
  const tableName = `crm-test-stream-${randomUUID()}`;
  await ensureTable(client, tableName);
  return tableName;
}

const put = (tableName: string, pk: string, sk: string, extra: Record<string, unknown> = {}) =>
  client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: { pk: { S: pk }, sk: { S: sk }, ...(extra as Record<string, never>) },
    }),
  );

/** The handler's invocations, and what it answers: nothing unless told. */
function recorder(
  answer: (event: DynamoDBStreamEvent, call: number) => DynamoDBBatchResponse | void = () => undefined,
) {
  const calls: DynamoDBRecord[][] = [];
  return {
    calls,
    handler: async (event: DynamoDBStreamEvent) => {
      calls.push(event.Records);
      return answer(event, calls.length);
    },
  };
}

const pkOf = (record: DynamoDBRecord) => record.dynamodb?.Keys?.pk?.S;
const pks = (records: readonly DynamoDBRecord[]) => records.map(pkOf);

async function poll(
  tableName: string,
  options: Partial<Parameters<typeof startStreamPoller>[0]> & Pick<Parameters<typeof startStreamPoller>[0], 'handler'>,
) {
  const discarded: DiscardedBatch[] = [];
  const poller = await startStreamPoller({
    endpoint,
    tableName,
    startingPosition: 'LATEST',
    pollIntervalMs: 20,
    retryDelayMs: 5,
    maxRetryAttempts: 2,
    onFailure: (batch) => discarded.push(batch),
    ...options,
  });
  pollers.push(poller);
  return { poller, discarded };
}

test('INSERT, MODIFY and REMOVE reach the handler in Lambda’s shape, with old and new images', async () => {
  const tableName = await newTable();
  const { calls, handler } = recorder();
  const { poller } = await poll(tableName, { handler });
  const pk = `PROSPECT#${randomUUID()}`;

  await put(tableName, pk, 'PROSPECT', { first_name: { S: 'Zoé 🎉' }, bytes: { B: Uint8Array.from([0, 255]) } });
  await client.send(
    new UpdateItemCommand({
      TableName: tableName,
      Key: { pk: { S: pk }, sk: { S: 'PROSPECT' } },
      UpdateExpression: 'SET first_name = :name, tag_ids = :tags',
      ExpressionAttributeValues: {
        ':name': { S: 'Zoe\u0301' },
        ':tags': { L: [{ S: 't1' }, { M: { n: { N: '2' } } }] },
      },
    }),
  );
  await client.send(new DeleteItemCommand({ TableName: tableName, Key: { pk: { S: pk }, sk: { S: 'PROSPECT' } } }));
  await poller.caughtUp();

  const records = calls.flat();
  expect(records.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
  const [inserted, modified, removed] = records as [DynamoDBRecord, DynamoDBRecord, DynamoDBRecord];
  const keys = { pk: { S: pk }, sk: { S: 'PROSPECT' } };
  const created = { ...keys, first_name: { S: 'Zoé 🎉' }, bytes: { B: 'AP8=' } };
  const updated = {
    ...keys,
    first_name: { S: 'Zoe\u0301' },
    bytes: { B: 'AP8=' },
    tag_ids: { L: [{ S: 't1' }, { M: { n: { N: '2' } } }] },
  };
  expect(inserted).toEqual({
    eventID: expect.any(String),
    eventName: 'INSERT',
    eventVersion: expect.any(String),
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-west-3',
    dynamodb: {
      ApproximateCreationDateTime: expect.any(Number),
      Keys: keys,
      NewImage: created,
      SequenceNumber: expect.any(String),
      SizeBytes: expect.any(Number),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: poller.streamArn,
  });
  expect(Math.abs((inserted.dynamodb?.ApproximateCreationDateTime ?? 0) - Date.now() / 1000)).toBeLessThan(60);
  expect(modified.dynamodb).toMatchObject({ OldImage: created, NewImage: updated });
  expect(removed.dynamodb?.OldImage).toEqual(updated);
  expect(removed.dynamodb).not.toHaveProperty('NewImage');
  expect(inserted.dynamodb).not.toHaveProperty('OldImage');
  // Lambda hands the event over as JSON: nothing in it that JSON would change.
  expect(JSON.parse(JSON.stringify(records))).toEqual(records);
});

test('with the stream handler’s filters, other partitions and removals are skipped without an invocation', async () => {
  const tableName = await newTable();
  const { calls, handler } = recorder();
  const { poller } = await poll(tableName, { handler, filters: streamFilters });
  const prospect = `PROSPECT#${randomUUID()}`;
  const candidate = `CANDIDATE#${randomUUID()}`;

  await put(tableName, `CALL#${randomUUID()}`, 'CALL');
  await put(tableName, `DELIVERY#${randomUUID()}`, 'DELIVERY#1');
  await put(tableName, `prospect#${randomUUID()}`, 'PROSPECT');
  await poller.caughtUp();
  expect(calls).toEqual([]);

  await put(tableName, prospect, 'PROSPECT');
  await put(tableName, prospect, 'NOTE#1');
  await put(tableName, candidate, 'CANDIDATE');
  await client.send(new DeleteItemCommand({ TableName: tableName, Key: { pk: { S: prospect }, sk: { S: 'NOTE#1' } } }));
  await put(tableName, `WS#${randomUUID()}`, 'SUB#1');
  await poller.caughtUp();
  expect(calls.flat().map((record) => [record.eventName, pkOf(record), record.dynamodb?.Keys?.sk?.S])).toEqual([
    ['INSERT', prospect, 'PROSPECT'],
    ['INSERT', prospect, 'NOTE#1'],
    ['INSERT', candidate, 'CANDIDATE'],
  ]);
});

test('a batch item failure redelivers the failed record and those after it, not the earlier ones', async () => {
  const tableName = await newTable();
  const written = ['A', 'B', 'C', 'D'].map((letter) => `PROSPECT#${letter}-${randomUUID()}`);
  for (const pk of written) await put(tableName, pk, 'PROSPECT');
  const { calls, handler } = recorder((event, call) =>
    call === 1
      ? {
          batchItemFailures: [
            { itemIdentifier: event.Records[2]?.dynamodb?.SequenceNumber as string },
            { itemIdentifier: event.Records[1]?.dynamodb?.SequenceNumber as string },
          ],
        }
      : undefined,
  );
  const { poller, discarded } = await poll(tableName, { handler, startingPosition: 'TRIM_HORIZON' });
  await poller.caughtUp();

  // The earliest failure (B) counts: B, C and D again, A not.
  expect(calls.map(pks)).toEqual([written, written.slice(1)]);
  expect(discarded).toEqual([]);
});

test('a record that keeps failing is retried up to maxRetryAttempts, then discarded to onFailure, and the shard moves on', async () => {
  const tableName = await newTable();
  const written = ['A', 'B', 'C'].map((letter) => `PROSPECT#${letter}-${randomUUID()}`);
  for (const pk of written) await put(tableName, pk, 'PROSPECT');
  const { calls, handler } = recorder((event) => ({
    batchItemFailures: event.Records.filter((record) => pkOf(record) === written[1]).map((record) => ({
      itemIdentifier: record.dynamodb?.SequenceNumber as string,
    })),
  }));
  const { poller, discarded } = await poll(tableName, { handler, startingPosition: 'TRIM_HORIZON' });
  await poller.caughtUp();

  // A done; B and C tried 1 + 2 more times; then discarded together, as the remaining batch.
  expect(calls.map(pks)).toEqual([written, written.slice(1), written.slice(1)]);
  expect(discarded).toEqual([
    {
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 3 },
      responseContext: { functionError: 'batchItemFailures' },
      DDBStreamBatchInfo: expect.objectContaining({ batchSize: 2, streamArn: poller.streamArn }),
    },
  ]);
  const secondCall = calls[1] as DynamoDBRecord[];
  expect(discarded[0]?.DDBStreamBatchInfo.startSequenceNumber).toBe(secondCall[0]?.dynamodb?.SequenceNumber);
  expect(discarded[0]?.DDBStreamBatchInfo.endSequenceNumber).toBe(secondCall[1]?.dynamodb?.SequenceNumber);
});

test('a throwing handler has its batch bisected down to the bad record, which alone goes to onFailure', async () => {
  const tableName = await newTable();
  const written = ['A', 'B', 'C', 'D', 'E'].map((letter) => `PROSPECT#${letter}-${randomUUID()}`);
  for (const pk of written) await put(tableName, pk, 'PROSPECT');
  const bad = written[1];
  const { calls, handler } = recorder((event) => {
    if (event.Records.some((record) => pkOf(record) === bad)) throw new Error('boom');
  });
  const { poller, discarded } = await poll(tableName, { handler, startingPosition: 'TRIM_HORIZON' });
  await poller.caughtUp();

  const [a, b, c, d, e] = written;
  expect(calls.map(pks)).toEqual([
    [a, b, c, d, e],
    [a, b, c], // bisected: 3 + 2
    [a, b], // bisected again: 2 + 1
    [a], // and again: 1 + 1
    [b],
    [b], // retry 1
    [b], // retry 2, then discarded
    [c],
    [d, e],
  ]);
  expect(discarded).toHaveLength(1);
  expect(discarded[0]).toMatchObject({
    requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 3 },
    responseContext: { functionError: 'Error: boom' },
    DDBStreamBatchInfo: { batchSize: 1 },
  });
});

test('an empty or unknown batch item identifier fails the whole batch, which is bisected like a thrown error', async () => {
  const tableName = await newTable();
  const written = ['A', 'B', 'C'].map((letter) => `PROSPECT#${letter}-${randomUUID()}`);
  for (const pk of written) await put(tableName, pk, 'PROSPECT');
  const [a, b, c] = written;
  const { calls, handler } = recorder((event) => {
    if (event.Records.some((record) => pkOf(record) === a)) return { batchItemFailures: [{ itemIdentifier: '' }] };
    if (event.Records.some((record) => pkOf(record) === c)) return { batchItemFailures: [{ itemIdentifier: '42' }] };
  });
  const { poller, discarded } = await poll(tableName, {
    handler,
    startingPosition: 'TRIM_HORIZON',
    maxRetryAttempts: 0,
  });
  await poller.caughtUp();

  expect(calls.map(pks)).toEqual([[a, b, c], [a, b], [a], [b], [c]]);
  expect(
    discarded.map((batch) => [batch.DDBStreamBatchInfo.batchSize, batch.requestContext.approximateInvokeCount]),
  ).toEqual([
    [1, 1],
    [1, 1],
  ]);
});

test('caughtUp() waits until every earlier write has been handled, in order per shard', async () => {
  const tableName = await newTable();
  const { calls, handler } = recorder();
  let running = 0;
  let overlapped = false;
  const slow = async (event: DynamoDBStreamEvent) => {
    running += 1;
    overlapped ||= running > 1;
    await new Promise((resolve) => setTimeout(resolve, 30));
    running -= 1;
    return handler(event);
  };
  const { poller } = await poll(tableName, { handler: slow, batchSize: 7 });
  const written = Array.from(
    { length: 40 },
    (_, index) => `PROSPECT#${String(index).padStart(2, '0')}-${randomUUID()}`,
  );
  for (const pk of written) await put(tableName, pk, 'PROSPECT');
  await poller.caughtUp();

  expect(calls.flat().map(pkOf)).toEqual(written);
  expect(Math.max(...calls.map((batch) => batch.length))).toBeLessThanOrEqual(7);
  expect(overlapped).toBe(false);
});

test('a table without a stream (one created before streams, kept in DATA_DIR) is refused with its own error', async () => {
  const tableName = await createTableWithoutStream(client);
  await expect(
    startStreamPoller({
      endpoint,
      tableName,
      handler: async () => undefined,
      startingPosition: 'LATEST',
      maxRetryAttempts: 0,
      onFailure: () => undefined,
    }),
  ).rejects.toThrow(StreamDisabledError);
});
