import { queueRedelivery } from '../../../lib/settings/redeliveries';
import { productionDeps, type Deps, loadConfig } from '../../../lib/storage/client';
import type { DeliveryMessage, DeliveryQueue } from '../../../lib/domain/events/ports';
import { settingsRoute, membershipOf } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { pathIdOf } from '../../../lib/http/request-input';
import { messages } from '../../../lib/messages';
import { createSqsClient, createSqsQueue, loadDeliveryQueueUrl } from '../../../lib/queue/sqs-queue';
import { routeById } from '../../../lib/routes';

/** The delivery queue (SQS on AWS, `npm start`'s own in-process queue locally): the delivery function signs and sends. */
export type RedeliverDeps = Deps & { queue: DeliveryQueue };

export const createHandler = (deps: RedeliverDeps) =>
  settingsRoute(routeById('redeliverDelivery'), deps, async (event, { principal }) => {
    const { workspaceId, memberId } = membershipOf(principal);
    const id = pathIdOf(event, 'delivery_id', messages.settingsEvents.deliveryNotFound);
    return json(202, await queueRedelivery(deps, workspaceId, id, memberId));
  });

const config = loadConfig();
export const handler = createHandler({
  ...productionDeps(config),
  queue: createSqsQueue<DeliveryMessage>(createSqsClient(config.region), loadDeliveryQueueUrl()),
});
