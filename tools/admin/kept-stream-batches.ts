import { DeleteObjectCommand, GetObjectCommand, paginateListObjectsV2, S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { keptBatchPrefix } from '../../infra/cdk/kept-stream-batches';
import { messages } from '../../lib/messages';

/**
 * The stream batches the change stream's event source mapping gave up (retries exhausted, or
 * records too old), as Lambda keeps them in the mapping's S3 on-failure destination ("Retain
 * discarded records for a DynamoDB event source in Lambda",
 * https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html, "Example Amazon S3
 * invocation record"): one object per batch, the invocation record's metadata (`requestContext`,
 * `responseContext`, `DDBStreamBatchInfo`…) and `payload`, "the original invocation record as an
 * escaped JSON string", the function's event `{ "Records": [...] }`. Objects are named
 * `aws/lambda/<ESM-UUID>/<shardID>/YYYY/MM/DD/YYYY-MM-DDTHH.MM.SS-<Random UUID>` (same page).
 */

const batchInfoSchema = z.object({
  shardId: z.string(),
  startSequenceNumber: z.string(),
  endSequenceNumber: z.string(),
  batchSize: z.number(),
});

const invocationRecordSchema = z.object({
  requestContext: z.object({ condition: z.string() }),
  timestamp: z.string(),
  DDBStreamBatchInfo: batchInfoSchema,
  payload: z.string(),
});

/** The stream records are read one by one by the fan-out (lib/storage/stream-records.ts): objects here. */
const payloadSchema = z.object({ Records: z.array(z.record(z.string(), z.unknown())) });

export type KeptBatch = {
  /** Why Lambda gave the batch up: `RetryAttemptsExhausted`, `RecordAgeExceeded`… */
  condition: string;
  /** When it did (ISO 8601). */
  keptAt: string;
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  records: DynamoDBRecord[];
};

/** Thrown for a text that is not an invocation record of a DynamoDB stream batch with its payload. */
export class UnreadableKeptBatchError extends Error {
  override readonly name = 'UnreadableKeptBatchError';
}

const text = messages.admin.streamReplay;

const parsedJson = (json: string, part: string): unknown => {
  try {
    return JSON.parse(json);
  } catch {
    throw new UnreadableKeptBatchError(text.unreadable(part, text.notJson));
  }
};

const missingFields = (error: { issues: readonly { path: readonly PropertyKey[] }[] }): string =>
  text.missingFields(error.issues.map((issue) => issue.path.map(String).join('.') || '.').join(', '));

/** One kept invocation record, read; UnreadableKeptBatchError names what is missing (French). */
export function parseKeptBatch(json: string): KeptBatch {
  const record = invocationRecordSchema.safeParse(parsedJson(json, text.invocationRecord));
  if (!record.success)
    throw new UnreadableKeptBatchError(text.unreadable(text.invocationRecord, missingFields(record.error)));
  const payload = payloadSchema.safeParse(parsedJson(record.data.payload, text.payload));
  if (!payload.success) throw new UnreadableKeptBatchError(text.unreadable(text.payload, missingFields(payload.error)));
  const info = record.data.DDBStreamBatchInfo;
  return {
    condition: record.data.requestContext.condition,
    keptAt: record.data.timestamp,
    shardId: info.shardId,
    startSequenceNumber: info.startSequenceNumber,
    endSequenceNumber: info.endSequenceNumber,
    records: payload.data.Records as DynamoDBRecord[],
  };
}

/** One kept batch to replay: where it comes from, its text, and how it is removed once handled (if it is). */
export type KeptBatchSource = { source: string; read: () => Promise<string>; remove?: () => Promise<void> };

/**
 * One client for the command's run, with explicit timeouts like the table's (lib/storage/client.ts):
 * a kept object is a few hundred kilobytes at most (a batch of 100 records).
 */
export function createS3Client(region: string | undefined): S3Client {
  return new S3Client({
    region,
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 2000, requestTimeout: 15_000, throwOnRequestTimeout: true },
  });
}

/**
 * Access pattern "kept batches of the bucket", oldest first within a shard (ListObjectsV2 lists
 * keys in UTF-8 binary order, and the key's date follows the shard: "ListObjectsV2", Amazon S3 API
 * Reference, https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html), page by page.
 * Each is read by GetObject and removed by DeleteObject: in a versioned bucket a delete marker,
 * the data itself going with the noncurrent version at the bucket's lifecycle.
 */
export async function* keptBatchesInBucket(client: S3Client, bucket: string): AsyncGenerator<KeptBatchSource> {
  for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: keptBatchPrefix })) {
    for (const { Key: key } of page.Contents ?? []) {
      if (key === undefined) continue;
      yield {
        source: `s3://${bucket}/${key}`,
        read: async () => {
          const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
          if (!Body) throw new UnreadableKeptBatchError(text.unreadable(text.invocationRecord, text.emptyObject));
          return Body.transformToString('utf8');
        },
        remove: async () => {
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
        },
      };
    }
  }
}
