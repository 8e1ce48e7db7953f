import { fanOutStreamRecords, type StreamDeps } from '../../../lib/domain/events/fan-out';
import type { DeliveryQueue } from '../../../lib/domain/events/ports';
import { messages } from '../../../lib/messages';
import { parseKeptBatch, UnreadableKeptBatchError, type KeptBatchSource } from '../kept-stream-batches';

/**
 * `stream replay` (docs/operations.md, alarm StreamFailures): the stream batches the mapping gave
 * up, kept whole in its S3 on-failure destination (or one such record in a file), fanned out again
 * by the stream handler's own code.
 *
 * Input: the kept batches, one by one. Output: what became of each, and the totals.
 * 1. The kept invocation record read (metadata and payload, the stream records as Lambda handed
 *    them over); an unreadable one is reported and left in place.
 * 2. Its records fanned out as the stream handler does (`fanOutStreamRecords`): event and delivery
 *    ids are derived from the write and deliveries put only if absent, so a batch replayed twice,
 *    or whose first records went through before it was given up, puts nothing twice, and queues a
 *    first attempt only for a delivery never attempted.
 * 3. Fanned out completely: removed from the bucket (a file is the operator's and stays). A
 *    failure leaves it where it was, for a run once the cause is fixed.
 */

export type ReplayedBatch = {
  /** `s3://bucket/key`, or the file's path. */
  source: string;
  outcome: 'replayed' | 'failed' | 'unreadable';
  /** Why Lambda gave it up (`RetryAttemptsExhausted`, `RecordAgeExceeded`…); null when unreadable. */
  condition: string | null;
  /** Stream records in the batch (0 when unreadable). */
  records: number;
  /** First attempts queued: deliveries created, or found never attempted. */
  queued: number;
  removed: boolean;
  /** French, for the operator; null when replayed. */
  error: string | null;
};

export type StreamReplayReport = { batches: ReplayedBatch[]; replayed: number; failed: number };

/** The fan-out's queue, counting the messages it is given. */
function countingQueue(queue: DeliveryQueue): { queue: DeliveryQueue; sent: () => number } {
  let sent = 0;
  return {
    queue: {
      send: async (batch) => {
        await queue.send(batch);
        sent += batch.length;
      },
    },
    sent: () => sent,
  };
}

async function replayOne(deps: StreamDeps, kept: KeptBatchSource): Promise<ReplayedBatch> {
  const unreadable = (error: string): ReplayedBatch => ({
    source: kept.source,
    outcome: 'unreadable',
    condition: null,
    records: 0,
    queued: 0,
    removed: false,
    error,
  });
  let batch;
  try {
    batch = parseKeptBatch(await kept.read());
  } catch (error) {
    if (error instanceof UnreadableKeptBatchError) return unreadable(error.message);
    throw error;
  }
  const counted = countingQueue(deps.queue);
  const { failedSequenceNumber } = await fanOutStreamRecords({ ...deps, queue: counted.queue }, batch.records);
  const replayed = { source: kept.source, condition: batch.condition, records: batch.records.length };
  if (failedSequenceNumber !== undefined) {
    return {
      ...replayed,
      outcome: 'failed',
      queued: counted.sent(),
      removed: false,
      error: messages.admin.streamReplay.fanOutFailed(failedSequenceNumber),
    };
  }
  await kept.remove?.();
  return { ...replayed, outcome: 'replayed', queued: counted.sent(), removed: kept.remove !== undefined, error: null };
}

export async function replayKeptBatches(
  deps: StreamDeps,
  batches: AsyncIterable<KeptBatchSource> | Iterable<KeptBatchSource>,
): Promise<StreamReplayReport> {
  const report: StreamReplayReport = { batches: [], replayed: 0, failed: 0 };
  for await (const kept of batches) {
    const replayed = await replayOne(deps, kept);
    if (replayed.outcome === 'replayed') report.replayed += 1;
    else report.failed += 1;
    report.batches.push(replayed);
  }
  return report;
}
