import type { SecretsDeps } from '../../lib/deps';
import type { DeliveryDeps, EventDeps } from '../../lib/domain/events/ports';
import { changeStreamSettings, deliveryQueueSettings, sweepSettings } from '../../lib/domain/events/queue-settings';
import type { SweepOutcome } from '../../lib/domain/events/sweep';
import { createHttpSender } from '../../lib/outbound/http-sender';
import { eventFunctions } from '../../lib/routes';
import { LocalQueue, localDeliveryQueue, startConsumer } from './local-queue';
import { startStreamPoller, type DiscardedBatch, type StreamPollerOptions } from './stream-poller';

/**
 * Outbound events in `npm start` (docs/architecture.md, "Local runtime of outbound events"): the same
 * stream handler and delivery function as on AWS, built with local dependencies, fed by a poller of
 * DynamoDB Local's stream and by an in-process stand-in of the delivery queue and its dead-letter queue.
 */

export type EventPipeline = {
  queue: LocalQueue;
  deadLetters: LocalQueue;
  /** Every write made before the call has been through the stream handler. */
  caughtUp: () => Promise<void>;
  /** No delivery message visible and none in flight (delayed ones may remain). */
  idle: () => Promise<void>;
  /** One run of the sweep now, as its timer runs it every `sweepSettings.intervalMinutes`. */
  sweep: () => Promise<SweepOutcome>;
  stop: () => Promise<void>;
};

export type EventPipelineOptions = {
  /** With the signing-secrets table, which only the delivery function is given, as on AWS. */
  deps: SecretsDeps;
  endpoint: string;
  tableName?: string;
  /** The queue's clock, in milliseconds; by default that of `deps`, so a test's clock drives delays too. */
  clock?: () => number;
  startingPosition?: StreamPollerOptions['startingPosition'];
  /** A stream batch given up after its retries (on AWS: the on-failure destination). */
  onDiscarded?: (discarded: DiscardedBatch) => void;
};

export async function startEventPipeline(options: EventPipelineOptions): Promise<EventPipeline> {
  const { deps } = options;
  const now = options.clock ?? (() => deps.clock().getTime());
  const deadLetters = new LocalQueue({
    name: 'crm-local-deliveries-dlq',
    visibilityTimeoutSeconds: deliveryQueueSettings.visibilityTimeoutSeconds,
    now,
  });
  const queue = new LocalQueue({
    name: 'crm-local-deliveries',
    visibilityTimeoutSeconds: deliveryQueueSettings.visibilityTimeoutSeconds,
    now,
    redrive: { deadLetters, maxReceiveCount: deliveryQueueSettings.maxReceiveCount },
  });
  const { secretsTableName, ...shared } = deps;
  const eventDeps: EventDeps = {
    ...shared,
    queue: localDeliveryQueue(queue),
    send: createHttpSender('local'),
    network: 'local',
  };
  const deliveryDeps: DeliveryDeps = { ...eventDeps, secretsTableName };

  // Each function module also builds its AWS handler when imported, as on a cold start, which reads
  // the queue's URL from the environment: the stand-in's, though only the handlers built below run.
  process.env.DELIVERY_QUEUE_URL ||= queue.url;
  const streamHandler = (await import('../../functions/stream-handler')).createHandler(eventDeps);
  const deliverEvent = (await import('../../functions/deliver-event')).createHandler(deliveryDeps);
  const sweepDeliveries = (await import('../../functions/sweep-deliveries')).createHandler(eventDeps);

  const poller = await startStreamPoller({
    endpoint: options.endpoint,
    tableName: options.tableName ?? deps.tableName,
    handler: (event) => streamHandler(event),
    startingPosition: options.startingPosition ?? 'LATEST',
    filters: eventFunctions.find((eventFunction) => eventFunction.id === 'streamHandler')?.streamFilters,
    batchSize: changeStreamSettings.batchSize,
    maxRetryAttempts: changeStreamSettings.maxRetryAttempts,
    onFailure: options.onDiscarded ?? ((discarded) => console.error(discardedLine(discarded))),
  });
  const consumer = startConsumer(queue, (event) => deliverEvent(event), { batchSize: deliveryQueueSettings.batchSize });
  // The in-memory queue loses its messages when `npm start` stops: the sweep queues again, after
  // a restart, the deliveries they were for (and those `admin stream replay` puts locally).
  const sweep = () => sweepDeliveries({});
  const sweepTimer = setInterval(
    () =>
      void sweep().catch((error: unknown) =>
        console.error(`Balayage des livraisons impossible : ${error instanceof Error ? error.message : String(error)}`),
      ),
    sweepSettings.intervalMinutes * 60_000,
  );
  sweepTimer.unref();

  return {
    queue,
    deadLetters,
    caughtUp: () => poller.caughtUp(),
    idle: () => consumer.idle(),
    sweep,
    stop: async () => {
      clearInterval(sweepTimer);
      await poller.stop();
      await consumer.stop();
    },
  };
}

/** One line, no record content (personal data): where to read the lost range back from the stream. */
function discardedLine({ DDBStreamBatchInfo: batch, responseContext }: DiscardedBatch): string {
  return (
    `Événements abandonnés après ${changeStreamSettings.maxRetryAttempts} nouvelles tentatives : ` +
    `${batch.batchSize} enregistrement(s) du flux, fragment ${batch.shardId}, ` +
    `séquences ${batch.startSequenceNumber} à ${batch.endSequenceNumber} (${responseContext.functionError})`
  );
}
