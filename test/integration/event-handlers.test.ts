import { recordingFollowUpQueue } from '../support/follow-up-queue';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteItemCommand, PutItemCommand, UpdateItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { mockClient } from 'aws-sdk-client-mock';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type * as DeliverEvent from '../../functions/events/deliver-event';
import type * as StreamHandler from '../../functions/events/stream-handler';
import { seedWorkspace } from '../../tools/seed/seed';
import { createSubscription } from '../../lib/settings/subscriptions';
import { productionDeps, type SecretsDeps, createDynamoClient } from '../../lib/storage/client';
import type { DeliveryMessage, DeliveryQueue } from '../../lib/domain/events/ports';
import { createHttpSender } from '../../lib/outbound/http-sender';
import { ensureSecretsTable, ensureTable } from '../../tools/local/create-table';
import { readTableStream, sqsRecord, StreamDisabledError } from '../../tools/local/event-pipeline';
import { createTableWithoutStream } from '../support/dynamodb';
import { aProspectItem } from '../support/prospect-items';
import { aWorkspace } from '../support/seed';
import { setTestQueueUrls } from '../support/queue-urls';

/**
 * What the stream handler and the delivery function promise Lambda's event source mappings, tested at
 * the handlers with the events AWS hands them: stream records read from DynamoDB Local's real stream
 * (converted as `npm start` converts them) and queue messages in the SQS event shape. A failed record
 * is answered in `batchItemFailures`, the batch handed again from it (as Lambda retries) changes
 * nothing already done, and a message delivered twice (SQS is at least once) makes one POST.
 * The local loop itself stays simple: it retries from the answered record (last tests).
 */

const endpoint = process.env.DYNAMODB_ENDPOINT as string;
const tableName = `crm-test-handlers-${randomUUID()}`;
const base = productionDeps();
const deps: SecretsDeps = { ...base, tableName, secretsTableName: `${tableName}-secrets` };
let client: DynamoDBClient;
let createStreamHandler: typeof StreamHandler.createHandler;
let createDeliveryHandler: typeof DeliverEvent.createHandler;
let receiver: Server;
let receiverUrl: string;
const posts: string[] = [];

beforeAll(async () => {
  client = createDynamoClient({ endpoint });
  await ensureTable(client, tableName);
  await ensureSecretsTable(client, deps.secretsTableName);
  // The modules build their production handlers on import, which need the queue's URL.
  setTestQueueUrls();
  ({ createHandler: createStreamHandler } = await import('../../functions/events/stream-handler'));
  ({ createHandler: createDeliveryHandler } = await import('../../functions/events/deliver-event'));
  receiver = createServer((request, response) => {
    request.resume().on('end', () => {
      posts.push(String(request.headers['webhook-id']));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  client.destroy();
  base.db.destroy();
});

type Sent = { message: DeliveryMessage; delaySeconds: number };

/** The delivery queue, recording what is sent; a send for a workspace in `failing` throws (fault injection). */
function recordingQueue(failing = new Set<string>()): DeliveryQueue & { sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    send: async (messages) => {
      if (messages.some(({ message }) => failing.has(message.workspace_id))) throw new Error('File indisponible');
      sent.push(...messages);
    },
  };
}

const eventDeps = (queue: DeliveryQueue) => ({
  ...deps,
  queue,
  send: createHttpSender('local'),
  network: 'local' as const,
  followUpQueue: recordingFollowUpQueue(),
});

/** The records `write` makes, as the local runtime hands them to a stream handler. */
async function streamRecordsOf(write: () => Promise<unknown>): Promise<DynamoDBRecord[]> {
  const events: DynamoDBStreamEvent[] = [];
  const reader = await readTableStream({
    endpoint,
    tableName,
    startingPosition: 'LATEST',
    handler: async (event) => void events.push(event),
  });
  await write();
  await reader.caughtUp();
  await reader.stop();
  return events.flatMap((event) => event.Records);
}

const putProspect = (workspaceId: string) => {
  const prospect = aProspectItem(workspaceId, { first_name: 'Léa' });
  return deps.db.send(new PutCommand({ TableName: tableName, Item: prospect })).then(() => prospect);
};

async function subscribedWorkspace(): Promise<string> {
  const ws = await seedWorkspace(deps, aWorkspace({ prospects: [] }));
  await createSubscription(deps, { workspaceId: ws.workspace_id, url: receiverUrl, network: 'local' });
  return ws.workspace_id;
}

test('INSERT, MODIFY and REMOVE reach a stream handler in Lambda’s shape, with old and new images', async () => {
  const pk = `PROSPECT#${randomUUID()}`;
  const key = { pk: { S: pk }, sk: { S: 'PROSPECT' } };
  const writtenFrom = Date.now() / 1000;
  const records = await streamRecordsOf(async () => {
    await client.send(
      new PutItemCommand({
        TableName: tableName,
        Item: { ...key, first_name: { S: 'Zoé 🎉' }, bytes: { B: Uint8Array.from([0, 255]) } },
      }),
    );
    await client.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: key,
        // An empty map, alone and inside a list (a prospect's `fields` once its last value is removed).
        UpdateExpression: 'SET tag_ids = :tags, #fields = :empty',
        ExpressionAttributeNames: { '#fields': 'fields' },
        ExpressionAttributeValues: {
          ':tags': { L: [{ S: 't1' }, { M: { n: { N: '2' } } }, { M: {} }] },
          ':empty': { M: {} },
        },
      }),
    );
    await client.send(new DeleteItemCommand({ TableName: tableName, Key: key }));
  });

  expect(records.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
  const [inserted, modified, removed] = records as [DynamoDBRecord, DynamoDBRecord, DynamoDBRecord];
  const created = { ...key, first_name: { S: 'Zoé 🎉' }, bytes: { B: 'AP8=' } };
  const updated = { ...created, tag_ids: { L: [{ S: 't1' }, { M: { n: { N: '2' } } }, { M: {} }] }, fields: { M: {} } };
  expect(inserted).toEqual({
    eventID: expect.any(String),
    eventName: 'INSERT',
    eventVersion: expect.any(String),
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-west-3',
    dynamodb: {
      ApproximateCreationDateTime: expect.any(Number),
      Keys: key,
      NewImage: created,
      SequenceNumber: expect.any(String),
      SizeBytes: expect.any(Number),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: expect.stringContaining(`table/${tableName}/stream/`),
  });
  // Epoch seconds of the write, "rounded down to the closest second" on AWS ("StreamRecord", Amazon DynamoDB API
  // Reference, https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_StreamRecord.html);
  // DynamoDB Local rounds down to the minute, so a bound of "within 60 s of now" failed by chance when the write
  // fell at a minute's end and the read after the next one began.
  const createdAt = inserted.dynamodb?.ApproximateCreationDateTime ?? 0;
  expect(createdAt).toBeGreaterThanOrEqual(Math.floor(writtenFrom / 60) * 60);
  expect(createdAt).toBeLessThanOrEqual(Date.now() / 1000);
  expect(modified.dynamodb).toMatchObject({ OldImage: created, NewImage: updated });
  expect(removed.dynamodb).toEqual(expect.objectContaining({ OldImage: updated }));
  expect(removed.dynamodb).not.toHaveProperty('NewImage');
  expect(JSON.parse(JSON.stringify(records))).toEqual(records);
});

test('records the mapping’s filters leave out (removals, other partitions) make no delivery and no failure at the handler', async () => {
  const workspaceId = await subscribedWorkspace();
  const records = await streamRecordsOf(async () => {
    const prospect = await putProspect(workspaceId);
    await deps.db.send(new DeleteCommand({ TableName: tableName, Key: { pk: prospect.pk, sk: prospect.sk } }));
    await createSubscription(deps, { workspaceId, url: receiverUrl, network: 'local' });
  });
  const passesFilters = (record: DynamoDBRecord) =>
    record.eventName !== 'REMOVE' && /^(PROSPECT|CANDIDATE)#/.test(record.dynamodb?.Keys?.pk?.S ?? '');
  const leftOut = records.filter((record) => !passesFilters(record));
  expect(leftOut.map((record) => record.eventName)).toEqual(expect.arrayContaining(['REMOVE', 'INSERT']));

  const queue = recordingQueue();
  expect(await createStreamHandler(eventDeps(queue))({ Records: leftOut })).toEqual({ batchItemFailures: [] });
  expect(queue.sent).toEqual([]);
  // All of them, as a mapping without filters would hand them: only the new prospect is delivered.
  expect(await createStreamHandler(eventDeps(queue))({ Records: records })).toEqual({ batchItemFailures: [] });
  expect(queue.sent.map(({ message }) => message.workspace_id)).toEqual([workspaceId, workspaceId]);
});

test('a failed record is answered; the batch again from it, and every message twice, deliver each event once', async () => {
  const unsubscribed = (await seedWorkspace(deps, aWorkspace({ prospects: [] }))).workspace_id;
  const subscribed = await subscribedWorkspace();
  const records = await streamRecordsOf(async () => {
    await putProspect(unsubscribed);
    await putProspect(subscribed);
    await putProspect(subscribed);
  });
  expect(records).toHaveLength(3);

  // The queue is down: the first record queues nothing, the second is the one Lambda retries from.
  const failing = recordingQueue(new Set([subscribed]));
  const answer: DynamoDBBatchResponse = await createStreamHandler(eventDeps(failing))({ Records: records });
  expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: records[1]?.dynamodb?.SequenceNumber }] });

  const queue = recordingQueue();
  const handler = createStreamHandler(eventDeps(queue));
  expect(await handler({ Records: records.slice(1) })).toEqual({ batchItemFailures: [] });
  // The whole batch again, as a batch whose answer was lost comes back: deliveries never attempted are queued again.
  expect(await handler({ Records: records })).toEqual({ batchItemFailures: [] });
  const { sent } = queue;
  expect(sent.length).toBeGreaterThanOrEqual(2);
  expect(new Set(sent.map(({ message }) => message.delivery_id)).size).toBe(2);

  const deliver = createDeliveryHandler(eventDeps(recordingQueue()));
  const asSqs = () =>
    sent.map(({ message }) =>
      sqsRecord({ messageId: randomUUID(), body: JSON.stringify(message), receives: 1, sentAt: Date.now() }),
    );
  const from = posts.length;
  expect(await deliver({ Records: asSqs() })).toEqual({ batchItemFailures: [] });
  // SQS may hand a message again after it was handled: nothing more is sent.
  expect(await deliver({ Records: asSqs() })).toEqual({ batchItemFailures: [] });
  expect(posts.slice(from)).toHaveLength(2);
  expect(new Set(posts.slice(from)).size).toBe(2);
});

test('the local loop hands a batch again from the record its handler answered as failed', async () => {
  // A table of its own, written before it is read: the three records come in one batch.
  const own = `crm-test-loop-${randomUUID()}`;
  await ensureTable(client, own);
  const pks = ['A', 'B', 'C'].map((name) => `OTHER#${name}`);
  for (const pk of pks) {
    await client.send(new PutItemCommand({ TableName: own, Item: { pk: { S: pk }, sk: { S: 'X' } } }));
  }
  const calls: string[][] = [];
  const reader = await readTableStream({
    endpoint,
    tableName: own,
    startingPosition: 'TRIM_HORIZON',
    handler: async (event) => {
      calls.push(event.Records.map((record) => record.dynamodb?.Keys?.pk?.S ?? ''));
      const failed = calls.length === 1 ? event.Records[1]?.dynamodb?.SequenceNumber : undefined;
      return { batchItemFailures: failed === undefined ? [] : [{ itemIdentifier: failed }] };
    },
  });
  await reader.caughtUp();
  await reader.stop();
  expect(calls).toEqual([pks, pks.slice(1)]);
}, 15_000);

test('a table without a stream (one created before streams, kept in DATA_DIR) is refused with its own error', async () => {
  const withoutStream = await createTableWithoutStream(client);
  await expect(
    readTableStream({ endpoint, tableName: withoutStream, startingPosition: 'LATEST', handler: async () => undefined }),
  ).rejects.toBeInstanceOf(StreamDisabledError);
});

test('an open shard answered without a next iterator is read again, and that round does not count as caught up', async () => {
  // Fault injection: DynamoDB Local was seen to answer GetRecords on an open shard without NextShardIterator.
  const streams = mockClient(DynamoDBStreamsClient);
  const record = {
    eventID: '1',
    eventName: 'INSERT' as const,
    dynamodb: { Keys: { pk: { S: 'p1' } }, SequenceNumber: '1' },
  };
  streams
    .on(DescribeStreamCommand)
    .resolves({
      StreamDescription: { Shards: [{ ShardId: 'shard-1', SequenceNumberRange: { StartingSequenceNumber: '0' } }] },
    })
    .on(GetShardIteratorCommand)
    .resolves({ ShardIterator: 'iterator' })
    .on(GetRecordsCommand)
    .resolvesOnce({ Records: [] })
    .resolvesOnce({ Records: [record], NextShardIterator: 'next' })
    .resolves({ Records: [], NextShardIterator: 'next' });
  const keys: string[] = [];
  const logged: unknown[] = [];
  const consoleError = jest.spyOn(console, 'error').mockImplementation((line) => void logged.push(line));
  try {
    const reader = await readTableStream({
      endpoint,
      tableName,
      startingPosition: 'LATEST',
      handler: async (event) => void keys.push(...event.Records.map((r) => r.dynamodb?.Keys?.pk?.S ?? '')),
    });
    await reader.caughtUp();
    await reader.stop();
  } finally {
    streams.restore();
    consoleError.mockRestore();
  }
  expect(keys).toEqual(['p1']);
  expect(logged).toEqual([expect.stringContaining('itérateur absent')]);
});
