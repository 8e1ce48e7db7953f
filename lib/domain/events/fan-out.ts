import type { DynamoDBRecord } from 'aws-lambda';
import { derivedTimeOrderedId, type ItemKey } from '../../storage/table-items';
import { sameKey, type StoredItem } from '../../storage/client';
import { eventItems, type DeliveryItem, type SubscriptionItem } from '../../storage/event-items';
import {
  createDeliveryIfAbsent,
  readRecords,
  readWorkspaceEventContext,
  type WorkspaceEventContext,
} from '../../storage/fan-out';
import { errorFields, logger } from '../../observability';
import { storedChangeOf, type StoredChange } from '../../storage/stream-records';
import type { EventType, OutboundEvent } from './event-types';
import { eventsOfChange, subjectOfChange, type ChangeSubject } from './events-of-change';
import type { DeliveryMessage, EventDeps } from './ports';
import { keepFollowUpSchedules } from '../follow-ups/keep-schedules';
import type { FollowUpDeps } from '../follow-ups/ports';
import { deliveryRetentionSeconds } from './retry-schedule';

/**
 * One batch of stream records as Lambda hands them over (the stream handler's event, or a batch
 * the mapping gave up and kept, fanned out again by `stream replay`): each record read, then
 * `fanOut`. A record that cannot be read is answered as failed, with the records before it
 * processed, so that it ends in the mapping's on-failure destination rather than being skipped
 * silently. The answer is the sequence number Lambda retries from, if any (ReportBatchItemFailures).
 */
export async function fanOutStreamRecords(
  deps: StreamDeps,
  records: readonly DynamoDBRecord[],
): Promise<{ failedSequenceNumber?: string }> {
  const changes: StoredChange[] = [];
  let unreadable: string | undefined;
  for (const record of records) {
    try {
      changes.push(storedChangeOf(record));
    } catch (error) {
      logger.error('Enregistrement du flux illisible', { event_id: record.eventID ?? '', ...errorFields(error) });
      // An empty identifier fails the whole batch ("Configuring partial batch response with DynamoDB and Lambda").
      unreadable = record.dynamodb?.SequenceNumber ?? '';
      break;
    }
  }
  logger.debug('stream batch received', { records: records.length, readable: changes.length });
  const { failedSequenceNumber } = await fanOut(deps, changes);
  const failed = failedSequenceNumber ?? unreadable;
  return failed === undefined ? {} : { failedSequenceNumber: failed };
}

/** The stream handler's: the events wing's, and the follow-up queue its schedule step sends to. */
export type StreamDeps = EventDeps & Pick<FollowUpDeps, 'followUpQueue'>;

/**
 * One batch of the change stream, in two independent steps run at once: the follow-up schedules kept
 * (lib/domain/follow-ups/keep-schedules.ts), and the events fanned out to deliveries (`fanOutEvents`). The answer is
 * the earliest change either failed on.
 */
export async function fanOut(
  deps: StreamDeps,
  changes: readonly StoredChange[],
): Promise<{ failedSequenceNumber?: string }> {
  const [scheduleFailed, eventsFailed] = await Promise.all([
    keepFollowUpSchedules(deps, changes),
    fanOutEvents(deps, changes),
  ]);
  const failed = [...scheduleFailed, ...eventsFailed];
  const earliest = failed.length === 0 ? undefined : changes[Math.min(...failed)];
  return earliest ? { failedSequenceNumber: earliest.sequenceNumber } : {};
}

/**
 * The fan-out of one batch of the change stream to deliveries (docs/events.md,
 * docs/adr/0010-outbound-events-from-the-change-stream.md).
 *
 * Input: the batch's changes, in stream order. Output: the indexes of the changes whose processing failed: with
 * ReportBatchItemFailures Lambda takes the batch as done up to the earliest and retries from it (AWS Lambda,
 * "Configuring partial batch response with DynamoDB and Lambda"). Every step is idempotent, so the changes after it,
 * processed again, change nothing.
 *
 * 1. What each change is about: its workspace, the types it may make (no read).
 * 2. Per workspace, in parallel, one Query: tag names, custom fields and subscriptions.
 * 3. The prospects and candidates that note events show, for workspaces that want those events.
 * 4. The events; one delivery per event and active subscription of the workspace that lists its
 *    type, put if absent (its id is derived from the event's and the subscription's).
 * 5. One queue message (step 0, at once) per delivery created, and per existing one never sent yet
 *    (pending, no attempt, no claim): the send after its creation may have been lost, and the
 *    delivery function's claim makes a second message harmless.
 */
async function fanOutEvents(deps: EventDeps, changes: readonly StoredChange[]): Promise<number[]> {
  const failed = new Set<number>();
  const fail = (indexes: readonly number[], message: string, error: unknown, workspaceId?: string) => {
    indexes.forEach((index) => failed.add(index));
    logger.error(message, {
      ...(workspaceId === undefined ? {} : { workspace_id: workspaceId }),
      sequence_number: changes[Math.min(...indexes)]?.sequenceNumber ?? '',
      ...errorFields(error),
    });
  };

  const subjects = changes.map((change, index) => ({ index, subject: subjectOfChange(change) }));
  const byWorkspace = new Map<string, number[]>();
  for (const { index, subject } of subjects) {
    if (subject) byWorkspace.set(subject.workspaceId, [...(byWorkspace.get(subject.workspaceId) ?? []), index]);
  }

  const contexts = new Map<string, WorkspaceEventContext>();
  await Promise.all(
    [...byWorkspace].map(async ([workspaceId, indexes]) => {
      try {
        contexts.set(workspaceId, await readWorkspaceEventContext(deps, workspaceId));
      } catch (error) {
        fail(indexes, "Diffusion d'événements : lecture de l'espace impossible", error, workspaceId);
      }
    }),
  );
  const subscribers = (workspaceId: string, type: EventType): SubscriptionItem[] =>
    (contexts.get(workspaceId)?.subscriptions ?? []).filter(
      (subscription) => subscription.active === true && subscription.events.includes(type),
    );
  const wanted = (subject: ChangeSubject): boolean =>
    subject.types.some((type) => subscribers(subject.workspaceId, type).length > 0);

  const toBuild = subjects.flatMap(({ index, subject }) =>
    subject && contexts.has(subject.workspaceId) && wanted(subject) ? [{ index, subject }] : [],
  );
  const records = await readNeededRecords(deps, toBuild, (indexes, error) =>
    fail(indexes, "Diffusion d'événements : lecture des fiches impossible", error),
  );

  const recordAt = (key: ItemKey | undefined) => (key ? records.find((item) => sameKey(item, key)) : undefined);
  const planned: { index: number; delivery: DeliveryItem }[] = [];
  for (const { index, subject } of toBuild) {
    const change = changes[index];
    const context = contexts.get(subject.workspaceId);
    if (!change || !context || failed.has(index)) continue;
    const built = { tags: context.tags, fields: context.fields, record: recordAt(subject.record) };
    for (const event of eventsOfChange(change, built)) {
      const payload = JSON.stringify(event.body);
      for (const subscription of subscribers(subject.workspaceId, event.body.type)) {
        planned.push({ index, delivery: deliveryOf(event, subscription, payload) });
      }
    }
  }

  const messages: { index: number; message: DeliveryMessage }[] = [];
  await Promise.all(
    planned.map(async ({ index, delivery }) => {
      try {
        const outcome = await createDeliveryIfAbsent(deps, delivery);
        const stored = outcome === 'created' ? delivery : outcome.existing;
        if (outcome === 'created' || neverSent(stored)) messages.push({ index, message: firstMessage(stored) });
      } catch (error) {
        fail([index], "Diffusion d'événements : livraison non enregistrée", error, delivery.workspace_id);
      }
    }),
  );

  if (messages.length > 0) {
    try {
      await deps.queue.send(messages.map(({ message }) => ({ message, delaySeconds: 0 })));
    } catch (error) {
      // One send for the batch (the adapter splits it): which of its messages got through is
      // unknown, so every change that queued one is processed again.
      fail(
        messages.map(({ index }) => index),
        "Diffusion d'événements : mise en file impossible",
        error,
      );
    }
  }

  // Counts only: the events carry personal data.
  logger.debug('stream batch fanned out', {
    changes: changes.length,
    workspaces: byWorkspace.size,
    deliveries: planned.length,
    queued: messages.length,
    failed: failed.size,
  });
  return [...failed];
}

/** One BatchGetItem round for the whole batch; if it fails, every change that needed a record fails. */
async function readNeededRecords(
  deps: EventDeps,
  toBuild: readonly { index: number; subject: ChangeSubject }[],
  onFailure: (indexes: number[], error: unknown) => void,
): Promise<StoredItem[]> {
  const needing = toBuild.filter(({ subject }) => subject.record !== undefined);
  const wantedKeys = needing.flatMap(({ subject }) => (subject.record ? [subject.record] : []));
  if (wantedKeys.length === 0) return [];
  try {
    return await readRecords(deps, wantedKeys);
  } catch (error) {
    onFailure(
      needing.map(({ index }) => index),
      error,
    );
    return [];
  }
}

/**
 * The delivery of `event` to `subscription`, created at the time of the write: its id sorts with
 * the write, and the same change processed again builds the very same item.
 */
function deliveryOf(event: OutboundEvent, subscription: SubscriptionItem, payload: string): DeliveryItem {
  const at = event.body.timestamp;
  return eventItems.delivery({
    id: derivedTimeOrderedId(new Date(at), `${event.id}#${subscription.id}`),
    workspace_id: event.workspaceId,
    subscription_id: subscription.id,
    event_id: event.id,
    event_type: event.body.type,
    payload,
    status: 'pending',
    attempts: 0,
    step: 0,
    last_status_code: null,
    last_error: null,
    next_attempt_at: at,
    created_at: at,
    expires_at: Math.floor(Date.parse(at) / 1000) + deliveryRetentionSeconds,
  });
}

const neverSent = (delivery: DeliveryItem): boolean =>
  delivery.status === 'pending' &&
  delivery.attempts === 0 &&
  delivery.step === 0 &&
  delivery.claimed_step === undefined;

const firstMessage = (delivery: DeliveryItem): DeliveryMessage => ({
  workspace_id: delivery.workspace_id,
  delivery_id: delivery.id,
  subscription_id: delivery.subscription_id,
  step: 0,
  not_before: delivery.created_at,
});
