import type { FollowUpDueMessage, FollowUpQueue } from '../../lib/domain/follow-ups/ports';

/** A follow-up queue that keeps what it is sent, with each message's delay, for a test to read. */
export function recordingFollowUpQueue(): FollowUpQueue & {
  sent: { message: FollowUpDueMessage; delaySeconds: number }[];
} {
  const sent: { message: FollowUpDueMessage; delaySeconds: number }[] = [];
  return { sent, send: async (messages) => void sent.push(...messages) };
}
