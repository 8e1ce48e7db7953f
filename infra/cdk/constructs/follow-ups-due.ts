import { Duration } from 'aws-cdk-lib';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { followUpDueSettings } from '../../../lib/domain/follow-ups/follow-up-settings';
import { concurrencyBudget } from '../concurrency';
import { queueFedFunction, queueWithDeadLetters } from './queue-function';
import type { RouteFunction } from './route-function';
import { eventFunction, scheduledFunction, type EventFunctionProps } from './scheduled-function';

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
    /** SSE-SQS, as the delivery queue (./queue-function.ts `queueSecurity`): a message holds ids and a time only. */
    const followUps = queueWithDeadLetters(this, 'FollowUp', settings);
    this.followUpQueue = followUps.queue;
    this.followUpDeadLetterQueue = followUps.deadLetterQueue;
    const environment = { FOLLOW_UP_QUEUE_URL: this.followUpQueue.queueUrl };

    /** A message received before its second goes back to the same queue with the delay left. */
    this.sendFollowUpDue = queueFedFunction(this, props, {
      spec: eventFunction('sendFollowUpDue'),
      id: 'SendFollowUpDue',
      queue: this.followUpQueue,
      deadLetterQueueName: 'FollowUpDeadLetterQueue',
      settings,
      maxConcurrency: concurrencyBudget.sendFollowUpDue.sqsMaximumConcurrency,
      timeout: sendFollowUpDueTimeout,
      environment,
    });

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
