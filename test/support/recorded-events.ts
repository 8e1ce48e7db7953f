import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import type { Deps } from '../../lib/storage/client';
import type { DeliveryMessage } from '../../lib/domain/events/ports';
import type { ItemKey } from '../../lib/storage/table-items';

/**
 * Synthetic Lambda events built from what the table really holds, for the event functions'
 * `createHandler`: stream records as Lambda hands them over (NEW_AND_OLD_IMAGES), queue messages
 * as SQS does.
 */

type Item = Record<string, unknown>;

/** One item as stored now (undefined when absent). */
export async function storedItem(deps: Deps, key: ItemKey): Promise<Item | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.tableName, Key: key }));
  return Item;
}

/** The items of a partition whose sort key starts with `skPrefix`. */
export async function storedItems(deps: Deps, pk: string, skPrefix: string): Promise<Item[]> {
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    }),
  );
  return Items;
}

const image = (item: Item): Record<string, AttributeValue> =>
  marshall(item, { removeUndefinedValues: true }) as Record<string, AttributeValue>;

let sequence = 0;

/** An INSERT (no `before`) or a MODIFY, as the stream reports the write. */
export function aStreamRecord(change: { before?: Item; after: Item }): DynamoDBRecord {
  sequence += 1;
  const { pk, sk } = change.after as { pk: string; sk: string };
  return {
    eventID: randomUUID(),
    eventName: change.before ? 'MODIFY' : 'INSERT',
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-west-3',
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      Keys: { pk: { S: pk }, sk: { S: sk } },
      ...(change.before ? { OldImage: image(change.before) } : {}),
      NewImage: image(change.after),
      SequenceNumber: String(1_000_000 + sequence).padStart(21, '0'),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

export const aStreamEvent = (records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });

/** Queue messages as the delivery function receives them, one record each. */
export const anSqsEvent = (messages: readonly DeliveryMessage[]): SQSEvent => ({
  Records: messages.map((message) => ({
    messageId: randomUUID(),
    receiptHandle: randomUUID(),
    body: JSON.stringify(message),
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: String(Date.now()),
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-3:123456789012:deliveries',
    awsRegion: 'eu-west-3',
  })),
});

/** A subscriber on 127.0.0.1: answers each path with its status, and counts the POSTs it received. */
export async function aLocalReceiver(statusOf: Record<string, number>) {
  const received: { path: string; headers: Record<string, unknown>; body: string }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(statusOf[path] ?? 404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
