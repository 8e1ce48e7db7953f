import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { maxQueueDelaySeconds, type DeliveryMessage, type DeliveryQueue } from '../../lib/domain/events/ports';
import { localStage } from './api-gateway';

/**
 * An in-process stand-in for one SQS standard queue and for the Lambda event source mapping that
 * reads it, with SQS's semantics on an injectable clock:
 * - a message sent with DelaySeconds is invisible that long ("Amazon SQS delay queues" and message
 *   timers, https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-delay-queues.html);
 * - a received message stays in the queue, hidden for the visibility timeout, and comes back unless it is
 *   deleted with its latest receipt handle ("Amazon SQS visibility timeout",
 *   https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-visibility-timeout.html);
 * - with a redrive policy, a message already received `maxReceiveCount` times goes to the dead-letter
 *   queue instead of being received again ("Using dead-letter queues in Amazon SQS",
 *   https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-dead-letter-queues.html).
 * Order is first sent, first offered, which a standard queue only attempts: nothing here relies on it.
 */

/** SQS's error for an out-of-range parameter (DelaySeconds 0 to 900, MaxNumberOfMessages 1 to 10). */
export class InvalidParameterValue extends Error {
  override readonly name = 'InvalidParameterValue';
}

/** ReceiveMessage's MaxNumberOfMessages: 1 to 10 (SQS API Reference, ReceiveMessage). */
export const maxReceiveBatch = 10;

type StoredMessage = {
  messageId: string;
  body: string;
  md5OfBody: string;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt: number | undefined;
  /** Only the latest receipt handle deletes the message. */
  receiptHandle: string | undefined;
};

/** A message as a test or the dead-letter view sees it, without receiving it. */
export type QueuedMessage = { messageId: string; body: string; receiveCount: number; sentAt: number };

export type LocalQueueOptions = {
  name: string;
  visibilityTimeoutSeconds: number;
  /** Milliseconds since the epoch; the real clock unless a test gives its own. */
  now?: () => number;
  redrive?: { deadLetters: LocalQueue; maxReceiveCount: number };
};

export class LocalQueue {
  readonly name: string;
  readonly arn: string;
  /** The URL SQS would give the queue; nothing is sent to it. */
  readonly url: string;
  private readonly messages = new Map<string, StoredMessage>();
  private readonly now: () => number;

  constructor(private readonly options: LocalQueueOptions) {
    this.name = options.name;
    this.arn = `arn:aws:sqs:${localStage.region}:${localStage.accountId}:${options.name}`;
    this.url = `https://sqs.${localStage.region}.amazonaws.com/${localStage.accountId}/${options.name}`;
    this.now = options.now ?? Date.now;
  }

  /** SendMessage; returns the message id. */
  send(body: string, delaySeconds = 0): string {
    if (!Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > maxQueueDelaySeconds) {
      throw new InvalidParameterValue(
        `Value ${delaySeconds} for parameter DelaySeconds is invalid. Reason: must be between 0 and ${maxQueueDelaySeconds}, if provided.`,
      );
    }
    const sentAt = this.now();
    const message: StoredMessage = {
      messageId: randomUUID(),
      body,
      md5OfBody: createHash('md5').update(body, 'utf8').digest('hex'),
      sentAt,
      visibleAt: sentAt + delaySeconds * 1000,
      receiveCount: 0,
      firstReceivedAt: undefined,
      receiptHandle: undefined,
    };
    this.messages.set(message.messageId, message);
    return message.messageId;
  }

  /** ReceiveMessage (short polling): up to `maxMessages` visible messages, each hidden for the visibility timeout. */
  receive(maxMessages = maxReceiveBatch): SQSRecord[] {
    if (!Number.isInteger(maxMessages) || maxMessages < 1 || maxMessages > maxReceiveBatch) {
      throw new InvalidParameterValue(
        `Value ${maxMessages} for parameter MaxNumberOfMessages is invalid. Reason: must be between 1 and ${maxReceiveBatch}, if provided.`,
      );
    }
    const now = this.now();
    const received: SQSRecord[] = [];
    for (const message of this.messages.values()) {
      if (received.length === maxMessages) break;
      if (message.visibleAt > now) continue;
      const redrive = this.options.redrive;
      if (redrive !== undefined && message.receiveCount >= redrive.maxReceiveCount) {
        this.messages.delete(message.messageId);
        redrive.deadLetters.adopt(message, now);
        continue;
      }
      message.receiveCount += 1;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + this.options.visibilityTimeoutSeconds * 1000;
      message.receiptHandle = randomBytes(24).toString('base64url');
      received.push(this.record(message));
    }
    return received;
  }

  /**
   * DeleteMessage. A handle from an earlier receive deletes nothing and fails nothing: "you must provide
   * the most recently received receipt handle … (otherwise, the request succeeds, but the message will not
   * be deleted)" (SQS API Reference, DeleteMessage). Returns whether a message was deleted.
   */
  delete(receiptHandle: string): boolean {
    for (const message of this.messages.values()) {
      if (message.receiptHandle === receiptHandle) return this.messages.delete(message.messageId);
    }
    return false;
  }

  /** Every message in the queue, visible or not, without receiving it. */
  peek(): QueuedMessage[] {
    return [...this.messages.values()].map(({ messageId, body, receiveCount, sentAt }) => ({
      messageId,
      body,
      receiveCount,
      sentAt,
    }));
  }

  /** Messages a receive would return now. */
  visibleCount(): number {
    const now = this.now();
    return [...this.messages.values()].filter((message) => message.visibleAt <= now).length;
  }

  /** A message moved here by a redrive keeps its id, body and first send time; it is visible at once. */
  private adopt(message: StoredMessage, now: number): void {
    this.messages.set(message.messageId, {
      ...message,
      visibleAt: now,
      receiveCount: 0,
      firstReceivedAt: undefined,
      receiptHandle: undefined,
    });
  }

  private record(message: StoredMessage): SQSRecord {
    return {
      messageId: message.messageId,
      receiptHandle: message.receiptHandle ?? '',
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: localStage.accountId,
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt ?? message.sentAt),
      },
      messageAttributes: {},
      md5OfBody: message.md5OfBody,
      eventSource: 'aws:sqs',
      eventSourceARN: this.arn,
      awsRegion: localStage.region,
    };
  }
}

export type SqsFunction = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

export type ConsumerOptions = {
  /** Messages per invocation (the mapping's BatchSize). */
  batchSize?: number;
  /** Batches in flight at once. */
  concurrency?: number;
  pollIntervalMs?: number;
  /** Where a failed invocation is reported (on AWS: the function's log). */
  onInvocationError?: (error: unknown) => void;
};

export type Consumer = {
  /** Resolves once no message is visible and no batch is in flight; delayed or hidden messages may remain. */
  idle: () => Promise<void>;
  /** Stops polling and waits for the batches in flight. */
  stop: () => Promise<void>;
};

/**
 * The SQS event source mapping: polls, invokes the function with batches in Lambda's SQSEvent shape,
 * several batches at once (a slow batch holds only its own messages), deletes what succeeded. With
 * ReportBatchItemFailures, the messages listed in `batchItemFailures` stay; a thrown error, or an
 * identifier that is empty or names no message of the batch, fails the whole batch, whose messages come
 * back after the visibility timeout ("Handling errors for an SQS event source in Lambda",
 * https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html).
 */
export function startConsumer(queue: LocalQueue, handler: SqsFunction, options: ConsumerOptions = {}): Consumer {
  const batchSize = options.batchSize ?? maxReceiveBatch;
  // Lambda polls a standard queue with five concurrent batches to begin with ("Understanding how Lambda
  // scales an SQS event source mapping", https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html).
  const concurrency = options.concurrency ?? 5;
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  const reportError = options.onInvocationError ?? ((error) => console.error(invocationErrorLine(queue, error)));
  const inFlight = new Set<Promise<void>>();
  let running = true;
  let timer: NodeJS.Timeout | undefined;

  const invoke = async (records: SQSRecord[]): Promise<void> => {
    let failed: ReadonlySet<string>;
    try {
      failed = failedMessageIds(records, await handler({ Records: records }));
    } catch (error) {
      reportError(error);
      return;
    }
    for (const record of records) if (!failed.has(record.messageId)) queue.delete(record.receiptHandle);
  };

  const pump = (): void => {
    while (running && inFlight.size < concurrency) {
      const records = queue.receive(batchSize);
      if (records.length === 0) return;
      const batch = invoke(records).finally(() => {
        inFlight.delete(batch);
        pump();
      });
      inFlight.add(batch);
    }
  };

  const tick = (): void => {
    pump();
    if (running) timer = setTimeout(tick, pollIntervalMs);
  };
  tick();

  return {
    idle: async () => {
      for (;;) {
        pump();
        if (inFlight.size === 0 && queue.visibleCount() === 0) return;
        await Promise.race([...inFlight, new Promise((resolve) => setTimeout(resolve, 5))]);
      }
    },
    stop: async () => {
      running = false;
      clearTimeout(timer);
      await Promise.all([...inFlight]);
    },
  };
}

/** The messages to keep; every message of the batch when the answer cannot be trusted. */
function failedMessageIds(records: readonly SQSRecord[], response: SQSBatchResponse | void): ReadonlySet<string> {
  const all = new Set(records.map((record) => record.messageId));
  const failures = response?.batchItemFailures ?? [];
  const ids = failures.map((failure) => failure?.itemIdentifier);
  if (ids.some((id) => typeof id !== 'string' || !all.has(id))) return all;
  return new Set(ids as string[]);
}

function invocationErrorLine(queue: LocalQueue, error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `Échec d'un lot de la file ${queue.name} (il sera reçu de nouveau après son délai de visibilité) : ${message}`;
}

/** The delivery queue port on the local stand-in: each message as its JSON text, as the SQS adapter sends it. */
export function localDeliveryQueue(queue: LocalQueue): DeliveryQueue {
  return {
    send: async (messages: readonly { message: DeliveryMessage; delaySeconds: number }[]) => {
      for (const { message, delaySeconds } of messages) queue.send(JSON.stringify(message), delaySeconds);
    },
  };
}
