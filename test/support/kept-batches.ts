import { randomUUID } from 'node:crypto';
import type { DynamoDBStreamEvent } from 'aws-lambda';

/**
 * What Lambda writes to the stream mapping's S3 on-failure destination for a batch it gives up,
 * built as the AWS page shows it ("Retain discarded records for a DynamoDB event source in Lambda",
 * https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html, "Example Amazon S3
 * invocation record"): the SQS/SNS record's fields (`requestContext`, `responseContext`, `version`,
 * `timestamp`, `DDBStreamBatchInfo`) and `payload`, "the original invocation record as an escaped
 * JSON string", here the stream handler's event.
 */

export const streamArn = 'arn:aws:dynamodb:eu-west-3:123456789012:table/Crm-test-Table/stream/2026-01-01T00:00:00.000';
export const shardId = 'shardId-00000001573689847184-864758bb';
export const mappingUuid = 'f89f8514-cdd9-4602-9e1f-01a5b77d449b';

/** ISO 8601 to the second, as the page's `approximateArrivalOf…Record` are. */
const toSecond = (at: Date): string => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function aKeptInvocationRecord(
  event: DynamoDBStreamEvent,
  options: { at?: Date; condition?: string; invokeCount?: number } = {},
): string {
  const at = options.at ?? new Date();
  const first = event.Records[0]?.dynamodb;
  const last = event.Records.at(-1)?.dynamodb;
  const arrival = (seconds: number | undefined) => toSecond(new Date((seconds ?? at.getTime() / 1000) * 1000));
  return JSON.stringify({
    requestContext: {
      requestId: randomUUID(),
      functionArn: 'arn:aws:lambda:eu-west-3:123456789012:function:Crm-test-EventsStreamHandler',
      condition: options.condition ?? 'RetryAttemptsExhausted',
      approximateInvokeCount: options.invokeCount ?? 11,
    },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    version: '1.0',
    timestamp: at.toISOString(),
    DDBStreamBatchInfo: {
      shardId,
      startSequenceNumber: first?.SequenceNumber,
      endSequenceNumber: last?.SequenceNumber,
      approximateArrivalOfFirstRecord: arrival(first?.ApproximateCreationDateTime),
      approximateArrivalOfLastRecord: arrival(last?.ApproximateCreationDateTime),
      batchSize: event.Records.length,
      streamArn,
    },
    payload: JSON.stringify(event),
  });
}

/** The object's key: `aws/lambda/<ESM-UUID>/<shardID>/YYYY/MM/DD/YYYY-MM-DDTHH.MM.SS-<Random UUID>` (same page). */
export function aKeptBatchKey(at: Date): string {
  const iso = at.toISOString();
  const day = iso.slice(0, 10);
  return `aws/lambda/${mappingUuid}/${shardId}/${day.replaceAll('-', '/')}/${day}T${iso.slice(11, 19).replaceAll(':', '.')}-${randomUUID()}`;
}
