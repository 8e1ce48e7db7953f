import { Duration, Validations } from 'aws-cdk-lib';
import { EventSourceMapping } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption, RedrivePermission, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { EventFunction } from '../route-grants';
import { RouteFunction } from './route-function';
import { grantSigning, signingEnvironment, type EventFunctionProps } from './scheduled-function';

/*
 * The events wing's queues and the functions they feed: the delivery queue (./outbound-events.ts) and the follow-up
 * queue (./follow-ups-due.ts), built alike.
 */

/**
 * A queue that only receives what failed: kept SQS's longest retention, time for a person to look
 * (alarms.ts). Its redrive-allow policy, `allowAll`, is SQS's default made explicit: it declares the
 * queue a dead-letter destination, which AWS Control Tower's CT.SQS.PR.1 (every queue has a
 * dead-letter queue) then skips ("Using dead-letter queues in Amazon SQS",
 * https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-dead-letter-queues.html).
 * `byQueue` naming the delivery queue would make the two queues reference each other (a cycle
 * CloudFormation refuses); `denyAll` would fail that control, and would only stop another queue of
 * the account from moving its own failures in here.
 */
export const deadLetterQueueProps: QueueProps = {
  retentionPeriod: Duration.days(14),
  redriveAllowPolicy: { redrivePermission: RedrivePermission.ALLOW_ALL },
};

/**
 * SSE-SQS (keys managed by SQS, no charge) rather than KMS: messages hold ids only (workspace,
 * delivery, step, not_before), never a payload or a subscriber's secret, and a customer-managed
 * key would add its monthly fee, KMS calls on every send and receive, and kms:GenerateDataKey /
 * kms:Decrypt grants to every function that sends and to the event source mapping ("Encryption at rest in Amazon SQS",
 * https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-server-side-encryption.html).
 * `enforceSSL` denies any request not made over TLS (aws:SecureTransport, the queue policy).
 */
export const queueSecurity = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;

/** A queue's settings, shared with the local runtime (lib/domain/events/queue-settings.ts, follow-up-settings.ts). */
export type QueueSettings = { visibilityTimeoutSeconds: number; maxReceiveCount: number; batchSize: number };

/**
 * `<name>Queue` and its dead-letter queue `<name>DeadLetterQueue`, which receives a message after `maxReceiveCount`
 * receives ("Using dead-letter queues in Amazon SQS").
 */
export function queueWithDeadLetters(
  scope: Construct,
  name: string,
  settings: QueueSettings,
): { queue: Queue; deadLetterQueue: Queue } {
  const deadLetterQueue = new Queue(scope, `${name}DeadLetterQueue`, { ...queueSecurity, ...deadLetterQueueProps });
  const queue = new Queue(scope, `${name}Queue`, {
    ...queueSecurity,
    visibilityTimeout: Duration.seconds(settings.visibilityTimeoutSeconds),
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: settings.maxReceiveCount },
  });
  const deadLetterItself = `This queue is itself a dead-letter destination (${name}Queue's redrive target): a queue of its own behind it would only move the messages once more; its depth is alarmed instead (alarms.ts).`;
  Validations.of(deadLetterQueue).acknowledge(
    { id: 'AwsSolutions-SQS3', reason: deadLetterItself },
    { id: 'Serverless-SQSRedrivePolicy', reason: deadLetterItself },
  );
  return { queue, deadLetterQueue };
}

/**
 * A function fed by `queue` (batches of `settings.batchSize`, ReportBatchItemFailures: only the messages it names
 * come back, "Handling errors for an SQS event source in Lambda"), at most `maxConcurrency` invocations at once
 * (ScalingConfig.MaximumConcurrency, within its reservation: ../concurrency.ts), which may also send to its own queue
 * (a next attempt, a message received early). Lambda has no on-failure destination for an SQS source: a message that
 * keeps failing goes to the queue's dead-letter queue by its redrive policy.
 */
export function queueFedFunction(
  scope: Construct,
  props: EventFunctionProps,
  options: {
    spec: EventFunction;
    /** The function's construct id. */
    id: string;
    queue: Queue;
    /** Its dead-letter queue's construct id, named in the acknowledgements. */
    deadLetterQueueName: string;
    settings: QueueSettings;
    maxConcurrency: number | undefined;
    timeout: Duration;
    environment: Record<string, string>;
  },
): RouteFunction {
  const { spec, queue, deadLetterQueueName } = options;
  const fn = new RouteFunction(scope, options.id, {
    entry: spec.entry,
    description: spec.description,
    table: props.table,
    tableActions: spec.tableActions,
    tableKeys: spec.tableKeys,
    timeout: options.timeout,
    environment: { ...options.environment, ...signingEnvironment(spec, props.secretsTable) },
    powertools: props.powertools,
    noDeadLetterQueueReason: `Invoked synchronously by the queue's event source mapping: a message that keeps failing is moved by the queue's redrive policy to ${deadLetterQueueName}; a function dead-letter queue only receives failed asynchronous invocations.`,
  });
  grantSigning(fn, spec, props.secretsTable);
  fn.addEventSource(
    new SqsEventSource(queue, {
      batchSize: options.settings.batchSize,
      reportBatchItemFailures: true,
      ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
    }),
  );
  for (const mapping of fn.node.children.filter((child) => child instanceof EventSourceMapping)) {
    Validations.of(mapping).acknowledge({
      id: 'Serverless-LambdaEventSourceMappingDestination',
      reason: `Lambda supports no on-failure destination for an SQS event source: a message that keeps failing is moved by the queue's own redrive policy (maxReceiveCount) to ${deadLetterQueueName}, which is alarmed.`,
    });
  }
  queue.grant(fn, 'sqs:SendMessage');
  return fn;
}
