import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { handleDeliveryMessage, parseDeliveryMessage } from '../lib/domain/events/deliver';
import type { EventDeps } from '../lib/domain/events/ports';
import { productionEventDeps } from '../lib/event-deps';
import { logError } from '../lib/log';

/**
 * The delivery function, fed by the delivery queue (batch size 10). The messages of a batch run
 * concurrently: a receiver that takes its 10 s delays no other. With ReportBatchItemFailures, only
 * the messages named in `batchItemFailures` return to the queue ("Handling errors for an SQS event
 * source in Lambda"); a body that is not a delivery message is dropped, since no retry can fix it.
 */
export const createHandler =
  (deps: EventDeps) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const outcomes = await Promise.all(event.Records.map((record) => handleRecord(deps, record)));
    return {
      batchItemFailures: outcomes.flatMap((failed, index) =>
        failed ? [{ itemIdentifier: event.Records[index]?.messageId ?? '' }] : [],
      ),
    };
  };

/** True when the message must be received again. */
async function handleRecord(deps: EventDeps, record: SQSRecord): Promise<boolean> {
  const message = parseDeliveryMessage(record.body);
  if (!message) {
    logError('Message de livraison illisible : ignoré', undefined, { message_id: record.messageId });
    return false;
  }
  try {
    await handleDeliveryMessage(deps, message);
    return false;
  } catch (error) {
    logError('Livraison interrompue : le message sera reçu de nouveau', error, {
      message_id: record.messageId,
      workspace_id: message.workspace_id,
      delivery_id: message.delivery_id,
    });
    return true;
  }
}

export const handler = createHandler(productionEventDeps());
