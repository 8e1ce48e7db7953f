import type { StoredChange } from '../../storage/stream-records';
import type { ScheduleChange } from '../../storage/follow-up-schedule';
import { isProspectItem } from '../events/events-of-change';

/**
 * What one write of a prospect asks of its follow-up schedule (docs/events.md, "Follow-ups falling due"): nothing when
 * its `next_follow_up_at` did not change; else to wait for the new time, or for nothing when the follow-up was
 * cancelled, or set to a time already past when it was written (its `updated_at`): such a time is never sent. Every
 * change of a prospect raises its version, which orders the writes to the schedule whatever order they are read in.
 * An erased prospect's schedule goes with it (docs/data-model.md).
 */
export function scheduleChangeOf(change: StoredChange): ScheduleChange | undefined {
  const { before, after } = change;
  if (change.eventName === 'REMOVE' || !after || !isProspectItem(after, change.pk)) return undefined;
  const previous = before && isProspectItem(before, change.pk) ? before : undefined;
  if (previous && previous.version === after.version) return undefined;
  const followUpAt = after.next_follow_up_at;
  if (followUpAt === (previous?.next_follow_up_at ?? null)) return undefined;
  const waited = followUpAt !== null && Date.parse(followUpAt) > Date.parse(after.updated_at) ? followUpAt : null;
  if (waited === null && !previous?.next_follow_up_at) return undefined;
  return { workspaceId: after.workspace_id, prospectId: after.id, version: after.version, followUpAt: waited };
}
