import { Duration, Stack } from 'aws-cdk-lib';
import {
  AlarmStatusWidget,
  AlarmStatusWidgetSortBy,
  Dashboard,
  GraphWidget,
  Metric,
  SearchExpression,
  TextWidget,
  type IAlarm,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { BusinessMetric } from '../../../lib/observability';
import { businessMetrics, metricNamespace, metricsService } from '../observability';
import { streamMappingMetric } from './alarms';
import type { FollowUpsDue } from './follow-ups-due';
import type { OutboundEvents } from './outbound-events';

export type OperationsDashboardProps = {
  stage: string;
  api: RestApi;
  /** The same map the alarms read: one line per function in each function widget. */
  functions: ReadonlyMap<string, IFunction>;
  table: Table;
  events: OutboundEvents;
  followUps: FollowUpsDue;
  alarms: readonly IAlarm[];
};

const period = Duration.minutes(5);
const fullWidth = 24;
const graphWidth = 8;
const graphHeight = 6;

/** The stack's name already ends with the stage when app.ts built it (`Crm-<stage>`); otherwise the stage is added. */
export const dashboardName = (stackName: string, stage: string): string =>
  stackName.endsWith(`-${stage}`) ? stackName : `${stackName}-${stage}`;

/**
 * A business metric counted with a dimension of its own: one line per value of that dimension, found
 * by a SEARCH over its exact dimension set, whatever values the code has emitted ("Using search
 * expressions in graphs", https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/using-search-expressions.html).
 */
export const businessMetricSearch = (stage: string, metricName: BusinessMetric, dimension: string): string =>
  `SEARCH('{${metricNamespace(stage)},service,${dimension}} MetricName="${metricName}" service="${metricsService}"', 'Sum', ${period.toSeconds()})`;

/**
 * One dashboard per stage (docs/operations.md, "The dashboard"): the alarms' state first, then the
 * API, the functions, the table, the outbound events and the business metrics, 5-minute periods.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const { stage } = props;
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: dashboardName(Stack.of(this).stackName, stage),
      defaultInterval: Duration.hours(24),
    });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: `# CRM ${stage}\nChaque alarme et chaque graphique sont expliqués dans docs/operations.md (que regarder, que faire).`,
        width: fullWidth,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new AlarmStatusWidget({
        title: 'Alarmes',
        alarms: [...props.alarms],
        sortBy: AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP,
        width: fullWidth,
        height: 6,
      }),
    );
    for (const row of rows([
      ...apiWidgets(props.api),
      ...functionWidgets(props.functions),
      ...tableWidgets(props.table),
      ...eventWidgets(props.events, props.followUps),
      ...businessWidgets(stage),
    ]))
      this.dashboard.addWidgets(...row);
  }
}

const graph = (title: string, left: IMetric[]): GraphWidget =>
  new GraphWidget({ title, left, width: graphWidth, height: graphHeight, period });

/** Rows of at most a full width each, so the layout does not depend on how the CDK wraps a long row. */
function rows(widgets: GraphWidget[]): GraphWidget[][] {
  const perRow = fullWidth / graphWidth;
  const result: GraphWidget[][] = [];
  for (let i = 0; i < widgets.length; i += perRow) result.push(widgets.slice(i, i + perRow));
  return result;
}

function apiWidgets(api: RestApi): GraphWidget[] {
  return [
    graph('API : réponses 4xx et 5xx (somme)', [
      api.metricClientError({ period, statistic: 'Sum', label: '4XXError' }),
      api.metricServerError({ period, statistic: 'Sum', label: '5XXError' }),
    ]),
    graph('API : latence (ms)', [
      api.metricLatency({ period, statistic: 'p50', label: 'Latency p50' }),
      api.metricLatency({ period, statistic: 'p99', label: 'Latency p99' }),
    ]),
  ];
}

/** One widget per metric, one line per function: a function that stands out is seen at once. */
function functionWidgets(functions: ReadonlyMap<string, IFunction>): GraphWidget[] {
  const each = (metric: (fn: IFunction, label: string) => IMetric): IMetric[] =>
    [...functions].map(([name, fn]) => metric(fn, name));
  return [
    graph(
      'Lambda : erreurs (somme)',
      each((fn, label) => fn.metricErrors({ period, statistic: 'Sum', label })),
    ),
    graph(
      'Lambda : limitations (somme)',
      each((fn, label) => fn.metricThrottles({ period, statistic: 'Sum', label })),
    ),
    graph(
      'Lambda : durée p50 (ms)',
      each((fn, label) => fn.metricDuration({ period, statistic: 'p50', label })),
    ),
    graph(
      'Lambda : durée p99 (ms)',
      each((fn, label) => fn.metricDuration({ period, statistic: 'p99', label })),
    ),
  ];
}

function tableWidgets(table: Table): GraphWidget[] {
  return [
    graph('DynamoDB : requêtes limitées et erreurs système (somme)', [
      table.metric('ReadThrottleEvents', { period, statistic: 'Sum', label: 'ReadThrottleEvents' }),
      table.metric('WriteThrottleEvents', { period, statistic: 'Sum', label: 'WriteThrottleEvents' }),
      table.metricSystemErrorsForOperations({ period, label: 'SystemErrors' }),
    ]),
  ];
}

function eventWidgets(events: OutboundEvents, followUps: FollowUpsDue): GraphWidget[] {
  const depth = { period, statistic: 'Maximum' } as const;
  return [
    graph('Événements : retard de lecture du flux (ms, max)', [
      events.streamHandler.metric('IteratorAge', { ...depth, label: 'IteratorAge' }),
    ]),
    graph('Événements : messages en file (max)', [
      events.deliveryQueue.metricApproximateNumberOfMessagesVisible({ ...depth, label: 'DeliveryQueue visibles' }),
      events.deliveryQueue.metricApproximateNumberOfMessagesDelayed({ ...depth, label: 'DeliveryQueue différés' }),
      events.deliveryDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
        ...depth,
        label: 'DeliveryDeadLetterQueue',
      }),
      followUps.followUpQueue.metricApproximateNumberOfMessagesVisible({ ...depth, label: 'FollowUpQueue visibles' }),
      followUps.followUpQueue.metricApproximateNumberOfMessagesDelayed({ ...depth, label: 'FollowUpQueue différés' }),
      followUps.followUpDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
        ...depth,
        label: 'FollowUpDeadLetterQueue',
      }),
    ]),
    graph('Événements : enregistrements du flux abandonnés (somme)', [
      streamMappingMetric(events, 'OnFailureDestinationDeliveredEventCount').with({ label: 'gardés dans S3' }),
      streamMappingMetric(events, 'DroppedEventCount').with({ label: 'perdus' }),
    ]),
  ];
}

/** One widget per business metric of lib/observability.ts, titled in French, the metric's name as its line. */
function businessWidgets(stage: string): GraphWidget[] {
  return (Object.entries(businessMetrics) as [BusinessMetric, (typeof businessMetrics)[BusinessMetric]][]).map(
    ([metricName, { dimension, title }]) =>
      graph(`${title} (${metricName})`, [
        dimension
          ? new SearchExpression({ expression: businessMetricSearch(stage, metricName, dimension), period })
          : new Metric({
              namespace: metricNamespace(stage),
              metricName,
              dimensionsMap: { service: metricsService },
              period,
              statistic: 'Sum',
              label: metricName,
            }),
      ]),
  );
}
