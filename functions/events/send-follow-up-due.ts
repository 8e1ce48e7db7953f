import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { FollowUpDeps } from '../../lib/domain/follow-ups/ports';
import { parseFollowUpDueMessage, sendFollowUpDue } from '../../lib/domain/follow-ups/send-follow-up-due';
import { productionFollowUpDeps } from '../../lib/follow-up-deps';
import { errorFields, logger, observeInvocation } from '../../lib/observability';

/**
 * The send of follow-ups falling due, fed by the follow-up queue (batch size 10): each message's follow-up marked sent
 * once its time has come, which the change stream turns into `prospect.follow_up_due`. With ReportBatchItemFailures,
 * only the messages named in `batchItemFailures` return to the queue; a body that is not a follow-up message is
 * dropped, since no retry can fix it. Its lines carry ids only.
 */
export const createHandler =
  (deps: FollowUpDeps) =>
  (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    observeInvocation(deps.metrics, { context }, async () => {
      const failed = await Promise.all(event.Records.map((record) => handleRecord(deps, record)));
      return {
        batchItemFailures: event.Records.flatMap((record, index) =>
          failed[index] ? [{ itemIdentifier: record.messageId }] : [],
        ),
      };
    });

/** True when the message must be received again. */
async function handleRecord(deps: FollowUpDeps, record: SQSRecord): Promise<boolean> {
  const message = parseFollowUpDueMessage(record.body);
  if (!message) {
    logger.error('Message de rappel illisible : ignoré', { message_id: record.messageId });
    return false;
  }
  try {
    const outcome = await sendFollowUpDue(deps, message);
    logger.debug('follow-up message handled', { workspace_id: message.workspace_id, outcome });
    return false;
  } catch (error) {
    logger.error('Rappel interrompu : le message sera reçu de nouveau', {
      message_id: record.messageId,
      workspace_id: message.workspace_id,
      ...errorFields(error),
    });
    return true;
  }
}

export const handler = createHandler(productionFollowUpDeps());
