import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';

export type AlarmsProps = { api: RestApi; functions: ReadonlyMap<string, IFunction>; table: Table };

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
  }
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
