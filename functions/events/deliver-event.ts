import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { handleDeliveryMessage, parseDeliveryMessage } from '../../lib/domain/events/deliver';
import type { DeliveryDeps } from '../../lib/domain/events/ports';
import { productionDeliveryDeps } from '../../lib/event-deps';
import { errorFields, logger, observeInvocation } from '../../lib/observability';

/**
 * The delivery function, fed by the delivery queue (batch size 10). The messages of a batch run
 * concurrently: a receiver that takes its 10 s delays no other. With ReportBatchItemFailures, only
 * the messages named in `batchItemFailures` return to the queue ("Handling errors for an SQS event
 * source in Lambda"); a body that is not a delivery message is dropped, since no retry can fix it.
 * No request id here: its lines carry no correlation id, only counts and ids.
 */
export const createHandler =
  (deps: DeliveryDeps) =>
  (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    observeInvocation(deps.metrics, { context }, async () => {
      const outcomes = await Promise.all(event.Records.map((record) => handleRecord(deps, record)));
      const batchItemFailures = outcomes.flatMap((failed, index) =>
        failed ? [{ itemIdentifier: event.Records[index]?.messageId ?? '' }] : [],
      );
      logger.debug('delivery batch handled', { messages: event.Records.length, retried: batchItemFailures.length });
      return { batchItemFailures };
    });

/** True when the message must be received again. */
async function handleRecord(deps: DeliveryDeps, record: SQSRecord): Promise<boolean> {
  const message = parseDeliveryMessage(record.body);
  if (!message) {
    logger.error('Message de livraison illisible : ignoré', { message_id: record.messageId });
    return false;
  }
  try {
    await handleDeliveryMessage(deps, message);
    return false;
  } catch (error) {
    logger.error('Livraison interrompue : le message sera reçu de nouveau', {
      message_id: record.messageId,
      workspace_id: message.workspace_id,
      delivery_id: message.delivery_id,
      ...errorFields(error),
    });
    return true;
  }
}

export const handler = createHandler(productionDeliveryDeps());
