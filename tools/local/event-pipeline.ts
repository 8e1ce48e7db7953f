import { randomUUID } from 'node:crypto';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type _Record as StreamApiRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent, SQSRecord } from 'aws-lambda';
import type { SecretsDeps } from '../../lib/deps';
import type { DeliveryDeps, DeliveryQueue, EventDeps } from '../../lib/domain/events/ports';
import { changeStreamSettings, deliveryQueueSettings, sweepSettings } from '../../lib/domain/events/queue-settings';
import type { SweepOutcome } from '../../lib/domain/events/sweep';
import { createHttpSender } from '../../lib/outbound/http-sender';
import { createDynamoClient, localDynamoTiming } from '../../lib/storage/client';
import { localStage } from './api-gateway';

/**
 * Outbound events in `npm start` (docs/architecture.md, "Local runtime"): the same stream handler and
 * delivery function as on AWS, fed by a simple loop, not by a copy of Lambda's event source mappings.
 * The stream loop reads each shard of the table's real stream (DynamoDB Local), hands the records
 * over in Lambda's event shape, and on `batchItemFailures` retries from the failed record after a
 * pause. Delivery messages stay in this process: each is handed to the delivery function once due
 * on the given clock, and one it answers as failed comes back after the queue's visibility timeout.
 * What the handlers promise AWS (partial batch responses, idempotent re-delivery) is tested at the
 * handlers (test/integration/event-handlers.test.ts), not here.
 */

export type StreamReader = { caughtUp: () => Promise<void>; stop: () => Promise<void> };

export type QueuedMessage = { messageId: string; body: string; receives: number };

export type EventPipeline = {
  /** The delivery queue the handlers are given. */
  queue: DeliveryQueue;
  /** Messages not yet handled to the end, due or not. */
  queued: () => readonly QueuedMessage[];
  /** Every write made before the call has been through the stream handler. */
  caughtUp: () => Promise<void>;
  /** No message due and none being handled (later ones may wait). */
  idle: () => Promise<void>;
  /** One run of the sweep now, as its timer runs it every `sweepSettings.intervalMinutes`. */
  sweep: () => Promise<SweepOutcome>;
  stop: () => Promise<void>;
};

/** The table has no stream (a table created before streams were enabled, kept in DATA_DIR). */
export class StreamDisabledError extends Error {
  override readonly name = 'StreamDisabledError';
  constructor(tableName: string) {
    super(`la table ${tableName} n'a pas de flux de modifications (DynamoDB Streams)`);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

export async function startEventPipeline(options: {
  /** With the signing-secrets table, which only the delivery function is given, as on AWS. */
  deps: SecretsDeps;
  endpoint: string;
  tableName?: string;
  /** LATEST for `npm start` (a persisted DATA_DIR must not send yesterday's writes again), TRIM_HORIZON for a fresh table. */
  startingPosition?: 'LATEST' | 'TRIM_HORIZON';
}): Promise<EventPipeline> {
  const { secretsTableName, ...deps } = options.deps;
  const now = () => deps.clock().getTime();
  const messages: Array<QueuedMessage & { sentAt: number; dueAt: number; handling: boolean }> = [];
  const queue: DeliveryQueue = {
    send: async (sent) => {
      for (const { message, delaySeconds } of sent) {
        const at = now();
        const body = JSON.stringify(message);
        messages.push({
          messageId: randomUUID(),
          body,
          receives: 0,
          sentAt: at,
          dueAt: at + delaySeconds * 1000,
          handling: false,
        });
      }
    },
  };
  const eventDeps: EventDeps = { ...deps, queue, send: createHttpSender('local'), network: 'local' };
  const deliveryDeps: DeliveryDeps = { ...eventDeps, secretsTableName };
  // Each function module also builds its AWS handler on import, which reads the queue's URL: any will do.
  process.env.DELIVERY_QUEUE_URL ||= `https://sqs.${localStage.region}.amazonaws.com/${localStage.accountId}/crm-local-deliveries`;
  const streamHandler = (await import('../../functions/stream-handler')).createHandler(eventDeps);
  const deliverEvent = (await import('../../functions/deliver-event')).createHandler(deliveryDeps);
  const sweepDeliveries = (await import('../../functions/sweep-deliveries')).createHandler(eventDeps);

  const stream = await readTableStream({
    endpoint: options.endpoint,
    tableName: options.tableName ?? deps.tableName,
    startingPosition: options.startingPosition ?? 'LATEST',
    handler: (event) => streamHandler(event),
  });

  // Up to five batches at once, as Lambda starts polling a standard queue ("Understanding how Lambda
  // scales an SQS event source mapping", https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html):
  // a receiver that never answers holds only its own batch.
  const inFlight = new Set<Promise<void>>();
  const handOver = (batch: typeof messages): Promise<void> =>
    deliverEvent({ Records: batch.map(sqsRecord) })
      .then((answer) => new Set(answer.batchItemFailures.map((failure) => failure.itemIdentifier)))
      .catch((error: unknown) => {
        console.error(`Échec d'un lot de livraisons (repris après le délai de visibilité) : ${describe(error)}`);
        return new Set(batch.map((message) => message.messageId));
      })
      .then((failed) => {
        for (const message of batch) {
          const at = messages.indexOf(message);
          if (!failed.has(message.messageId)) messages.splice(at, 1);
          else message.dueAt = now() + deliveryQueueSettings.visibilityTimeoutSeconds * 1000;
        }
      });
  const pump = (): void => {
    while (inFlight.size < 5) {
      const due = messages.filter((message) => message.dueAt <= now() && !message.handling);
      const batch = due.slice(0, deliveryQueueSettings.batchSize);
      if (batch.length === 0) return;
      for (const message of batch) Object.assign(message, { handling: true, receives: message.receives + 1 });
      const handled = handOver(batch).finally(() => {
        for (const message of batch) message.handling = false;
        inFlight.delete(handled);
      });
      inFlight.add(handled);
    }
  };
  const ticks = setInterval(pump, 100);
  const sweep = () => sweepDeliveries({});
  // The messages live in this process only: after a restart, the sweep queues again what they were for.
  const sweeps = setInterval(
    () =>
      void sweep().catch((error: unknown) => console.error(`Balayage des livraisons impossible : ${describe(error)}`)),
    sweepSettings.intervalMinutes * 60_000,
  );
  sweeps.unref();

  return {
    queue,
    queued: () => messages.map(({ messageId, body, receives }) => ({ messageId, body, receives })),
    caughtUp: stream.caughtUp,
    idle: async () => {
      for (pump(); inFlight.size > 0; pump()) await Promise.race([...inFlight]);
    },
    sweep,
    stop: async () => {
      clearInterval(ticks);
      clearInterval(sweeps);
      await stream.stop();
      await Promise.all([...inFlight]);
    },
  };
}

/** A queue message as Lambda hands it to a function ("Using Lambda with Amazon SQS", https://docs.aws.amazon.com/lambda/latest/dg/with-sqs.html). */
export function sqsRecord(message: QueuedMessage & { sentAt: number }): SQSRecord {
  return {
    messageId: message.messageId,
    receiptHandle: message.messageId,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receives),
      SentTimestamp: String(message.sentAt),
      SenderId: localStage.accountId,
      ApproximateFirstReceiveTimestamp: String(message.sentAt),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:${localStage.region}:${localStage.accountId}:crm-local-deliveries`,
    awsRegion: localStage.region,
  };
}

/**
 * Reads the table's stream shard after shard (a child only once its parent is read to its end),
 * every 200 ms, and hands each batch read to `handler`. Shards open now start at `startingPosition`
 * (their position taken before this returns, so no later write escapes); shards found later, from
 * their start. A failed record is retried from, up to the mapping's MaximumRetryAttempts, then its
 * range is reported and the shard moves on (on AWS the on-failure destination keeps it).
 */
export async function readTableStream(options: {
  endpoint: string;
  tableName: string;
  startingPosition: 'LATEST' | 'TRIM_HORIZON';
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
}): Promise<StreamReader> {
  const streamArn = await latestStreamArn(options.endpoint, options.tableName);
  const client = new DynamoDBStreamsClient({
    endpoint: options.endpoint,
    region: localStage.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: localDynamoTiming.maxAttempts,
    requestHandler: { requestTimeout: localDynamoTiming.requestTimeoutMs, throwOnRequestTimeout: true },
  });
  type Shard = {
    id: string;
    parentId?: string;
    start: 'LATEST' | 'TRIM_HORIZON';
    after?: string;
    iterator?: string;
    done: boolean;
  };
  const shards = new Map<string, Shard>();
  let running = true;

  const discover = async (start: Shard['start']) => {
    let after: string | undefined;
    do {
      const { StreamDescription: stream } = await client.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: after }),
      );
      for (const { ShardId: id, ParentShardId: parentId, SequenceNumberRange: range } of stream?.Shards ?? []) {
        const closed = range?.EndingSequenceNumber !== undefined;
        if (id !== undefined && !shards.has(id))
          shards.set(id, { id, parentId, start, done: start === 'LATEST' && closed });
      }
      after = stream?.LastEvaluatedShardId;
    } while (after !== undefined);
  };
  const position = async (shard: Shard) => {
    const from =
      shard.after === undefined
        ? { ShardIteratorType: shard.start }
        : { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' as const, SequenceNumber: shard.after };
    const answer = await client.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.id, ...from }));
    return answer.ShardIterator;
  };

  /** The batch through the handler; a failed record is retried from after a pause, as a mapping does. */
  const handBatch = async (shard: Shard, records: DynamoDBRecord[]) => {
    for (let retries = 0; running && records.length > 0; retries += 1) {
      const from = await failedFrom(records);
      if (from === undefined) return;
      records = records.slice(from);
      if (retries === changeStreamSettings.maxRetryAttempts) {
        const range = `${records[0]?.dynamodb?.SequenceNumber} à ${records.at(-1)?.dynamodb?.SequenceNumber}`;
        console.error(
          `Événements abandonnés après ${retries} nouvelles tentatives : fragment ${shard.id}, séquences ${range}`,
        );
        return;
      }
      await pause(1000);
    }
  };
  /** Where a retry starts: the lowest sequence number answered, or the whole batch on a throw or an unknown identifier. */
  const failedFrom = async (records: DynamoDBRecord[]): Promise<number | undefined> => {
    try {
      const failures = (await options.handler({ Records: records }))?.batchItemFailures ?? [];
      if (failures.length === 0) return undefined;
      const at = failures.map(({ itemIdentifier }) =>
        records.findIndex((r) => r.dynamodb?.SequenceNumber === itemIdentifier),
      );
      return at.includes(-1) ? 0 : Math.min(...at);
    } catch (error) {
      console.error(`Échec du traitement d'un lot du flux : ${describe(error)}`);
      return 0;
    }
  };

  /** The shard read until nothing new (or its end, once closed). */
  const readShard = async (shard: Shard) => {
    while (running) {
      shard.iterator ??= await position(shard);
      const answer = await client.send(
        new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: changeStreamSettings.batchSize }),
      );
      const records = answer.Records ?? [];
      if (records.length > 0)
        await handBatch(
          shard,
          records.map((record) => lambdaRecord(record, streamArn)),
        );
      shard.after = records.at(-1)?.dynamodb?.SequenceNumber ?? shard.after;
      shard.iterator = answer.NextShardIterator;
      shard.done = shard.iterator === undefined;
      if (shard.done || records.length === 0) return;
    }
  };

  let begun = 0;
  let ended = 0;
  const round = async () => {
    begun += 1;
    try {
      await discover('TRIM_HORIZON');
    } catch (error) {
      console.error(`Lecture du flux impossible : ${describe(error)}`);
    }
    for (const shard of shards.values()) {
      if (!running || shard.done || (shard.parentId !== undefined && shards.get(shard.parentId)?.done === false))
        continue;
      await readShard(shard).catch((error: unknown) => {
        // An iterator lasts 15 minutes and a record 24 hours (DynamoDB Streams API Reference,
        // GetShardIterator): the next round takes a new one, from the shard's start once trimmed.
        shard.iterator = undefined;
        if (error instanceof TrimmedDataAccessException)
          Object.assign(shard, { after: undefined, start: 'TRIM_HORIZON' });
        else if (running) console.error(`Lecture du flux impossible : ${describe(error)}`);
      });
    }
    ended += 1;
  };

  await discover(options.startingPosition);
  for (const shard of shards.values()) if (!shard.done) shard.iterator = await position(shard);
  const loop = (async () => {
    while (running) {
      await round();
      await pause(200);
    }
  })();

  return {
    caughtUp: async () => {
      const target = begun + 1;
      while (running && ended < target) await pause(5);
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
  try {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.LatestStreamArn === undefined || Table.StreamSpecification?.StreamEnabled !== true) {
      throw new StreamDisabledError(tableName);
    }
    return Table.LatestStreamArn;
  } finally {
    dynamo.destroy();
  }
}

/**
 * A stream record as Lambda hands it over ("Using AWS Lambda with Amazon DynamoDB",
 * https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html): JSON, so binary values are base64 and
 * the creation time is in seconds since the epoch.
 */
export function lambdaRecord(record: StreamApiRecord, streamArn: string): DynamoDBRecord {
  const json = JSON.stringify(record.dynamodb ?? {}, function (this: Record<string, unknown>, key, value: unknown) {
    const original = this[key];
    if (original instanceof Date) return original.getTime() / 1000;
    return original instanceof Uint8Array ? Buffer.from(original).toString('base64') : value;
  });
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: localStage.region,
    dynamodb: JSON.parse(json) as DynamoDBRecord['dynamodb'],
    eventSourceARN: streamArn,
  };
}
