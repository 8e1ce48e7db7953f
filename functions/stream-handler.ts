import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { fanOut } from '../lib/domain/events/fan-out';
import type { EventDeps } from '../lib/domain/events/ports';
import { productionEventDeps } from '../lib/event-deps';
import { errorFields, logger, observeInvocation } from '../lib/observability/logger';
import { storedChangeOf, type StoredChange } from '../lib/storage/stream-records';

/**
 * The fan-out function, fed by the table's change stream (prospect and candidate partitions only:
 * `streamFilters` in lib/routes.ts). With ReportBatchItemFailures, the one sequence number answered
 * is the record Lambda retries from; the records before it are done (AWS Lambda, "Configuring
 * partial batch response with DynamoDB and Lambda"). A record that cannot be read is answered as
 * failed, so that it ends in the mapping's on-failure destination rather than being skipped silently.
 * No request id here: its lines carry no correlation id, only counts and ids.
 */
export const createHandler =
  (deps: EventDeps) =>
  (event: DynamoDBStreamEvent, context?: Context): Promise<DynamoDBBatchResponse> =>
    observeInvocation(deps.metrics, { context }, async () => {
      const changes: StoredChange[] = [];
      let unreadable: string | undefined;
      for (const record of event.Records) {
        try {
          changes.push(storedChangeOf(record));
        } catch (error) {
          logger.error('Enregistrement du flux illisible', { event_id: record.eventID ?? '', ...errorFields(error) });
          // An empty identifier fails the whole batch (same page of the AWS documentation).
          unreadable = record.dynamodb?.SequenceNumber ?? '';
          break;
        }
      }
      logger.debug('stream batch received', { records: event.Records.length, readable: changes.length });
      const { failedSequenceNumber } = await fanOut(deps, changes);
      const failed = failedSequenceNumber ?? unreadable;
      return { batchItemFailures: failed === undefined ? [] : [{ itemIdentifier: failed }] };
    });

export const handler = createHandler(productionEventDeps());
