import { readFile } from 'node:fs/promises';
import { AdminInputError } from '../../../lib/settings/admin-input';
import { replayKeptBatches, type ReplayedBatch } from '../use-cases/stream-replay';
import type { DeliveryMessage, DeliveryQueue } from '../../../lib/domain/events/ports';
import type { StreamDeps } from '../../../lib/domain/events/fan-out';
import type { FollowUpDueMessage, FollowUpQueue } from '../../../lib/domain/follow-ups/ports';
import { messages } from '../../../lib/messages';
import { createHttpSender } from '../../../lib/outbound/http-sender';
import { createSqsClient, createSqsQueue } from '../../../lib/queue/sqs-queue';
import { createS3Client, keptBatchesInBucket, type KeptBatchSource } from '../kept-stream-batches';
import { defineCommand } from '../command';
import type { Target } from '../target';
import { table } from '../render';

const text = messages.admin.streamReplay;

const outcomeWords: Record<ReplayedBatch['outcome'], string> = {
  replayed: 'rejoué',
  failed: 'en échec',
  unreadable: 'illisible',
};

/**
 * Locally the delivery queue lives in `npm start`'s own process, out of this one's reach: the
 * deliveries the replay puts stay pending, their next attempt long past, and the sweep `npm start`
 * runs (tools/local/event-pipeline.ts) queues them. On AWS, the stack's delivery queue.
 */
const leftToTheLocalSweep: DeliveryQueue = { send: async () => undefined };

function deliveryQueueOf(target: Target): DeliveryQueue {
  if (target.network !== 'aws') return leftToTheLocalSweep;
  const queueUrl = target.env.DELIVERY_QUEUE_URL;
  if (!queueUrl) throw new AdminInputError(text.queueMissing);
  return createSqsQueue<DeliveryMessage>(createSqsClient(target.env.AWS_REGION || undefined), queueUrl);
}

/**
 * The follow-ups a replayed batch schedules within minutes are queued at once, as the stream handler does: on AWS on
 * the stack's follow-up queue; locally, out of this process's reach too, they are not sent (the note says so), and
 * later ones wait for `npm start`'s follow-up sweep, which reads the schedules written.
 */
function followUpQueueOf(target: Target): FollowUpQueue {
  if (target.network !== 'aws') return { send: async () => undefined };
  const queueUrl = target.env.FOLLOW_UP_QUEUE_URL;
  if (!queueUrl) throw new AdminInputError(text.followUpQueueMissing);
  return createSqsQueue<FollowUpDueMessage>(createSqsClient(target.env.AWS_REGION || undefined), queueUrl);
}

async function* fileBatch(path: string): AsyncGenerator<KeptBatchSource> {
  let contents: string;
  try {
    contents = await readFile(path, 'utf8');
  } catch (error) {
    throw new AdminInputError(text.unreadableFile(path, error instanceof Error ? error.message : String(error)));
  }
  yield { source: path, read: async () => contents };
}

function keptBatchesOf(target: Target, file: string | undefined): AsyncIterable<KeptBatchSource> {
  if (file !== undefined) return fileBatch(file);
  if (target.network !== 'aws') throw new AdminInputError(text.sourceMissing);
  const bucket = target.env.STREAM_FAILURE_BUCKET;
  if (!bucket) throw new AdminInputError(text.bucketMissing);
  return keptBatchesInBucket(createS3Client(target.env.AWS_REGION || undefined), bucket);
}

export const streamReplayCommand = defineCommand({
  words: ['stream', 'replay'],
  summary:
    "diffuse de nouveau les lots du flux abandonnés par le mapping et gardés dans S3 (--aws : tout le compartiment, chaque lot rejoué en est retiré), ou un enregistrement d'invocation gardé (--file) ; rien n'est livré deux fois",
  options: { file: 'optional' },
  async run(target, { file }) {
    const batches = keptBatchesOf(target, file);
    const deps: StreamDeps = {
      ...target.deps,
      queue: deliveryQueueOf(target),
      followUpQueue: followUpQueueOf(target),
      send: createHttpSender(target.network),
      network: target.network,
    };
    const document = await replayKeptBatches(deps, batches);
    const localNote =
      target.network === 'aws'
        ? []
        : [
            'Les premières tentatives seront mises en file par le balayage de npm start ; les rappels dus dans les prochaines minutes ne seront pas envoyés.',
          ];
    return {
      document,
      text: [
        table(
          ['Lot', 'Résultat', 'Condition', 'Enregistrements', 'Mises en file', 'Retiré', 'Erreur'],
          document.batches.map((batch) => [
            batch.source,
            outcomeWords[batch.outcome],
            batch.condition,
            batch.records,
            batch.queued,
            batch.removed,
            batch.error,
          ]),
          'Aucun lot gardé.',
        ),
        `${document.replayed} lot(s) rejoué(s), ${document.failed} en échec.`,
        ...localNote,
      ].join('\n\n'),
    };
  },
});
