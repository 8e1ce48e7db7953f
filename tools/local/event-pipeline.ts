import { randomUUID } from 'node:crypto';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import * as streams from '@aws-sdk/client-dynamodb-streams';
import type {
  AttributeValue as StreamAttributeValue,
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  SQSBatchResponse,
  SQSEvent,
  SQSRecord,
} from 'aws-lambda';
import { type SecretsDeps, createDynamoClient, localDynamoTiming } from '../../lib/storage/client';
import type { DeliveryMessage, DeliveryQueue, EventDeps, MessageQueue } from '../../lib/domain/events/ports';
import { followUpDueSettings } from '../../lib/domain/follow-ups/follow-up-settings';
import type { FollowUpDeps, FollowUpDueMessage, FollowUpQueue } from '../../lib/domain/follow-ups/ports';
import { changeStreamSettings, deliveryQueueSettings, sweepSettings } from '../../lib/domain/events/queue-settings';
import { fieldPurgeSettings } from '../../lib/domain/fields/field-purge';
import { erasureSettings } from '../../lib/domain/erasure/continue-erasures';
import { retentionTask } from '../../lib/domain/erasure/apply-retention';
import { createHttpSender } from '../../lib/outbound/http-sender';
import { localStage } from './api-gateway';
import { localDeliveryQueueUrl, localFollowUpQueueUrl } from './lambda-runtime';

/**
 * Outbound events in `npm start` (docs/architecture.md, "Local runtime"): the same stream handler, delivery function
 * and send of follow-ups as on AWS, fed by a loop over the table's real stream and by queue messages kept in this
 * process, and the events wing's scheduled functions (the sweep, the follow-up sweep every 5 seconds, the purge of
 * deleted custom fields) on timers. What the handlers
 * promise Lambda's mappings is tested at the handlers (test/integration/event-handlers.test.ts).
 */

export type StreamReader = { caughtUp: () => Promise<void>; stop: () => Promise<void> };
export type QueuedMessage = { messageId: string; body: string; receives: number };
/**
 * `caughtUp`: earlier writes went through the stream handler; `idle`: no message due or in hand; `queued`: the
 * delivery messages left, `queuedFollowUps` the follow-up messages left.
 */
export type EventPipeline = StreamReader & {
  queue: DeliveryQueue;
  queued: () => QueuedMessage[];
  followUpQueue: FollowUpQueue;
  queuedFollowUps: () => QueuedMessage[];
  idle: () => Promise<void>;
};

/** The table has no stream (a table created before streams were enabled, kept in DATA_DIR). */
export class StreamDisabledError extends Error {
  override readonly name = 'StreamDisabledError';
  constructor(tableName: string) {
    super(`la table ${tableName} n'a pas de flux de modifications (DynamoDB Streams)`);
  }
}

type Position = 'LATEST' | 'TRIM_HORIZON';
type Flags = Record<'closed' | 'done', boolean>;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type PipelineOptions = { deps: SecretsDeps; endpoint: string; tableName?: string; startingPosition?: Position };

export async function startEventPipeline(options: PipelineOptions): Promise<EventPipeline> {
  const { secretsTableName, ...deps } = options.deps;
  const now = () => deps.clock().getTime();
  let deliverEvent: (event: SQSEvent) => Promise<SQSBatchResponse> = async () => ({ batchItemFailures: [] });
  let sendFollowUpDue: (event: SQSEvent) => Promise<SQSBatchResponse> = async () => ({ batchItemFailures: [] });
  const deliveries = localQueue<DeliveryMessage>(now, deliveryQueueSettings, (event) => deliverEvent(event));
  const followUps = localQueue<FollowUpDueMessage>(now, followUpDueSettings.queue, (event) => sendFollowUpDue(event));
  const eventDeps: EventDeps = { ...deps, queue: deliveries.queue, send: createHttpSender('local'), network: 'local' };
  const followUpDeps: FollowUpDeps = { ...deps, followUpQueue: followUps.queue };
  process.env.DELIVERY_QUEUE_URL ||= localDeliveryQueueUrl;
  process.env.FOLLOW_UP_QUEUE_URL ||= localFollowUpQueueUrl;
  const streamHandler = (await import('../../functions/events/stream-handler')).createHandler({
    ...eventDeps,
    followUpQueue: followUps.queue,
  });
  deliverEvent = (await import('../../functions/events/deliver-event')).createHandler({
    ...eventDeps,
    secretsTableName,
  });
  sendFollowUpDue = (await import('../../functions/events/send-follow-up-due')).createHandler(followUpDeps);
  const sweepDeliveries = (await import('../../functions/events/sweep-deliveries')).createHandler(eventDeps);
  const sweepFollowUps = (await import('../../functions/events/sweep-follow-ups')).createHandler(followUpDeps);
  const purgeDeletedFields = (await import('../../functions/events/purge-deleted-fields')).createHandler(deps);
  const eraseRecords = (await import('../../functions/events/erase-records')).createHandler(deps);
  const { endpoint, tableName = deps.tableName, startingPosition = 'LATEST' } = options;
  const stream = await readTableStream({ endpoint, tableName, startingPosition, handler: streamHandler });

  const ticks = setInterval(() => {
    deliveries.pump();
    followUps.pump();
  }, 100);
  const minutes = (count: number) => count * 60_000;
  const schedules = [
    // The messages live in this process only: after a restart, the sweep queues again what they were for.
    runEvery(minutes(sweepSettings.intervalMinutes), () => sweepDeliveries({}), 'Balayage impossible'),
    // Queued follow-ups are lost with the process too: the follow-up sweep's clock is in the table, so after a
    // restart it queues again what fell due since (up to 24 hours back).
    runEvery(
      followUpDueSettings.localIntervalSeconds * 1000,
      () => sweepFollowUps({}),
      'Rappels : balayage impossible',
    ),
    runEvery(
      minutes(fieldPurgeSettings.intervalMinutes),
      () => purgeDeletedFields({}),
      'Purge des champs supprimés impossible',
    ),
    runEvery(erasureSettings.localIntervalSeconds * 1000, () => eraseRecords({}), 'Effacement des copies impossible'),
    // The retention, daily on AWS: hourly here, so a workspace's retention set in `npm start` shows within the hour.
    runEvery(minutes(60), () => eraseRecords({ task: retentionTask }), 'Conservation : effacement impossible'),
  ];
  return {
    queue: deliveries.queue,
    queued: deliveries.queued,
    followUpQueue: followUps.queue,
    queuedFollowUps: followUps.queued,
    caughtUp: stream.caughtUp,
    idle: async () => {
      await Promise.all([deliveries.idle(), followUps.idle()]);
    },
    stop: async () => {
      clearInterval(ticks);
      for (const schedule of schedules) clearInterval(schedule);
      await stream.stop();
      await Promise.all([deliveries.stop(), followUps.stop()]);
    },
  };
}

/**
 * A queue kept in this process, handing its messages to a function as an SQS event source mapping does: each message
 * once due on the clock (its delay), batches of `batchSize`, up to five batches at once, as Lambda starts polling a
 * standard queue ("Understanding how Lambda scales an SQS event source mapping",
 * https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html): a receiver that never answers holds only
 * its own batch. A failed message is due again after the visibility timeout.
 */
function localQueue<Message>(
  now: () => number,
  settings: { batchSize: number; visibilityTimeoutSeconds: number },
  handler: (event: SQSEvent) => Promise<SQSBatchResponse>,
) {
  // A message in hand is due at Infinity until its batch is answered.
  const messages: Array<QueuedMessage & { sentAt: number; dueAt: number }> = [];
  const queue: MessageQueue<Message> = {
    send: async (sent) => {
      for (const { message, delaySeconds } of sent) {
        const [messageId, body, sentAt] = [randomUUID(), JSON.stringify(message), now()];
        messages.push({ messageId, body, receives: 0, sentAt, dueAt: sentAt + delaySeconds * 1000 });
      }
    },
  };
  const inFlight = new Set<Promise<void>>();
  const handOver = async (batch: typeof messages): Promise<void> => {
    const failed = await handler({ Records: batch.map(sqsRecord) }).then(
      (answer) => answer.batchItemFailures.map((failure) => failure.itemIdentifier),
      (error: unknown) => {
        console.error(`Échec d'un lot de messages (repris après le délai de visibilité) : ${String(error)}`);
        return batch.map((message) => message.messageId);
      },
    );
    for (const message of batch) {
      if (!failed.includes(message.messageId)) messages.splice(messages.indexOf(message), 1);
      else message.dueAt = now() + settings.visibilityTimeoutSeconds * 1000;
    }
  };
  const dueBatch = () => messages.filter((message) => message.dueAt <= now()).slice(0, settings.batchSize);
  const pump = (): void => {
    for (let batch = dueBatch(); inFlight.size < 5 && batch.length > 0; batch = dueBatch()) {
      for (const message of batch) Object.assign(message, { dueAt: Infinity, receives: message.receives + 1 });
      const handed: Promise<void> = handOver(batch).finally(() => inFlight.delete(handed));
      inFlight.add(handed);
    }
  };
  return {
    queue,
    pump,
    queued: () => messages.map(({ messageId, body, receives }) => ({ messageId, body, receives })),
    idle: async () => {
      for (pump(); inFlight.size > 0; pump()) await Promise.race([...inFlight]);
    },
    stop: () => Promise.all([...inFlight]),
  };
}

/**
 * A scheduled function as its EventBridge rule runs it on AWS (infra/cdk/constructs/scheduled-function.ts): every
 * `intervalMs`, one run at a time (its reserved concurrency of 1: a run still going when the next is due makes that
 * one skipped), a failed run printed and the next one left to do the work.
 */
function runEvery(intervalMs: number, run: () => Promise<unknown>, failure: string): NodeJS.Timeout {
  let running = false;
  const once = async () => {
    if (running) return;
    running = true;
    await run()
      .catch((error: unknown) => console.error(`${failure} : ${String(error)}`))
      .finally(() => (running = false));
  };
  return setInterval(() => void once(), intervalMs).unref();
}

/** A queue message as Lambda hands it to a function ("Using Lambda with Amazon SQS", https://docs.aws.amazon.com/lambda/latest/dg/with-sqs.html). */
export function sqsRecord({ messageId, body, receives, sentAt }: QueuedMessage & { sentAt: number }): SQSRecord {
  const { region: awsRegion, accountId: SenderId } = localStage;
  const [ApproximateReceiveCount, sent] = [String(receives), String(sentAt)];
  const attributes = { ApproximateReceiveCount, SentTimestamp: sent, SenderId, ApproximateFirstReceiveTimestamp: sent };
  const eventSourceARN = `arn:aws:sqs:${awsRegion}:${SenderId}:crm-local-deliveries`;
  const source = { eventSource: 'aws:sqs', eventSourceARN, awsRegion, messageAttributes: {}, md5OfBody: '' };
  return { messageId, receiptHandle: messageId, body, attributes, ...source };
}

/**
 * Reads the stream shard after shard (a child once its parent is done) every 200 ms. Shards open now start at
 * `startingPosition`, positioned before this returns; later ones at their start. A failed batch is handed again until
 * it goes through; the mapping's retry bound and on-failure destination are AWS's.
 */
export async function readTableStream(options: {
  endpoint: string;
  tableName: string;
  startingPosition: Position;
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
}): Promise<StreamReader> {
  const StreamArn = await latestStreamArn(options.endpoint, options.tableName);
  const client = new streams.DynamoDBStreamsClient({
    endpoint: options.endpoint,
    region: localStage.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestHandler: { requestTimeout: localDynamoTiming.requestTimeoutMs, throwOnRequestTimeout: true },
  });
  // `closed`: DescribeStream gave it an end; `done`: read to it.
  type Shard = { id: string; parentId?: string; start: Position; after?: string; iterator?: string } & Flags;
  const shards = new Map<string, Shard>();
  let running = true;
  const discover = async (start: Position, after?: string): Promise<void> => {
    const page = new streams.DescribeStreamCommand({ StreamArn, ExclusiveStartShardId: after });
    const { StreamDescription: stream } = await client.send(page);
    for (const { ShardId: id, ParentShardId: parentId, SequenceNumberRange: range } of stream?.Shards ?? []) {
      const closed = range?.EndingSequenceNumber !== undefined;
      if (id !== undefined && !shards.has(id))
        shards.set(id, { id, parentId, start, closed, done: closed && start === 'LATEST' });
      else if (id !== undefined) Object.assign(shards.get(id) ?? {}, { closed });
    }
    if (stream?.LastEvaluatedShardId !== undefined) await discover(start, stream.LastEvaluatedShardId);
  };
  const position = async ({ id: ShardId, start, after: SequenceNumber }: Shard) => {
    const ShardIteratorType = SequenceNumber === undefined ? start : 'AFTER_SEQUENCE_NUMBER';
    const command = new streams.GetShardIteratorCommand({ StreamArn, ShardId, ShardIteratorType, SequenceNumber });
    return (await client.send(command)).ShardIterator;
  };
  /** Handed again from the first record answered in `batchItemFailures` (all of it on a throw) until it goes through. */
  const handBatch = async (records: DynamoDBRecord[]): Promise<void> => {
    let failed: number[];
    try {
      const ids = ((await options.handler({ Records: records }))?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
      failed = ids.map((id) => records.findIndex((record) => record.dynamodb?.SequenceNumber === id));
    } catch (error) {
      console.error(`Échec du traitement d'un lot du flux : ${String(error)}`);
      failed = [0];
    }
    if (failed.length === 0 || !running) return;
    await pause(1000);
    return handBatch(records.slice(failed.includes(-1) ? 0 : Math.min(...failed)));
  };
  /** The shard read until nothing new (or its end, once closed). */
  const readShard = async (shard: Shard) => {
    while (running && !shard.done) {
      shard.iterator ??= await position(shard);
      const Limit = changeStreamSettings.batchSize;
      const page = await client.send(new streams.GetRecordsCommand({ ShardIterator: shard.iterator, Limit }));
      const { Records: records = [], NextShardIterator } = page;
      if (records.length > 0) await handBatch(records.map((record) => lambdaRecord(record, StreamArn)));
      shard.after = records.at(-1)?.dynamodb?.SequenceNumber ?? shard.after;
      if (NextShardIterator === undefined && !shard.closed) {
        // Only a closed shard ends (Streams API, GetRecords); DynamoDB Local may omit an open one's next iterator
        // (localstack#12483): read again from its last record, else its start (ids derive from writes).
        shard.start = 'TRIM_HORIZON';
        throw new Error(`itérateur absent pour la partition ${shard.id}`);
      }
      Object.assign(shard, { iterator: NextShardIterator, done: NextShardIterator === undefined });
      if (records.length === 0) return;
    }
  };
  // Only a round that read every shard without an error, begun after a call to `caughtUp`, answers it.
  let [begun, readThrough] = [0, 0];
  const round = async () => {
    const index = (begun += 1);
    let complete = true;
    const failed = (error: unknown) => {
      complete = false;
      if (running && !(error instanceof streams.TrimmedDataAccessException))
        console.error(`Lecture du flux impossible : ${String(error)}`);
    };
    await discover('TRIM_HORIZON').catch(failed);
    for (const shard of shards.values()) {
      if (!running || shard.done || shards.get(shard.parentId ?? '')?.done === false) continue;
      await readShard(shard).catch((error: unknown) => {
        // An iterator lasts 15 min, a record 24 h (DynamoDB Streams API Reference, GetShardIterator).
        shard.iterator = undefined;
        if (error instanceof streams.TrimmedDataAccessException)
          Object.assign(shard, { after: undefined, start: 'TRIM_HORIZON' });
        failed(error);
      });
    }
    if (complete) readThrough = index;
  };
  await discover(options.startingPosition);
  for (const shard of shards.values()) if (!shard.done) shard.iterator = await position(shard);
  const loop = (async () => {
    for (; running; await pause(200)) await round();
  })();
  return {
    caughtUp: async () => {
      for (const target = begun + 1; running && readThrough < target;) await pause(5);
    },
    stop: async () => {
      running = false;
      await loop;
      client.destroy();
    },
  };
}

async function latestStreamArn(endpoint: string, tableName: string): Promise<string> {
  const dynamo = createDynamoClient({ endpoint });
  const { Table } = await dynamo
    .send(new DescribeTableCommand({ TableName: tableName }))
    .finally(() => dynamo.destroy());
  if (Table?.StreamSpecification?.StreamEnabled && Table.LatestStreamArn) return Table.LatestStreamArn;
  throw new StreamDisabledError(tableName);
}

/**
 * The Streams client reads an empty map attribute (a prospect's `fields` once its last value is removed) as a value
 * of no type, `{}`; the stream holds `{ "M": {} }`, which Lambda hands over, and which the item's reader expects.
 */
function typedValue(value: StreamAttributeValue): StreamAttributeValue {
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.M !== undefined) return { M: typedImage(value.M) };
  if (value.L !== undefined) return { L: value.L.map(typedValue) };
  return value;
}

const typedImage = (image: Record<string, StreamAttributeValue>): Record<string, StreamAttributeValue> =>
  Object.fromEntries(Object.entries(image).map(([name, value]) => [name, typedValue(value)]));

/** As Lambda hands it over (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html): JSON, binary in base64, time in seconds. */
export function lambdaRecord(record: streams._Record, streamArn: string): DynamoDBRecord {
  const json = JSON.stringify(record.dynamodb ?? {}, function (this: Record<string, unknown>, key, value: unknown) {
    const original = this[key];
    if (original instanceof Date) return original.getTime() / 1000;
    return original instanceof Uint8Array ? Buffer.from(original).toString('base64') : value;
  });
  const { eventID, eventName, eventVersion = '1.1' } = record;
  const read = JSON.parse(json) as NonNullable<DynamoDBRecord['dynamodb']>;
  const dynamodb = {
    ...read,
    ...(read.NewImage ? { NewImage: typedImage(read.NewImage) } : {}),
    ...(read.OldImage ? { OldImage: typedImage(read.OldImage) } : {}),
  };
  const source = { eventSource: 'aws:dynamodb', awsRegion: localStage.region, eventSourceARN: streamArn };
  return { eventID, eventName, eventVersion, ...source, dynamodb };
}
