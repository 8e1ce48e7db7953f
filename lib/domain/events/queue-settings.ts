/**
 * The delivery queue and its event source mapping, read by the CDK stack and by the local stand-in
 * (infra/local/local-queue.ts), so `npm start` retries on the same terms as AWS.
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
 * The change stream's event source mapping, as far as the local poller (infra/local/stream-poller.ts)
 * models it: records per invocation and retries of a failing record before it goes to the on-failure
 * destination. The CDK stack's mapping (infra/cdk/constructs/outbound-events.ts) reads the same numbers.
 */
export const changeStreamSettings = {
  batchSize: 100,
  maxRetryAttempts: 10,
} as const;
