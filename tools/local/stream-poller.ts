import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type AttributeValue as SdkAttributeValue,
  type _Record as SdkRecord,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { createDynamoClient, localDynamoTiming } from '../../lib/storage/client';
import { localStage } from './api-gateway';
import { streamRecordMatcher, type StreamFilter } from './stream-filter';

/**
 * The Lambda event source mapping of a DynamoDB stream, for DynamoDB Local (which serves the DynamoDB
 * Streams API): one reader per shard, a child shard only after its parent is read to its end, records
 * in order within a shard, batches in Lambda's DynamoDBStreamEvent shape ("Using AWS Lambda with Amazon
 * DynamoDB", https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html; parameters: "Lambda parameters
 * for Amazon DynamoDB event source mappings", https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-params.html).
 *
 * Failures, as the stack configures the mapping (ReportBatchItemFailures, BisectBatchOnFunctionError,
 * MaximumRetryAttempts, an on-failure destination):
 * - `batchItemFailures` (the lowest sequence number wins): the records before it are done, the batch is
 *   retried from it ("Configuring partial batch response with DynamoDB and Lambda",
 *   https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-batchfailurereporting.html); an identifier
 *   that is empty or names no record of the batch fails the whole batch (same page);
 * - a thrown error: the batch is split in two and each half tried in order, which "does not count towards
 *   the retry quota"; a single record is retried up to MaximumRetryAttempts times, then discarded to the
 *   on-failure destination and the shard moves on ("Retaining discarded records for a DynamoDB event
 *   source in Lambda", https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html).
 */

export type StreamBatchFunction = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;

/** What Lambda sends the on-failure destination for a discarded batch (services-dynamodb-errors, above). */
export type DiscardedBatch = {
  requestContext: { condition: 'RetryAttemptsExhausted'; approximateInvokeCount: number };
  responseContext: { functionError: string };
  DDBStreamBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    approximateArrivalOfFirstRecord: string;
    approximateArrivalOfLastRecord: string;
    batchSize: number;
    streamArn: string;
  };
};

export type StreamPollerOptions = {
  endpoint: string;
  tableName: string;
  handler: StreamBatchFunction;
  /** Where a reader starts on the shards open at start-up; shards that appear later are read from their start. */
  startingPosition: 'LATEST' | 'TRIM_HORIZON';
  /** The function's `streamFilters` (lib/routes.ts): records matching none are skipped. */
  filters?: readonly StreamFilter[] | undefined;
  /** Records read per GetRecords, at most per invocation (the mapping's BatchSize; 100 by default, as on AWS). */
  batchSize?: number;
  /** Wait between two reads of a shard that had nothing new. */
  pollIntervalMs?: number;
  /** Retries of a failing record before it is discarded (MaximumRetryAttempts). */
  maxRetryAttempts: number;
  /** Wait before a retry (Lambda backs off too). */
  retryDelayMs?: number;
  /** How often new shards are looked for. */
  shardDiscoveryIntervalMs?: number;
  onFailure: (discarded: DiscardedBatch) => void;
  /** A failed read of the stream (DynamoDB Local unreachable…): reported, then tried again. */
  onReadError?: (error: unknown) => void;
};

export type StreamPoller = {
  streamArn: string;
  /** Resolves once every record written before the call has been handed to the handler and the handler has returned. */
  caughtUp: () => Promise<void>;
  stop: () => Promise<void>;
};

/** The table has no stream (a table created before streams were enabled, kept in DATA_DIR). */
export class StreamDisabledError extends Error {
  override readonly name = 'StreamDisabledError';
  constructor(tableName: string) {
    super(`la table ${tableName} n'a pas de flux de modifications (DynamoDB Streams)`);
  }
}

type ShardReader = {
  id: string;
  parentId: string | undefined;
  start: 'LATEST' | 'TRIM_HORIZON';
  state: 'waiting' | 'reading' | 'done';
  /** Its first iterator is taken: from then on a new write is read. */
  positioned: boolean;
  /** When the last read that found nothing new started. */
  emptyReadStartedAt: number;
};

export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const batchSize = options.batchSize ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 200;
  const retryDelayMs = options.retryDelayMs ?? pollIntervalMs;
  const onReadError =
    options.onReadError ?? ((error) => console.error(`Lecture du flux impossible : ${describe(error)}`));
  const matcher = streamRecordMatcher(options.filters);
  const streamArn = await latestStreamArn(options.endpoint, options.tableName);
  const client = new DynamoDBStreamsClient({
    endpoint: options.endpoint,
    region: localStage.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: localDynamoTiming.maxAttempts,
    requestHandler: {
      connectionTimeout: localDynamoTiming.connectionTimeoutMs,
      requestTimeout: localDynamoTiming.requestTimeoutMs,
      throwOnRequestTimeout: true,
    },
  });
  const readers = new Map<string, ShardReader>();
  const loops = new Set<Promise<void>>();
  let running = true;
  const sleeping = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleeping.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleeping.add(wake);
    });

  const iterator = async (reader: ShardReader, after: string | undefined): Promise<string | undefined> => {
    const answer = await client.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: reader.id,
        ...(after === undefined
          ? { ShardIteratorType: reader.start }
          : { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }),
      }),
    );
    return answer.ShardIterator;
  };

  const invoke = async (records: DynamoDBRecord[]): Promise<Outcome> => {
    try {
      return outcomeOf(records, await options.handler({ Records: records }));
    } catch (error) {
      return { kind: 'error', reason: describe(error) };
    }
  };

  /** One batch read from a shard, through filtering, bisection and retries; returns once it is done or discarded. */
  const deliver = async (reader: ShardReader, read: SdkRecord[]): Promise<void> => {
    const kept = read.map((record) => lambdaRecord(record, streamArn)).filter(matcher);
    const pending: Array<{ records: DynamoDBRecord[]; retries: number }> = [];
    if (kept.length > 0) pending.push({ records: kept, retries: 0 });
    while (running && pending.length > 0) {
      const batch = pending[0] as { records: DynamoDBRecord[]; retries: number };
      const outcome = await invoke(batch.records);
      if (outcome.kind === 'success') {
        pending.shift();
        continue;
      }
      if (outcome.kind === 'error' && batch.records.length > 1) {
        const half = Math.ceil(batch.records.length / 2);
        pending.splice(
          0,
          1,
          { records: batch.records.slice(0, half), retries: batch.retries },
          { records: batch.records.slice(half), retries: batch.retries },
        );
        continue;
      }
      const from = outcome.kind === 'partial' ? outcome.from : 0;
      const remaining = batch.records.slice(from);
      const retries = from === 0 ? batch.retries + 1 : 1;
      if (retries > options.maxRetryAttempts) {
        options.onFailure(discardedBatch(reader.id, streamArn, remaining, retries, outcome.reason));
        pending.shift();
        continue;
      }
      pending[0] = { records: remaining, retries };
      await sleep(retryDelayMs);
    }
  };

  const read = async (reader: ShardReader): Promise<void> => {
    let checkpoint: string | undefined;
    let position: string | undefined;
    while (running) {
      const startedAt = performance.now();
      try {
        position ??= await iterator(reader, checkpoint);
        reader.positioned = true;
        if (position === undefined) break;
        const answer = await client.send(new GetRecordsCommand({ ShardIterator: position, Limit: batchSize }));
        const records = answer.Records ?? [];
        if (records.length > 0) {
          await deliver(reader, records);
          if (!running) return;
          checkpoint = records.at(-1)?.dynamodb?.SequenceNumber ?? checkpoint;
        }
        position = answer.NextShardIterator;
        // No next iterator: the shard is closed and read to its end.
        if (position === undefined) break;
        if (records.length === 0) {
          reader.emptyReadStartedAt = startedAt;
          await sleep(pollIntervalMs);
        }
      } catch (error) {
        if (!running) return;
        // An iterator lives 15 minutes; past the stream's 24 h retention a position is trimmed
        // (DynamoDB Streams API Reference, GetShardIterator and GetRecords).
        if (error instanceof ExpiredIteratorException) position = undefined;
        else if (error instanceof TrimmedDataAccessException) {
          position = undefined;
          checkpoint = undefined;
          reader.start = 'TRIM_HORIZON';
        } else {
          onReadError(error);
          await sleep(Math.max(pollIntervalMs, 1000));
        }
      }
    }
    reader.state = 'done';
    startReady();
  };

  const startReady = (): void => {
    for (const reader of readers.values()) {
      if (!running || reader.state !== 'waiting') continue;
      const parent = reader.parentId === undefined ? undefined : readers.get(reader.parentId);
      if (parent !== undefined && parent.state !== 'done') continue;
      reader.state = 'reading';
      const loop = read(reader).finally(() => loops.delete(loop));
      loops.add(loop);
    }
  };

  /** Shards open at start-up begin at `startingPosition`; closed ones are skipped at LATEST; later ones from their start. */
  const discover = async (atStartUp: boolean): Promise<void> => {
    for (const shard of await listShards(client, streamArn)) {
      if (shard.ShardId === undefined || readers.has(shard.ShardId)) continue;
      const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
      const reader: ShardReader = {
        id: shard.ShardId,
        parentId: shard.ParentShardId,
        start: atStartUp ? options.startingPosition : 'TRIM_HORIZON',
        state: atStartUp && closed && options.startingPosition === 'LATEST' ? 'done' : 'waiting',
        positioned: false,
        emptyReadStartedAt: -Infinity,
      };
      readers.set(reader.id, reader);
    }
    // Iterators at LATEST are taken now, so that a write made once this function has returned is read.
    const starting = [...readers.values()].filter((reader) => reader.state === 'waiting');
    startReady();
    if (atStartUp) await Promise.all(starting.map((reader) => waitUntilPositioned(reader)));
  };

  const waitUntilPositioned = async (reader: ShardReader): Promise<void> => {
    while (running && reader.state === 'reading' && !reader.positioned) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  await discover(true);
  const discovery = (async () => {
    while (running) {
      await sleep(options.shardDiscoveryIntervalMs ?? 1000);
      if (!running) return;
      await discover(false).catch((error: unknown) => {
        if (running) onReadError(error);
      });
    }
  })();

  return {
    streamArn,
    caughtUp: async () => {
      const since = performance.now();
      await discover(false);
      for (;;) {
        if (!running) return;
        const behind = [...readers.values()].some(
          (reader) => reader.state !== 'done' && reader.emptyReadStartedAt < since,
        );
        if (!behind) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    stop: async () => {
      running = false;
      for (const wake of [...sleeping]) wake();
      await Promise.all([...loops, discovery]);
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

/** Every shard of the stream, DescribeStream page after page. */
async function listShards(client: DynamoDBStreamsClient, streamArn: string): Promise<Shard[]> {
  const shards: Shard[] = [];
  let after: string | undefined;
  do {
    const { StreamDescription } = await client.send(
      new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: after }),
    );
    shards.push(...(StreamDescription?.Shards ?? []));
    after = StreamDescription?.LastEvaluatedShardId;
  } while (after !== undefined);
  return shards;
}

type Outcome =
  { kind: 'success' } | { kind: 'partial'; from: number; reason: string } | { kind: 'error'; reason: string };

function outcomeOf(records: readonly DynamoDBRecord[], response: DynamoDBBatchResponse | void): Outcome {
  const failures = response?.batchItemFailures ?? [];
  if (failures.length === 0) return { kind: 'success' };
  const positions = failures.map((failure) =>
    records.findIndex((record) => record.dynamodb?.SequenceNumber === failure?.itemIdentifier),
  );
  if (positions.some((position) => position === -1)) {
    return { kind: 'error', reason: 'batchItemFailures names a record that is not in the batch' };
  }
  return { kind: 'partial', from: Math.min(...positions), reason: 'batchItemFailures' };
}

function discardedBatch(
  shardId: string,
  streamArn: string,
  records: readonly DynamoDBRecord[],
  invocations: number,
  reason: string,
): DiscardedBatch {
  const first = records[0]?.dynamodb;
  const last = records.at(-1)?.dynamodb;
  const arrival = (seconds: number | undefined) => new Date((seconds ?? 0) * 1000).toISOString();
  return {
    requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: invocations },
    responseContext: { functionError: reason },
    DDBStreamBatchInfo: {
      shardId,
      startSequenceNumber: first?.SequenceNumber ?? '',
      endSequenceNumber: last?.SequenceNumber ?? '',
      approximateArrivalOfFirstRecord: arrival(first?.ApproximateCreationDateTime),
      approximateArrivalOfLastRecord: arrival(last?.ApproximateCreationDateTime),
      batchSize: records.length,
      streamArn,
    },
  };
}

/**
 * A stream record as Lambda hands it over: JSON, so binary values are base64 and the creation time
 * is in seconds since the epoch; absent parts (an INSERT's old image) stay absent.
 */
export function lambdaRecord(record: SdkRecord, streamArn: string): DynamoDBRecord {
  const change = record.dynamodb ?? {};
  const dynamodb: NonNullable<DynamoDBRecord['dynamodb']> = {};
  if (change.ApproximateCreationDateTime !== undefined) {
    dynamodb.ApproximateCreationDateTime = change.ApproximateCreationDateTime.getTime() / 1000;
  }
  if (change.Keys !== undefined) dynamodb.Keys = lambdaImage(change.Keys);
  if (change.NewImage !== undefined) dynamodb.NewImage = lambdaImage(change.NewImage);
  if (change.OldImage !== undefined) dynamodb.OldImage = lambdaImage(change.OldImage);
  if (change.SequenceNumber !== undefined) dynamodb.SequenceNumber = change.SequenceNumber;
  if (change.SizeBytes !== undefined) dynamodb.SizeBytes = change.SizeBytes;
  if (change.StreamViewType !== undefined) dynamodb.StreamViewType = change.StreamViewType;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: localStage.region,
    dynamodb,
    eventSourceARN: streamArn,
    ...(record.userIdentity === undefined ? {} : { userIdentity: record.userIdentity }),
  };
}

function lambdaImage(image: Record<string, SdkAttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, lambdaValue(value)]));
}

function lambdaValue(value: SdkAttributeValue): AttributeValue {
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.SS !== undefined) return { SS: value.SS };
  if (value.NS !== undefined) return { NS: value.NS };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.M !== undefined) return { M: lambdaImage(value.M) };
  if (value.L !== undefined) return { L: value.L.map(lambdaValue) };
  throw new Error(`unknown attribute value type: ${Object.keys(value).join(', ')}`);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
