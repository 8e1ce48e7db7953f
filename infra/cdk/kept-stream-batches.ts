/**
 * Where Lambda writes every stream batch the change stream's event source mapping gave up, in the mapping's S3
 * on-failure destination: objects named `aws/lambda/<ESM-UUID>/<shardID>/YYYY/MM/DD/…` ("Retain discarded records
 * for a DynamoDB event source in Lambda", https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html).
 * The stack grants the stream handler this prefix alone; the command line lists it (tools/admin/kept-stream-batches.ts).
 */
export const keptBatchPrefix = 'aws/lambda/';
