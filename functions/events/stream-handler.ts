import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { fanOutStreamRecords, type StreamDeps } from '../../lib/domain/events/fan-out';
import { productionEventDeps } from '../../lib/event-deps';
import { productionFollowUpQueue } from '../../lib/follow-up-deps';
import { observeInvocation } from '../../lib/observability';

/**
 * The fan-out function, fed by the table's change stream (prospect, candidate and follow-up schedule partitions only:
 * `streamFilters` in lib/routes.ts): the events' deliveries, and the follow-up schedules kept in step. With ReportBatchItemFailures, the one sequence number answered
 * is the record Lambda retries from; the records before it are done (AWS Lambda, "Configuring
 * partial batch response with DynamoDB and Lambda"). A batch still failing after the mapping's
 * retries is kept whole in its on-failure bucket, for `admin stream replay`.
 * No request id here: its lines carry no correlation id, only counts and ids.
 */
export const createHandler =
  (deps: StreamDeps) =>
  (event: DynamoDBStreamEvent, context?: Context): Promise<DynamoDBBatchResponse> =>
    observeInvocation(deps.metrics, { context }, async () => {
      const { failedSequenceNumber: failed } = await fanOutStreamRecords(deps, event.Records);
      return { batchItemFailures: failed === undefined ? [] : [{ itemIdentifier: failed }] };
    });

export const handler = createHandler({ ...productionEventDeps(), followUpQueue: productionFollowUpQueue() });
