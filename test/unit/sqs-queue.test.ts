import { SendMessageBatchCommand, SQSClient, type SendMessageBatchCommandInput } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import type { DeliveryMessage } from '../../lib/domain/events/ports';
import { createSqsQueue, loadDeliveryQueueUrl } from '../../lib/queue/sqs-queue';

/** The SQS adapter of the delivery queue: batches of 10, a partial failure sent once more, then an error. */
const client = new SQSClient({ region: 'eu-west-3', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
const mock = mockClient(client);
const queueUrl = 'https://sqs.eu-west-3.amazonaws.com/123456789012/deliveries';
const queue = createSqsQueue<DeliveryMessage>(client, queueUrl);

const message = (n: number): DeliveryMessage => ({
  workspace_id: 'ws',
  delivery_id: `d${n}`,
  subscription_id: 'sub',
  step: n % 8,
  not_before: '2026-11-23T10:00:00.000Z',
});
const entriesOf = (call: number) =>
  (mock.commandCalls(SendMessageBatchCommand)[call]?.args[0].input as SendMessageBatchCommandInput).Entries ?? [];

beforeEach(() => mock.reset());

test('sends 23 messages in batches of 10, 10 and 3, each with its own delay', async () => {
  mock.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
  await queue.send(Array.from({ length: 23 }, (_, n) => ({ message: message(n), delaySeconds: n * 40 })));
  const calls = mock.commandCalls(SendMessageBatchCommand);
  expect(calls.map((call) => call.args[0].input.Entries?.length)).toEqual([10, 10, 3]);
  expect(calls.every((call) => call.args[0].input.QueueUrl === queueUrl)).toBe(true);
  const third = entriesOf(2);
  expect(third.map((entry) => entry.DelaySeconds)).toEqual([800, 840, 880]);
  expect(JSON.parse(third[2]?.MessageBody ?? '')).toEqual(message(22));
  expect(new Set(entriesOf(0).map((entry) => entry.Id)).size).toBe(10);
});

test('sends the failed entries of a batch once more, and only them', async () => {
  mock
    .on(SendMessageBatchCommand)
    .resolvesOnce({
      Successful: [],
      Failed: [
        { Id: '1', Code: 'InternalError', SenderFault: false },
        { Id: '3', Code: 'InternalError', SenderFault: false },
      ],
    })
    .resolvesOnce({ Successful: [], Failed: [] });
  await queue.send([0, 1, 2, 3].map((n) => ({ message: message(n), delaySeconds: 5 })));
  expect(entriesOf(1).map((entry) => JSON.parse(entry.MessageBody ?? '').delivery_id)).toEqual(['d1', 'd3']);
});

test('throws when an entry fails twice, so the caller is retried', async () => {
  mock
    .on(SendMessageBatchCommand)
    .resolves({ Successful: [], Failed: [{ Id: '0', Code: 'Boom', SenderFault: false }] });
  await expect(queue.send([{ message: message(0), delaySeconds: 0 }])).rejects.toThrow(/Boom/);
  expect(mock.commandCalls(SendMessageBatchCommand)).toHaveLength(2);
});

test('an SQS error goes to the caller', async () => {
  mock.on(SendMessageBatchCommand).rejects(new Error('network down'));
  await expect(queue.send([{ message: message(0), delaySeconds: 0 }])).rejects.toThrow('network down');
});

test('the queue URL is required and must be a URL', () => {
  expect(loadDeliveryQueueUrl({ DELIVERY_QUEUE_URL: queueUrl })).toBe(queueUrl);
  expect(() => loadDeliveryQueueUrl({})).toThrow('Configuration invalide : DELIVERY_QUEUE_URL');
  expect(() => loadDeliveryQueueUrl({ DELIVERY_QUEUE_URL: 'deliveries' })).toThrow('DELIVERY_QUEUE_URL');
});
