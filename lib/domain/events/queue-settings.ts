import { staleClaimMs } from '../../storage/delivery-attempts';

/**
 * The delivery queue and its event source mapping, read by the CDK stack and by the local runtime
 * (tools/local/event-pipeline.ts), so `npm start` retries on the same terms as AWS.
 */
export const deliveryQueueSettings = {
  /**
   * Six times the delivery function's 30 s timeout: AWS's advice for a queue that triggers a function,
   * so that a message is not received again while a slow invocation still works on it ("Creating and
   * configuring an Amazon SQS event source mapping",
   * https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html; the timeout itself: "Amazon SQS visibility timeout",
   * https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-visibility-timeout.html).
   */
  visibilityTimeoutSeconds: 180,
  /**
   * Receives of one message before SQS moves it to the dead-letter queue (redrive policy, "Using
   * dead-letter queues in Amazon SQS",
   * https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-dead-letter-queues.html).
   * A delivery's own failures are scheduled by the code (retry-schedule.ts) and end `failed`, never here:
   * only a message whose invocation keeps crashing reaches the dead-letter queue, after 5 tries that ride
   * out a brief outage (the same page advises enough receives for transient errors).
   */
  maxReceiveCount: 5,
  /** Messages per invocation (SQS event source mapping BatchSize, at most 10 without a batching window). */
  batchSize: 10,
} as const;

/**
 * The change stream's event source mapping: records per invocation (also the local runtime's batch,
 * tools/local/event-pipeline.ts) and retries of a failing record before it goes to the on-failure
 * destination. The CDK stack's mapping (infra/cdk/constructs/outbound-events.ts) reads the same numbers.
 */
export const changeStreamSettings = {
  batchSize: 100,
  maxRetryAttempts: 10,
} as const;

/**
 * The sweep of pending deliveries (lib/domain/events/sweep.ts), scheduled on AWS
 * (infra/cdk/constructs/outbound-events.ts) and run by `npm start` on the same terms.
 */
export const sweepSettings = {
  /** Minutes between two runs. */
  intervalMinutes: 5,
  /**
   * A pending delivery is due for the sweep once its next attempt is this far past. A due message
   * is received within seconds; one whose invocation keeps failing comes back every visibility
   * timeout and, at its fifth receive, goes to the dead-letter queue: 5 × 180 s = 900 s after it
   * was due, the queue has given up on it. 60 s more (lib/storage/delivery-attempts.ts
   * `staleClaimMs`) and any claim of that last attempt is stale, which the sweep's message takes
   * over. So 16 minutes: the queue no longer holds a live copy, and no attempt is running.
   */
  overdueAfterSeconds:
    deliveryQueueSettings.visibilityTimeoutSeconds * deliveryQueueSettings.maxReceiveCount + staleClaimMs / 1000,
  /** Deliveries taken per shard and run (16 shards, index gsi4): a backlog drains over several runs. */
  perShard: 100,
} as const;
