import { Duration, NestedStack, Validations } from 'aws-cdk-lib';
import { Rule, RuleTargetInput, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import { erasureSettings } from '../../../lib/domain/erasure/continue-erasures';
import { retentionTask } from '../../../lib/domain/erasure/apply-retention';
import type { RouteFunction } from './route-function';
import { eventFunction, scheduledFunction, type EventFunctionProps } from './scheduled-function';

/**
 * The background of erasure (docs/adr/0019-erasure-in-the-background.md): a function run every minute deletes the
 * copies of the prospects and candidates erased, from the step each job's last run recorded. The erasure itself (the
 * record, its markers, its follow-up) is the settings route's one transaction; what is left here only waits, so a
 * failed run is the next run's work, and its errors are alarmed (alarms.ts). A nested stack of its own: the main
 * template stays under its resource budget (docs/deploy.md#template-size), and the next background function joins it.
 */
export class Erasure extends NestedStack {
  readonly eraseRecords: RouteFunction;

  constructor(scope: Construct, id: string, props: EventFunctionProps) {
    super(scope, id, { description: 'CRM background work: the copies of erased records deleted (docs/adr/0019)' });
    this.eraseRecords = scheduledFunction(this, props, {
      spec: eventFunction('eraseRecords'),
      id: 'EraseRecords',
      scheduleId: 'ErasureSchedule',
      scheduleDescription: 'Effacement des copies des prospects et candidats effacés',
      intervalMinutes: erasureSettings.intervalMinutes,
      /**
       * At most `recordPagesPerRun` pages of a record's own (a few items each) and `pagesPerRun` pages of 100 items of
       * a workspace's journal or deliveries, each page one Query and its writes 16 at a time: seconds. Less than the
       * minute between two runs; a run cut short redoes one page at most.
       */
      timeout: Duration.seconds(50),
      environment: {},
      noDeadLetterQueueReason:
        'Invoked by its schedule every minute: a failed run is done again by the next one, from the step recorded on each job; its errors are alarmed (EraseRecordsErrors).',
      nextRunRedoes:
        'A run that fails or is never made loses nothing: each job goes on at the next run, a minute later, from the step recorded on it; errors are alarmed (EraseRecordsErrors), and a destination would only keep scheduled events, which carry nothing.',
    });
    /**
     * Once a day, the workspaces' retention (lib/domain/erasure/apply-retention.ts): the same function, told by its
     * event. A day's run that fails is the next day's work: what it would have erased is found again in the index.
     */
    const retention = new Rule(this, 'RetentionSchedule', {
      description:
        'Effacement quotidien des prospects et candidats que la durée de conservation de leur espace ne garde plus',
      schedule: Schedule.rate(Duration.days(1)),
      targets: [
        new LambdaFunction(this.eraseRecords, {
          event: RuleTargetInput.fromObject({ task: retentionTask }),
          retryAttempts: 0,
        }),
      ],
    });
    Validations.of(retention).acknowledge({
      id: 'Serverless-EventBusDLQ',
      reason:
        'A day that fails loses nothing: the next day finds the same prospects in the index; errors are alarmed (EraseRecordsErrors), and a destination would only keep scheduled events, which carry a constant.',
    });
  }
}
