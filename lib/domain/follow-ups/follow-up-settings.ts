/**
 * When `prospect.follow_up_due` is sent (docs/events.md, "Follow-ups falling due";
 * docs/adr/0018-follow-up-due-from-a-minute-sweep-and-queue-delays.md), read by the functions, the CDK stack and
 * `npm start`.
 */
export const followUpDueSettings = {
  /** Minutes between two runs of the sweep on AWS (an EventBridge rule: it runs within its minute, not at second 0). */
  intervalMinutes: 1,
  /** Seconds between two runs of the sweep in `npm start`: at most 5, as docs/events.md promises. */
  localIntervalSeconds: 5,
  /**
   * How far ahead a run queues what falls due. Two runs of a one-minute rule may be up to two minutes apart (the
   * first at the start of its minute, the next at the end of the following one); a minute more rides out a late
   * invocation. Each message waits in the queue until its second (its DelaySeconds), so queuing early sends nothing
   * early. At most SQS's 900 s delay.
   */
  horizonSeconds: 180,
  /** A follow-up sent more than this after its time is `late`. */
  lateAfterSeconds: 60,
  /** A follow-up missed for longer than this (the service was down) is never sent. */
  sendWithinSeconds: 24 * 60 * 60,
  /**
   * The follow-up queue and its event source mapping: six times the 10 s timeout of the function that marks a
   * follow-up sent (the visibility timeout AWS advises for a queue that triggers a function), five receives before
   * the dead-letter queue, ten messages per invocation.
   */
  queue: { visibilityTimeoutSeconds: 60, maxReceiveCount: 5, batchSize: 10 },
} as const;
