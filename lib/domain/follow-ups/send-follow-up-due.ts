import * as z from 'zod/mini';
import { markFollowUpSent } from '../../storage/follow-up-schedule';
import { followUpDueSettings } from './follow-up-settings';
import type { FollowUpDeps, FollowUpDueMessage } from './ports';
import { delayUntil } from './queue-delay';

/**
 * What became of one follow-up message: `sent` (marked sent: the change stream makes the event), `early` (queued
 * again until its second), `expired` (more than `sendWithinSeconds` past: never sent), `refused` (moved, cancelled,
 * erased, or sent already: nothing written).
 */
export type FollowUpDueOutcome = 'sent' | 'early' | 'expired' | 'refused';

const messageSchema = z.object({
  workspace_id: z.string().check(z.minLength(1)),
  prospect_id: z.string().check(z.minLength(1)),
  follow_up_at: z.iso.datetime(),
});

/** A queue message's body as a follow-up message, or undefined: no retry can make another body one. */
export function parseFollowUpDueMessage(body: string): FollowUpDueMessage | undefined {
  try {
    const parsed = messageSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One follow-up whose message came out of the queue (docs/events.md, "Follow-ups falling due"): never before its
 * time (a message received early, SQS's delay being at most 15 minutes or a clock ahead, goes back with the delay
 * left), never more than `sendWithinSeconds` after it, `late` past `lateAfterSeconds`; sent once whatever the
 * number of messages, by the one conditional write of `markFollowUpSent`. Not a change of the prospect.
 */
export async function sendFollowUpDue(deps: FollowUpDeps, message: FollowUpDueMessage): Promise<FollowUpDueOutcome> {
  const now = deps.clock();
  const at = Date.parse(message.follow_up_at);
  if (now.getTime() < at) {
    await deps.followUpQueue.send([{ message, delaySeconds: delayUntil(at, now) }]);
    return 'early';
  }
  const after = now.getTime() - at;
  if (after > followUpDueSettings.sendWithinSeconds * 1000) return 'expired';
  const late = after > followUpDueSettings.lateAfterSeconds * 1000;
  const sent = await markFollowUpSent(deps, {
    workspaceId: message.workspace_id,
    prospectId: message.prospect_id,
    followUpAt: message.follow_up_at,
    sentAt: now.toISOString(),
    late,
  });
  if (!sent) return 'refused';
  deps.metrics.count('FollowUpsSent');
  if (late) deps.metrics.count('FollowUpsLate');
  return 'sent';
}
