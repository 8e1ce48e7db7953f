import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { OutboundEvents } from './outbound-events';

export type AlarmsProps = {
  stage: string;
  api: RestApi;
  functions: ReadonlyMap<string, IFunction>;
  table: Table;
  events: OutboundEvents;
};

/**
 * The one line the delivery code logs when a delivery ends `failed` (every attempt of the retry
 * schedule refused); a JSON pattern on its `event` field ("Filter pattern syntax for metric
 * filters", https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/FilterAndPatternSyntaxForMetricFilters.html).
 */
export const deliveryFailedPattern = '{ $.event = "delivery_failed" }';

export const deliveriesFailedMetricName = 'DeliveriesFailed';

/** The namespace of the stack's own metrics: one per stage, so two stages in one account do not add up. */
export const metricNamespace = (stage: string): string => `Crm/${stage}`;

/**
 * The stream mapping's iterator age past which events are late enough for a person to look: a
 * healthy mapping reads a record within seconds of its write ("Working with Lambda function
 * metrics", IteratorAge, https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics-types.html).
 */
export const iteratorAgeThreshold = Duration.minutes(5);

const period = Duration.minutes(5);

/**
 * What needs a person: server errors answered by the API, and throttling anywhere on the path
 * (a function out of concurrency, the table refusing requests). The alarms have no action:
 * the platform team subscribes its own topic (docs/deploy.md).
 */
export class Alarms extends Construct {
  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    /**
     * A few 5xx are part of the contract (a webhook retried while its first delivery still runs
     * answers 500 so that form tools retry): five in five minutes is no longer that.
     */
    alarm(this, 'Api5xx', props.api.metricServerError({ period, statistic: 'Sum' }), 5, "Réponses 5xx de l'API");
    for (const [name, fn] of props.functions) {
      alarm(this, `${name}Throttles`, fn.metricThrottles({ period, statistic: 'Sum' }), 1, `Lambda ${name} limitée`);
    }
    const tableThrottles = new MathExpression({
      expression: 'reads + writes',
      usingMetrics: {
        reads: props.table.metric('ReadThrottleEvents', { period, statistic: 'Sum' }),
        writes: props.table.metric('WriteThrottleEvents', { period, statistic: 'Sum' }),
      },
      period,
    });
    alarm(this, 'TableThrottles', tableThrottles, 1, 'Requêtes DynamoDB limitées');
    outboundEventAlarms(this, props);
  }
}

/**
 * Outbound events: what no code retries any more (a message in either dead-letter queue, a
 * delivery given up), a function failing (its errors are not the receivers' refusals, which the
 * code records), and a stream read falling behind.
 */
function outboundEventAlarms(scope: Construct, props: AlarmsProps): void {
  const { events } = props;
  /** The most messages seen during the period: one is enough, a dead-letter queue is empty when all is well. */
  const depth = { period, statistic: 'Maximum' } as const;
  alarm(
    scope,
    'DeliveryDeadLetters',
    events.deliveryDeadLetterQueue.metricApproximateNumberOfMessagesVisible(depth),
    1,
    "Messages de livraison en file d'erreurs : la fonction de livraison a échoué 5 fois de suite sur eux",
  );
  alarm(
    scope,
    'StreamFailures',
    events.streamFailureQueue.metricApproximateNumberOfMessagesVisible(depth),
    1,
    "Lots du flux DynamoDB abandonnés : des écritures n'ont pas produit leurs événements",
  );
  const deliveriesFailed = new MetricFilter(scope, 'DeliveriesFailedFilter', {
    logGroup: events.deliverEvent.logGroup,
    filterPattern: FilterPattern.literal(deliveryFailedPattern),
    metricNamespace: metricNamespace(props.stage),
    metricName: deliveriesFailedMetricName,
    metricValue: '1',
  });
  alarm(
    scope,
    'DeliveriesFailed',
    deliveriesFailed.metric({ period, statistic: 'Sum' }),
    1,
    'Livraisons abandonnées après toutes les tentatives (statut failed)',
  );
  for (const [name, fn, label] of [
    ['StreamHandler', events.streamHandler, 'Erreurs de la Lambda du flux des événements'],
    ['DeliverEvent', events.deliverEvent, 'Erreurs de la Lambda de livraison des événements'],
  ] as const) {
    alarm(scope, `${name}Errors`, fn.metricErrors({ period, statistic: 'Sum' }), 1, label);
  }
  alarm(
    scope,
    'StreamIteratorAge',
    events.streamHandler.metric('IteratorAge', { period, statistic: 'Maximum' }),
    iteratorAgeThreshold.toMilliseconds(),
    'Retard de lecture du flux DynamoDB : les événements partent en retard',
  );
}

function alarm(scope: Construct, id: string, metric: IMetric, threshold: number, description: string): Alarm {
  return new Alarm(scope, id, {
    metric,
    threshold,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
    alarmDescription: description,
  });
}
