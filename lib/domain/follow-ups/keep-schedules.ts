import { writeFollowUpSchedule, type ScheduleChange } from '../../storage/follow-up-schedule';
import type { StoredChange } from '../../storage/stream-records';
import { errorFields, logger } from '../../observability';
import { followUpDueSettings } from './follow-up-settings';
import type { FollowUpDeps, FollowUpDueMessage } from './ports';
import { delayUntil } from './queue-delay';
import { scheduleChangeOf } from './schedule-of-change';

/**
 * Within this much of now, a follow-up just scheduled is queued at once: the sweep may already have queued its
 * minutes (it queues `horizonSeconds` ahead, a minute more covers the two clocks' difference). Later times wait for
 * the sweep, which reaches them before they fall due.
 */
const queuedAtOnceWithinSeconds = followUpDueSettings.horizonSeconds + 60;

/**
 * The stream handler's step that keeps each prospect's follow-up schedule in step with its `next_follow_up_at`
 * (docs/events.md, "Follow-ups falling due"): moved, cancelled, undone, set by any route. The batch's schedule writes
 * run at once, each conditional on the prospect's version (so their order does not matter); a follow-up due within
 * minutes is queued at once, with the delay to its second. Answers the indexes of the changes that failed, which the
 * stream handler gets again: every step is idempotent.
 */
export async function keepFollowUpSchedules(deps: FollowUpDeps, changes: readonly StoredChange[]): Promise<number[]> {
  const asked = changes.flatMap((change, index) => {
    const schedule = scheduleChangeOf(change);
    return schedule ? [{ index, schedule }] : [];
  });
  const failed: number[] = [];
  const soon: { index: number; schedule: ScheduleChange & { followUpAt: string } }[] = [];
  await Promise.all(
    asked.map(async ({ index, schedule }) => {
      try {
        const written = await writeFollowUpSchedule(deps, schedule);
        const { followUpAt } = schedule;
        if (written && followUpAt !== null && isSoon(followUpAt, deps.clock()))
          soon.push({ index, schedule: { ...schedule, followUpAt } });
      } catch (error) {
        failed.push(index);
        logger.error('Rappels : échéance non enregistrée', {
          workspace_id: schedule.workspaceId,
          ...errorFields(error),
        });
      }
    }),
  );
  if (soon.length > 0) {
    const now = deps.clock();
    try {
      await deps.followUpQueue.send(
        soon.map(({ schedule }) => ({
          message: messageOf(schedule),
          delaySeconds: delayUntil(Date.parse(schedule.followUpAt), now),
        })),
      );
    } catch (error) {
      failed.push(...soon.map(({ index }) => index));
      logger.error('Rappels : mise en file impossible', errorFields(error));
    }
  }
  logger.debug('follow-up schedules kept', { asked: asked.length, queued: soon.length, failed: failed.length });
  return failed;
}

const isSoon = (followUpAt: string, now: Date): boolean =>
  Date.parse(followUpAt) - now.getTime() < queuedAtOnceWithinSeconds * 1000;

const messageOf = (schedule: ScheduleChange & { followUpAt: string }): FollowUpDueMessage => ({
  workspace_id: schedule.workspaceId,
  prospect_id: schedule.prospectId,
  follow_up_at: schedule.followUpAt,
});
