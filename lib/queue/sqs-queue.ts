import { SendMessageBatchCommand, SQSClient, type SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import type { MessageQueue } from '../domain/events/ports';

/** SendMessageBatch takes at most 10 entries ("SendMessageBatch", Amazon SQS API Reference). */
const maxBatchEntries = 10;

/** The environment variables naming the events wing's queues (infra/cdk/constructs/outbound-events.ts). */
export type QueueUrlVariable = 'DELIVERY_QUEUE_URL' | 'FOLLOW_UP_QUEUE_URL';

/** A queue's URL, read once per cold start: a missing or malformed one fails at start-up. */
export function loadQueueUrl(variable: QueueUrlVariable, env: NodeJS.ProcessEnv = process.env): string {
  const parsed = z.url().safeParse(env[variable] || undefined);
  if (!parsed.success) throw new Error(`Configuration invalide : ${variable}`);
  return parsed.data;
}

/** The delivery queue's URL (`DELIVERY_QUEUE_URL`). */
export const loadDeliveryQueueUrl = (env: NodeJS.ProcessEnv = process.env): string =>
  loadQueueUrl('DELIVERY_QUEUE_URL', env);

/**
 * One client per cold start, with explicit timeouts like the DynamoDB one (lib/storage/client.ts):
 * SQS answers in milliseconds, and a stalled call must fail well inside the 30 s function timeout.
 */
export function createSqsClient(region: string | undefined): SQSClient {
  return new SQSClient({
    region,
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 1000, requestTimeout: 3000, throwOnRequestTimeout: true },
  });
}

/**
 * A queue of the events wing on SQS (the delivery queue, the follow-up queue). Each message carries its own DelaySeconds (at most 900, "Amazon SQS
 * message timers"). A batch can succeed in part: its failed entries are listed in `Failed`
 * ("SendMessageBatch": check each entry, the call itself answers 200); they are sent once more,
 * then the caller gets an error, so the stream or queue record that asked for them is retried.
 */
export function createSqsQueue<Message>(client: SQSClient, queueUrl: string): MessageQueue<Message> {
  const sendBatch = async (entries: SendMessageBatchRequestEntry[]) => {
    const { Failed = [] } = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
    const failedIds = new Set(Failed.map((failure) => failure.Id));
    return { failed: entries.filter((entry) => failedIds.has(entry.Id)), reasons: Failed };
  };
  return {
    async send(messages: readonly { message: Message; delaySeconds: number }[]) {
      for (let start = 0; start < messages.length; start += maxBatchEntries) {
        const entries = messages.slice(start, start + maxBatchEntries).map(({ message, delaySeconds }, index) => ({
          Id: String(index),
          MessageBody: JSON.stringify(message),
          DelaySeconds: delaySeconds,
        }));
        const first = await sendBatch(entries);
        if (first.failed.length === 0) continue;
        const second = await sendBatch(first.failed);
        if (second.failed.length > 0) {
          const codes = second.reasons.map((reason) => reason.Code).join(', ');
          throw new Error(`SQS refused ${second.failed.length} message(s) twice: ${codes}`);
        }
      }
    },
  };
}
