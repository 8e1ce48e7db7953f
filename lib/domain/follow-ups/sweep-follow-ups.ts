import { advanceFollowUpClock, listWaitingFollowUps, readFollowUpClock } from '../../storage/follow-up-schedule';
import { logger } from '../../observability';
import { followUpDueSettings } from './follow-up-settings';
import type { FollowUpDeps } from './ports';
import { delayUntil } from './queue-delay';

/** What one run of the follow-up sweep did. */
export type FollowUpSweepOutcome = { from: string; to: string; queued: number };

/**
 * The follow-up sweep (docs/adr/0018-follow-up-due-from-a-minute-sweep-and-queue-delays.md), every minute on AWS and
 * every 5 seconds in `npm start`: each follow-up waiting for a time from where the last run stopped (its clock) to
 * `horizonSeconds` from now is queued with the delay to its second; then the clock moves to that end. A follow-up
 * missed while nothing ran (an outage, the service stopped) is queued at once, if at most `sendWithinSeconds` old:
 * older ones are never sent. A run that fails leaves the clock, so the next one queues the same minutes again; two
 * runs at once queue the same follow-ups twice: the send sends each one once (`markFollowUpSent`).
 */
export async function sweepFollowUps(deps: FollowUpDeps): Promise<FollowUpSweepOutcome> {
  const now = deps.clock();
  const clock = await readFollowUpClock(deps);
  const oldest = new Date(now.getTime() - followUpDueSettings.sendWithinSeconds * 1000).toISOString();
  const from = clock !== undefined && clock > oldest ? clock : oldest;
  const to = new Date(now.getTime() + followUpDueSettings.horizonSeconds * 1000).toISOString();
  if (from >= to) return { from, to, queued: 0 };
  const waiting = await listWaitingFollowUps(deps, from, to);
  if (waiting.length > 0) {
    await deps.followUpQueue.send(
      waiting.map((followUp) => ({
        message: { workspace_id: followUp.workspace_id, prospect_id: followUp.id, follow_up_at: followUp.gsi4sk },
        delaySeconds: delayUntil(Date.parse(followUp.gsi4sk), now),
      })),
    );
  }
  await advanceFollowUpClock(deps, to);
  deps.metrics.count('FollowUpsQueued', undefined, waiting.length);
  logger.debug('follow-ups swept', { from, to, queued: waiting.length });
  return { from, to, queued: waiting.length };
}
