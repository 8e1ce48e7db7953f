import { Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Metric,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { BusinessMetric } from '../../../lib/observability';
import { metricNamespace, metricsService } from '../observability';
import type { Erasure } from './erasure';
import type { FollowUpsDue } from './follow-ups-due';
import type { OutboundEvents } from './outbound-events';

export type AlarmsProps = {
  stage: string;
  api: RestApi;
  functions: ReadonlyMap<string, IFunction>;
  table: Table;
  events: OutboundEvents;
  followUps: FollowUpsDue;
  erasure: Erasure;
  /** Notified by every alarm, on ALARM and back to OK (alarm-topic.ts). */
  topic: ITopic;
};

/**
 * Deliveries given up (every attempt of the retry schedule refused): the delivery code counts them
 * as the business metric of lib/observability.ts, in the embedded metric format.
 */
export const deliveriesFailedMetricName: BusinessMetric = 'DeliveriesFailed';

/**
 * The stream mapping's iterator age past which events are late enough for a person to look: a
 * healthy mapping reads a record within seconds of its write ("Working with Lambda function
 * metrics", IteratorAge, https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics-types.html).
 */
export const iteratorAgeThreshold = Duration.minutes(5);

export const alarmPeriod = Duration.minutes(5);
const period = alarmPeriod;

/** What one alarm watches; its id names it in the console and in docs/operations.md. */
type AlarmSpec = { id: string; metric: IMetric; threshold: number; description: string };

/**
 * What needs a person: server errors answered by the API, throttling anywhere on the path (a
 * function out of concurrency, the table refusing requests), and the outbound events that no code
 * retries any more. Every alarm is named `<stack name>-<id>` and notifies the alarm topic when it
 * fires and when it is back to OK; its description ends with where docs/operations.md explains it.
 */
export class Alarms extends Construct {
  readonly alarms: Alarm[];

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    const action = new SnsAction(props.topic);
    this.alarms = [
      ...apiAlarms(props),
      ...outboundEventAlarms(props),
      ...followUpAlarms(props),
      /** An erasure that stops moving leaves a person's copies past the 5 minutes promised. */
      functionErrors('EraseRecordsErrors', props.erasure.eraseRecords, "Erreurs de la Lambda d'effacement des copies"),
    ].map((spec) => {
      const alarm = new Alarm(this, spec.id, {
        alarmName: `${stackName}-${spec.id}`,
        metric: spec.metric,
        threshold: spec.threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: `${spec.description}. Procédure : docs/operations.md, alarme ${spec.id}.`,
      });
      alarm.addAlarmAction(action);
      /** The all-clear too: whoever was paged knows it is over without opening the console. */
      alarm.addOkAction(action);
      return alarm;
    });
  }
}

function apiAlarms(props: AlarmsProps): AlarmSpec[] {
  const tableThrottles = new MathExpression({
    expression: 'reads + writes',
    usingMetrics: {
      reads: props.table.metric('ReadThrottleEvents', { period, statistic: 'Sum' }),
      writes: props.table.metric('WriteThrottleEvents', { period, statistic: 'Sum' }),
    },
    period,
  });
  return [
    /**
     * A few 5xx are part of the contract (a webhook retried while its first delivery still runs
     * answers 500 so that form tools retry): five in five minutes is no longer that.
     */
    {
      id: 'Api5xx',
      metric: props.api.metricServerError({ period, statistic: 'Sum' }),
      threshold: 5,
      description: "Réponses 5xx de l'API",
    },
    ...[...props.functions].map(([name, fn]) => ({
      id: `${name}Throttles`,
      metric: fn.metricThrottles({ period, statistic: 'Sum' }),
      threshold: 1,
      description: `Lambda ${name} limitée`,
    })),
    { id: 'TableThrottles', metric: tableThrottles, threshold: 1, description: 'Requêtes DynamoDB limitées' },
  ];
}

/**
 * The stream mapping's own count `metricName` (AWS/Lambda, by the mapping's UUID: "Types of metrics
 * for Lambda functions", "Event source mapping metrics",
 * https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics-types.html), summed per period.
 */
export const streamMappingMetric = (events: OutboundEvents, metricName: string): Metric =>
  new Metric({
    namespace: 'AWS/Lambda',
    metricName,
    dimensionsMap: { EventSourceMappingUUID: events.streamMappingId },
    period,
    statistic: 'Sum',
  });

/**
 * Outbound events: what no code retries any more (a message in the dead-letter queue, a stream
 * batch given up, kept or not, a delivery given up), a function failing (its errors are not the
 * receivers' refusals, which the code records), and a stream read falling behind.
 */
function outboundEventAlarms(props: AlarmsProps): AlarmSpec[] {
  const { events } = props;
  /** The most messages seen during the period: one is enough, a dead-letter queue is empty when all is well. */
  const depth = { period, statistic: 'Maximum' } as const;
  return [
    {
      id: 'DeliveryDeadLetters',
      metric: events.deliveryDeadLetterQueue.metricApproximateNumberOfMessagesVisible(depth),
      threshold: 1,
      description:
        "Messages de livraison en file d'erreurs : la fonction de livraison a échoué 5 fois de suite sur eux",
    },
    {
      id: 'StreamFailures',
      metric: streamMappingMetric(events, 'OnFailureDestinationDeliveredEventCount'),
      threshold: 1,
      description:
        "Lots du flux DynamoDB abandonnés et gardés dans S3 : des écritures n'ont pas encore produit leurs événements (admin stream replay)",
    },
    {
      id: 'StreamRecordsDropped',
      metric: streamMappingMetric(events, 'DroppedEventCount'),
      threshold: 1,
      description:
        "Enregistrements du flux DynamoDB abandonnés sans être gardés (le compartiment les a refusés) : des écritures n'ont pas produit leurs événements",
    },
    {
      id: 'DeliveriesFailed',
      /** The delivery function's own count, with the dimension set it is published with (../observability.ts). */
      metric: new Metric({
        namespace: metricNamespace(props.stage),
        metricName: deliveriesFailedMetricName,
        dimensionsMap: { service: metricsService },
        period,
        statistic: 'Sum',
      }),
      threshold: 1,
      description: 'Livraisons abandonnées après toutes les tentatives (statut failed)',
    },
    functionErrors('StreamHandlerErrors', events.streamHandler, 'Erreurs de la Lambda du flux des événements'),
    functionErrors('DeliverEventErrors', events.deliverEvent, 'Erreurs de la Lambda de livraison des événements'),
    functionErrors(
      'SweepDeliveriesErrors',
      events.sweepDeliveries,
      'Erreurs de la Lambda de balayage des livraisons en attente',
    ),
    functionErrors(
      'PurgeDeletedFieldsErrors',
      events.purgeDeletedFields,
      'Erreurs de la Lambda de purge des champs personnalisés supprimés',
    ),
    {
      id: 'StreamIteratorAge',
      metric: events.streamHandler.metric('IteratorAge', { period, statistic: 'Maximum' }),
      threshold: iteratorAgeThreshold.toMilliseconds(),
      description: 'Retard de lecture du flux DynamoDB : les événements partent en retard',
    },
  ];
}

/**
 * Follow-ups falling due (docs/events.md, "Follow-ups falling due"): a message no code retries any more (in the
 * follow-up dead-letter queue: its follow-up is not sent until the message is moved back), and either function
 * failing. The follow-up queue itself is not alarmed on depth: its messages wait there by design (their delays).
 */
/** Any error of a function of the events wing, within the period (its own `Errors` metric). */
const functionErrors = (id: string, fn: IFunction, description: string): AlarmSpec => ({
  id,
  metric: fn.metricErrors({ period, statistic: 'Sum' }),
  threshold: 1,
  description,
});

function followUpAlarms(props: AlarmsProps): AlarmSpec[] {
  const { followUps } = props;
  return [
    {
      id: 'FollowUpDeadLetters',
      metric: followUps.followUpDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period,
        statistic: 'Maximum',
      }),
      threshold: 1,
      description:
        "Messages de rappel en file d'erreurs : la fonction d'envoi des rappels a échoué 5 fois de suite sur eux, ces rappels ne partent pas",
    },
    functionErrors(
      'SweepFollowUpsErrors',
      followUps.sweepFollowUps,
      'Erreurs de la Lambda de mise en file des rappels',
    ),
    functionErrors('SendFollowUpDueErrors', followUps.sendFollowUpDue, "Erreurs de la Lambda d'envoi des rappels dus"),
  ];
}
