import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { retryOnTransactionConflict, transactWrite } from './conditional-writes';
import { indexes, keys, type ItemKey } from './table-items';

/*
 * Follow-ups falling due (docs/data-model.md, "Follow-ups falling due";
 * docs/adr/0018-follow-up-due-from-a-minute-sweep-and-queue-delays.md): one schedule item per prospect that ever had
 * a follow-up, kept from the change stream; the sweep's clock; the one write that decides a follow-up is sent.
 */

/**
 * A prospect's follow-up schedule. `follow_up_at`: the time waited for, as the prospect stores it, ISO 8601 UTC with
 * milliseconds as every writer of `next_follow_up_at` stores it, so also the index's sort key (null: none);
 * `prospect_version`: the prospect's version it was written from, so that an older write read late from the stream
 * never replaces a newer one. While it waits, it is in index gsi4 (`gsi4pk`, `gsi4sk`). `sent_for`: the last time
 * sent; the write that sets it is what the change stream turns into the event.
 */
export type FollowUpScheduleItem = ItemKey & {
  type: 'follow_up_schedule';
  workspace_id: string;
  /** The prospect's id (index gsi4 projects `workspace_id` and `id`). */
  id: string;
  follow_up_at: string | null;
  prospect_version: number;
  gsi4pk?: string;
  gsi4sk?: string;
  sent_for?: string;
  sent_at?: string;
  late?: boolean;
};

/** What the stream asks of a prospect's schedule: wait for `followUpAt`, or (null) for nothing. */
export type ScheduleChange = { workspaceId: string; prospectId: string; version: number; followUpAt: string | null };

/**
 * Writes a prospect's schedule from one of its versions, unless a later version already did (false). Waiting: the
 * item created or changed, in index gsi4 at its time. Nothing to wait for: the item, if any, leaves the index; none
 * is created for it.
 */
export async function writeFollowUpSchedule(store: Store, change: ScheduleChange): Promise<boolean> {
  const key = keys.followUpSchedule(change.workspaceId, change.prospectId);
  const waiting = change.followUpAt !== null;
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: key,
        UpdateExpression: waiting
          ? 'SET #type = :type, workspace_id = :ws, id = :id, follow_up_at = :at, prospect_version = :version, gsi4pk = :shard, gsi4sk = :due'
          : 'SET follow_up_at = :at, prospect_version = :version REMOVE gsi4pk, gsi4sk',
        ConditionExpression: waiting
          ? 'attribute_not_exists(pk) OR prospect_version < :version'
          : 'attribute_exists(pk) AND prospect_version < :version',
        ExpressionAttributeNames: waiting ? { '#type': 'type' } : undefined,
        ExpressionAttributeValues: {
          ':at': change.followUpAt,
          ':version': change.version,
          ...(change.followUpAt === null
            ? {}
            : {
                ':type': 'follow_up_schedule' satisfies FollowUpScheduleItem['type'],
                ':ws': change.workspaceId,
                ':id': change.prospectId,
                ':shard': keys.followUpShard(change.prospectId),
                ':due': change.followUpAt,
              }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** A follow-up waiting, as index gsi4 lists it. */
export type WaitingFollowUp = { workspace_id: string; id: string; gsi4sk: string };

/**
 * Access pattern "follow-ups waiting for a time in [from, to)" (index gsi4): one Query per shard, in parallel, each
 * read to its end. Eventually consistent (an index): a follow-up moved a moment ago may be listed at its old time,
 * which the send then refuses.
 */
export async function listWaitingFollowUps(store: Store, from: string, to: string): Promise<WaitingFollowUp[]> {
  const shardPages = await Promise.all(
    keys.followUpShards.map(async (shard) => {
      const found: WaitingFollowUp[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await store.db.send(
          new QueryCommand({
            TableName: store.tableName,
            IndexName: indexes.pendingWorkByTime,
            KeyConditionExpression: 'gsi4pk = :shard AND gsi4sk BETWEEN :from AND :to',
            ExpressionAttributeValues: { ':shard': shard, ':from': from, ':to': to },
            ExclusiveStartKey: start,
          }),
        );
        found.push(...((page.Items ?? []) as WaitingFollowUp[]).filter((item) => item.gsi4sk < to));
        start = page.LastEvaluatedKey;
      } while (start !== undefined);
      return found;
    }),
  );
  return shardPages.flat();
}

/** The follow-up sweep's clock: the time up to which every waiting follow-up was queued (none before the first run). */
export async function readFollowUpClock(store: Store): Promise<string | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.followUpClock, ConsistentRead: true }),
  );
  return typeof Item?.swept_to === 'string' ? Item.swept_to : undefined;
}

/** Moves the clock forward to `to`, never back: two runs at once leave it at the later of their two ends. */
export async function advanceFollowUpClock(store: Store, to: string): Promise<void> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.followUpClock,
        UpdateExpression: 'SET swept_to = :to',
        ConditionExpression: 'attribute_not_exists(swept_to) OR swept_to < :to',
        ExpressionAttributeValues: { ':to': to },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** A follow-up whose time has come, as its queue message names it, and when and how late it is sent. */
export type DueFollowUp = {
  workspaceId: string;
  prospectId: string;
  followUpAt: string;
  sentAt: string;
  late: boolean;
};

/**
 * The one write that decides a follow-up is sent, exactly once per prospect and time: in one transaction, the
 * prospect still holds that `next_follow_up_at` (not moved, cancelled or erased), and its schedule, waiting for that
 * time, records it sent (`sent_for`) and leaves index gsi4. The change stream makes the event of that write. False
 * when a condition did not hold: moved, cancelled, erased, or sent already; then nothing was written.
 */
export async function markFollowUpSent(store: Store, due: DueFollowUp): Promise<boolean> {
  const outcome = await retryOnTransactionConflict(() =>
    transactWrite(store, [
      {
        ConditionCheck: {
          TableName: store.tableName,
          Key: keys.prospect(due.workspaceId, due.prospectId),
          ConditionExpression: 'next_follow_up_at = :at',
          ExpressionAttributeValues: { ':at': due.followUpAt },
        },
      },
      {
        Update: {
          TableName: store.tableName,
          Key: keys.followUpSchedule(due.workspaceId, due.prospectId),
          UpdateExpression: 'SET sent_for = :at, sent_at = :sent, late = :late REMOVE gsi4pk, gsi4sk',
          ConditionExpression: 'follow_up_at = :at AND (attribute_not_exists(sent_for) OR sent_for <> :at)',
          ExpressionAttributeValues: { ':at': due.followUpAt, ':sent': due.sentAt, ':late': due.late },
        },
      },
    ]),
  );
  return outcome.written;
}
