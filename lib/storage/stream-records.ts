import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as StreamAttributeValue, DynamoDBRecord } from 'aws-lambda';

/**
 * One write of the table as the change stream reports it (view type NEW_AND_OLD_IMAGES): its keys,
 * and the item before and after, read as the document client reads items (string sets are
 * `Set<string>`, numbers are numbers). INSERT has no `before`, REMOVE no `after`.
 */
export type StoredChange = {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  /** Identifies the record in Lambda's partial batch response (AWS Lambda, "Configuring partial batch response with DynamoDB and Lambda"). */
  sequenceNumber: string;
  pk: string;
  sk: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
};

/** Thrown for a record that lacks what every stream record carries: it can never be processed. */
export class UnreadableStreamRecordError extends Error {
  override readonly name = 'UnreadableStreamRecordError';
}

/** The change of one Lambda stream record. */
export function storedChangeOf(record: DynamoDBRecord): StoredChange {
  const stream = record.dynamodb;
  const sequenceNumber = stream?.SequenceNumber;
  const pk = stream?.Keys?.pk?.S;
  const sk = stream?.Keys?.sk?.S;
  const { eventName } = record;
  if (!sequenceNumber || pk === undefined || sk === undefined || !eventName) {
    throw new UnreadableStreamRecordError('Stream record without event name, sequence number or keys');
  }
  return {
    eventName,
    sequenceNumber,
    pk,
    sk,
    ...(stream?.OldImage ? { before: unmarshall(sdkImage(stream.OldImage)) } : {}),
    ...(stream?.NewImage ? { after: unmarshall(sdkImage(stream.NewImage)) } : {}),
  };
}

/**
 * Lambda hands stream records over as JSON, the shape of the DynamoDB Streams API's AttributeValue
 * ("AttributeValue", Amazon DynamoDB Streams API Reference): the same as the SDK's but for binary
 * values, base64 text instead of bytes.
 */
function sdkImage(image: Record<string, StreamAttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, sdkValue(value)]));
}

function sdkValue(value: StreamAttributeValue): AttributeValue {
  if (value.B !== undefined) return { B: Buffer.from(value.B, 'base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((item) => Buffer.from(item, 'base64')) };
  if (value.L !== undefined) return { L: value.L.map(sdkValue) };
  if (value.M !== undefined) return { M: sdkImage(value.M) };
  return value;
}
