import { Duration, Validations } from 'aws-cdk-lib';
import { EventSourceMapping } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { followUpDueSettings } from '../../../lib/domain/follow-ups/follow-up-settings';
import { concurrencyBudget } from '../concurrency';
import { deadLetterQueueProps, queueSecurity } from './outbound-events';
import { RouteFunction } from './route-function';
import {
  eventFunction,
  grantSigning,
  scheduledFunction,
  signingEnvironment,
  type EventFunctionProps,
} from './scheduled-function';

/**
 * The function that marks a follow-up sent: one transaction per message (the prospect still holds the time, the
 * schedule marked sent) and, for a message received early, one SendMessage: milliseconds each, ten messages a batch.
 * The queue's visibility timeout is six times this (lib/domain/follow-ups/follow-up-settings.ts).
 */
export const sendFollowUpDueTimeout = Duration.seconds(10);

/** The follow-up sweep's: its clock read and moved, 16 Queries of index gsi4 at once (one a shard), a few SendMessageBatch. */
export const sweepFollowUpsTimeout = Duration.seconds(60);

export type FollowUpsDueProps = EventFunctionProps & {
  /**
   * The stream handler (./outbound-events.ts): it queues the follow-ups due within minutes when a schedule changes,
   * so it is told the follow-up queue's URL and may send to it.
   */
  streamHandler: RouteFunction;
};

/**
 * `prospect.follow_up_due` (docs/events.md, "Follow-ups falling due";
 * docs/adr/0018-follow-up-due-from-a-minute-sweep-and-queue-delays.md): a sweep every minute queues the follow-ups
 * falling due within the next minutes, each message delayed to its second; the stream handler queues those set within
 * that horizon; the send function marks each sent when it comes out of the queue, and the change stream turns that
 * write into the event. A message whose function keeps failing is kept in the follow-up dead-letter queue, alarmed
 * (alarms.ts).
 */
export class FollowUpsDue extends Construct {
  readonly followUpQueue: Queue;
  readonly followUpDeadLetterQueue: Queue;
  readonly sendFollowUpDue: RouteFunction;
  readonly sweepFollowUps: RouteFunction;

  constructor(scope: Construct, id: string, props: FollowUpsDueProps) {
    super(scope, id);
    const settings = followUpDueSettings.queue;
    /** SSE-SQS, as the delivery queue (./outbound-events.ts `queueSecurity`): a message holds ids and a time only. */
    this.followUpDeadLetterQueue = new Queue(this, 'FollowUpDeadLetterQueue', {
      ...queueSecurity,
      ...deadLetterQueueProps,
    });
    this.followUpQueue = new Queue(this, 'FollowUpQueue', {
      ...queueSecurity,
      visibilityTimeout: Duration.seconds(settings.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.followUpDeadLetterQueue, maxReceiveCount: settings.maxReceiveCount },
    });
    const deadLetterItself =
      "This queue is itself a dead-letter destination (the follow-up queue's redrive target): a queue of its own behind it would only move the messages once more; its depth is alarmed instead (alarms.ts).";
    Validations.of(this.followUpDeadLetterQueue).acknowledge(
      { id: 'AwsSolutions-SQS3', reason: deadLetterItself },
      { id: 'Serverless-SQSRedrivePolicy', reason: deadLetterItself },
    );
    const environment = { FOLLOW_UP_QUEUE_URL: this.followUpQueue.queueUrl };

    const send = eventFunction('sendFollowUpDue');
    this.sendFollowUpDue = new RouteFunction(this, 'SendFollowUpDue', {
      entry: send.entry,
      description: send.description,
      table: props.table,
      tableActions: send.tableActions,
      tableKeys: send.tableKeys,
      timeout: sendFollowUpDueTimeout,
      environment: { ...environment, ...signingEnvironment(send, props.secretsTable) },
      powertools: props.powertools,
      noDeadLetterQueueReason:
        "Invoked synchronously by the queue's event source mapping: a message that keeps failing is moved by the queue's redrive policy to FollowUpDeadLetterQueue; a function dead-letter queue only receives failed asynchronous invocations.",
    });
    grantSigning(this.sendFollowUpDue, send, props.secretsTable);
    this.sendFollowUpDue.addEventSource(
      new SqsEventSource(this.followUpQueue, {
        batchSize: settings.batchSize,
        reportBatchItemFailures: true,
        /** ScalingConfig.MaximumConcurrency: within the function's reservation (../concurrency.ts). */
        maxConcurrency: concurrencyBudget.sendFollowUpDue.sqsMaximumConcurrency,
      }),
    );
    for (const mapping of this.sendFollowUpDue.node.children.filter((child) => child instanceof EventSourceMapping)) {
      Validations.of(mapping).acknowledge({
        id: 'Serverless-LambdaEventSourceMappingDestination',
        reason:
          "Lambda supports no on-failure destination for an SQS event source: a message that keeps failing is moved by the queue's own redrive policy (maxReceiveCount) to FollowUpDeadLetterQueue, which is alarmed.",
      });
    }
    /** A message received before its second goes back to the same queue with the delay left. */
    this.followUpQueue.grant(this.sendFollowUpDue, 'sqs:SendMessage');

    this.sweepFollowUps = scheduledFunction(this, props, {
      spec: eventFunction('sweepFollowUps'),
      id: 'SweepFollowUps',
      scheduleId: 'FollowUpSchedule',
      scheduleDescription: 'Mise en file des rappels qui arrivent à échéance dans les minutes qui viennent',
      intervalMinutes: followUpDueSettings.intervalMinutes,
      timeout: sweepFollowUpsTimeout,
      environment,
      noDeadLetterQueueReason:
        'Invoked by its schedule every minute: a failed run is done again by the next one, from the clock the last run left; its errors are alarmed (SweepFollowUpsErrors).',
      nextRunRedoes:
        'A run that fails or is never made loses nothing: the next run, a minute later, queues the same minutes from the clock the last run left; errors are alarmed (SweepFollowUpsErrors), and a destination would only keep scheduled events, which carry nothing.',
    });
    this.followUpQueue.grant(this.sweepFollowUps, 'sqs:SendMessage');

    /** The stream handler's schedule step: the follow-ups set within the sweep's horizon are queued at once. */
    props.streamHandler.addEnvironment('FOLLOW_UP_QUEUE_URL', this.followUpQueue.queueUrl);
    this.followUpQueue.grant(props.streamHandler, 'sqs:SendMessage');
  }
}
