import { createHash } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import {
  InvalidParameterValue,
  LocalQueue,
  localDeliveryQueue,
  startConsumer,
  type Consumer,
} from '../../tools/local/local-queue';
import type { DeliveryMessage } from '../../lib/domain/events/ports';
import { deliveryQueueSettings } from '../../lib/domain/events/queue-settings';

/** A clock the test moves by hand: delays and visibility timeouts follow it, not the wall clock. */
function aClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return { now: () => now, advance: (seconds: number) => (now += seconds * 1000) };
}

function aQueue(clock = aClock(), settings: { visibilityTimeoutSeconds?: number; maxReceiveCount?: number } = {}) {
  const deadLetters = new LocalQueue({ name: 'dlq', visibilityTimeoutSeconds: 30, now: clock.now });
  const queue = new LocalQueue({
    name: 'deliveries',
    visibilityTimeoutSeconds: settings.visibilityTimeoutSeconds ?? deliveryQueueSettings.visibilityTimeoutSeconds,
    now: clock.now,
    redrive: { deadLetters, maxReceiveCount: settings.maxReceiveCount ?? deliveryQueueSettings.maxReceiveCount },
  });
  return { queue, deadLetters, clock };
}

const consumers: Consumer[] = [];
afterEach(async () => {
  await Promise.all(consumers.splice(0).map((consumer) => consumer.stop()));
});

test('a delayed message is invisible for its delay, then received once', () => {
  const { queue, clock } = aQueue();
  queue.send('later', 900);
  queue.send('now');
  const received = queue.receive();
  expect(received.map((record) => record.body)).toEqual(['now']);
  queue.delete(received[0]?.receiptHandle as string);
  clock.advance(899);
  expect(queue.receive()).toEqual([]);
  clock.advance(1);
  expect(queue.receive().map((record) => record.body)).toEqual(['later']);
});

test.each([-1, 901, 1.5, Number.NaN, 1e9])('a delay of %p is refused as SQS refuses it', (delay) => {
  const { queue } = aQueue();
  expect(() => queue.send('x', delay)).toThrow(InvalidParameterValue);
  expect(queue.peek()).toEqual([]);
});

test.each([0, 11, 2.5])('a receive of %p messages is refused', (count) => {
  expect(() => aQueue().queue.receive(count)).toThrow(InvalidParameterValue);
});

test('a received message is hidden for the visibility timeout, then back with a higher receive count', () => {
  const { queue, clock } = aQueue(aClock(), { visibilityTimeoutSeconds: 180 });
  const body = JSON.stringify({ note: 'Zoé 🎉', long: 'x'.repeat(200_000) });
  const messageId = queue.send(body);
  const sentAt = clock.now();
  clock.advance(2);
  const [first] = queue.receive();
  expect(first).toEqual({
    messageId,
    receiptHandle: expect.any(String),
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: String(sentAt),
      SenderId: expect.any(String),
      ApproximateFirstReceiveTimestamp: String(sentAt + 2000),
    },
    messageAttributes: {},
    md5OfBody: createHash('md5').update(body, 'utf8').digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-3:123456789012:deliveries',
    awsRegion: 'eu-west-3',
  });
  clock.advance(179);
  expect(queue.receive()).toEqual([]);
  clock.advance(1);
  const [second] = queue.receive();
  expect(second?.attributes.ApproximateReceiveCount).toBe('2');
  expect(second?.attributes.ApproximateFirstReceiveTimestamp).toBe(String(sentAt + 2000));
  expect(second?.receiptHandle).not.toBe(first?.receiptHandle);
  // Only the latest receipt handle deletes: the earlier one succeeds without effect.
  expect(queue.delete(first?.receiptHandle as string)).toBe(false);
  expect(queue.peek()).toHaveLength(1);
  expect(queue.delete(second?.receiptHandle as string)).toBe(true);
  expect(queue.peek()).toEqual([]);
});

test('a receive returns at most the number asked, and never a hidden message twice', () => {
  const { queue } = aQueue();
  for (let index = 0; index < 25; index += 1) queue.send(String(index));
  const batches = [queue.receive(10), queue.receive(10), queue.receive(10), queue.receive(10)];
  expect(batches.map((batch) => batch.length)).toEqual([10, 10, 5, 0]);
  expect(new Set(batches.flat().map((record) => record.messageId)).size).toBe(25);
});

test('after maxReceiveCount receives the message goes to the dead-letter queue instead of being received', () => {
  const { queue, deadLetters, clock } = aQueue(aClock(), { visibilityTimeoutSeconds: 180, maxReceiveCount: 5 });
  const messageId = queue.send('poison');
  for (let receive = 1; receive <= 5; receive += 1) {
    const [record] = queue.receive();
    expect(record?.attributes.ApproximateReceiveCount).toBe(String(receive));
    clock.advance(180);
  }
  expect(queue.receive()).toEqual([]);
  expect(queue.peek()).toEqual([]);
  expect(deadLetters.peek()).toEqual([{ messageId, body: 'poison', receiveCount: 0, sentAt: expect.any(Number) }]);
});

test('the consumer deletes what succeeded and leaves the batch item failures, which come back after the timeout', async () => {
  const { queue, clock } = aQueue(aClock(), { visibilityTimeoutSeconds: 180 });
  const seen: string[][] = [];
  const consumer = startConsumer(
    queue,
    async (event: SQSEvent): Promise<SQSBatchResponse> => {
      seen.push(event.Records.map((record) => `${record.body}#${record.attributes.ApproximateReceiveCount}`));
      return {
        batchItemFailures: event.Records.filter((record) => record.body === 'b').map((record) => ({
          itemIdentifier: record.messageId,
        })),
      };
    },
    { batchSize: 10, pollIntervalMs: 5 },
  );
  consumers.push(consumer);
  for (const body of ['a', 'b', 'c']) queue.send(body);
  await consumer.idle();
  expect(seen).toEqual([['a#1', 'b#1', 'c#1']]);
  expect(queue.peek().map((message) => message.body)).toEqual(['b']);

  clock.advance(180);
  await consumer.idle();
  expect(seen).toEqual([['a#1', 'b#1', 'c#1'], ['b#2']]);
});

test.each([
  ['a thrown error', () => Promise.reject(new Error('boom'))],
  ['an identifier naming no message of the batch', async () => ({ batchItemFailures: [{ itemIdentifier: 'nope' }] })],
  ['an empty identifier', async () => ({ batchItemFailures: [{ itemIdentifier: '' }] })],
])('%s fails the whole batch', async (_, handler: () => Promise<SQSBatchResponse>) => {
  const { queue, clock } = aQueue(aClock(), { visibilityTimeoutSeconds: 60 });
  const errors: unknown[] = [];
  const consumer = startConsumer(queue, handler, {
    pollIntervalMs: 5,
    onInvocationError: (error) => errors.push(error),
  });
  consumers.push(consumer);
  queue.send('a');
  queue.send('b');
  await consumer.idle();
  expect(queue.peek().map((message) => [message.body, message.receiveCount])).toEqual([
    ['a', 1],
    ['b', 1],
  ]);
  clock.advance(60);
  await consumer.idle();
  expect(queue.peek().map((message) => message.receiveCount)).toEqual([2, 2]);
});

test('a batch blocked in the handler does not hold back another batch', async () => {
  const { queue } = aQueue();
  let release: () => void = () => undefined;
  const blocked = new Promise<void>((resolve) => (release = resolve));
  const done: string[] = [];
  const consumer = startConsumer(
    queue,
    async (event) => {
      const body = event.Records[0]?.body as string;
      if (body === 'slow') await blocked;
      done.push(body);
    },
    { batchSize: 1, concurrency: 2, pollIntervalMs: 5 },
  );
  consumers.push(consumer);
  queue.send('slow');
  queue.send('fast');
  // Until 'fast' is handled and deleted, however long a loaded machine takes: 'slow' stays blocked
  // until released below, so this only ends if 'fast' is handled beside it (else: the test's timeout).
  const fastDone = () => done.includes('fast') && !queue.peek().some((message) => message.body === 'fast');
  while (!fastDone()) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(done).toEqual(['fast']);
  expect(queue.peek().map((message) => message.body)).toEqual(['slow']);
  release();
  await consumer.idle();
  expect(done).toEqual(['fast', 'slow']);
  expect(queue.peek()).toEqual([]);
});

test('idle() ignores delayed messages, which the consumer takes once due', async () => {
  const { queue, clock } = aQueue();
  const bodies: string[] = [];
  const consumer = startConsumer(queue, async (event) => void bodies.push(...event.Records.map((r) => r.body)), {
    pollIntervalMs: 5,
  });
  consumers.push(consumer);
  queue.send('later', 300);
  await consumer.idle();
  expect(bodies).toEqual([]);
  clock.advance(300);
  await consumer.idle();
  expect(bodies).toEqual(['later']);
});

test('the delivery queue port sends each message as JSON with its delay, and refuses an invalid delay', async () => {
  const { queue, clock } = aQueue();
  const port = localDeliveryQueue(queue);
  const message: DeliveryMessage = {
    workspace_id: 'w',
    subscription_id: 's',
    delivery_id: 'd',
    step: 3,
    not_before: '2026-01-01T02:00:00.000Z',
  };
  await port.send([
    { message, delaySeconds: 900 },
    { message: { ...message, step: 0 }, delaySeconds: 0 },
  ]);
  const [first] = queue.receive();
  expect(JSON.parse(first?.body as string)).toEqual({ ...message, step: 0 });
  queue.delete(first?.receiptHandle as string);
  clock.advance(900);
  expect(queue.receive().map((record) => JSON.parse(record.body))).toEqual([message]);
  await expect(port.send([{ message, delaySeconds: 901 }])).rejects.toThrow(InvalidParameterValue);
});
