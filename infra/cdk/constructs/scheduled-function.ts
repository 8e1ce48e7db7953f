import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import { eventFunctions, type EventFunction } from '../route-grants';
import type { PowertoolsSettings } from '../observability';
import { secretsTableStatements } from '../table-access';
import { RouteFunction } from './route-function';

/** An event function's line of the route list (infra/cdk/route-grants.ts `eventFunctions`), by its id. */
export const eventFunction = (id: EventFunction['id']): EventFunction => {
  const found = eventFunctions.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`No event function ${id} in infra/cdk/route-grants.ts`);
  return found;
};

/** A function that signs (`secretsTableActions`) is told the signing-secrets table's name; any other is not. */
export const signingEnvironment = (spec: EventFunction, secretsTable: ITable): Record<string, string> =>
  spec.secretsTableActions === undefined ? {} : { SECRETS_TABLE_NAME: secretsTable.tableName };

/** …and is granted its reads there (infra/cdk/table-access.ts); any other, no action at all on that table. */
export const grantSigning = (fn: RouteFunction, spec: EventFunction, secretsTable: ITable): void => {
  for (const statement of secretsTableStatements(secretsTable, spec.secretsTableActions ?? []))
    fn.addToRolePolicy(statement);
};

/** What every event function is built with: the table, the signing-secrets table, the stage's Powertools settings. */
export type EventFunctionProps = {
  table: Table;
  /** The signing-secrets table (./secrets-table.ts): named and granted to the functions that sign only. */
  secretsTable: ITable;
  powertools: PowertoolsSettings;
};

export type ScheduleSettings = {
  spec: EventFunction;
  /** The function's construct id (its logical id's start, and its Powertools service name). */
  id: string;
  /** The EventBridge rule's construct id. */
  scheduleId: string;
  /** The rule's description, in French as every text meant for people. */
  scheduleDescription: string;
  intervalMinutes: number;
  timeout: Duration;
  environment: Record<string, string>;
  noDeadLetterQueueReason: string;
  /** Why neither the invocation nor the rule needs a destination for failed events. */
  nextRunRedoes: string;
};

/**
 * A function of the events wing run on an EventBridge schedule ("Creating a rule that runs on a schedule in Amazon
 * EventBridge", https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-create-rule-schedule.html), which
 * invokes it asynchronously: the sweep (lib/domain/events/sweep.ts), the purge of deleted custom fields
 * (lib/domain/fields/field-purge.ts), the follow-up sweep (lib/domain/follow-ups/sweep-follow-ups.ts). One run at a
 * time (reserved concurrency 1, ../concurrency.ts): two runs would do the same work twice. A run that fails or waits
 * is not tried again (no retry, events older than the interval dropped: "Configuring error handling for asynchronous
 * invocation", https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-error-handling.html): the next run, one
 * interval later, does the same work on fresher state. The function and its rule are made in `scope`, under the ids
 * given: their logical ids are those of the construct that asks.
 */
export function scheduledFunction(
  scope: Construct,
  props: EventFunctionProps,
  schedule: ScheduleSettings,
): RouteFunction {
  const { spec } = schedule;
  const fn = new RouteFunction(scope, schedule.id, {
    entry: spec.entry,
    description: spec.description,
    table: props.table,
    tableActions: spec.tableActions,
    tableKeys: spec.tableKeys,
    timeout: schedule.timeout,
    environment: { ...schedule.environment, ...signingEnvironment(spec, props.secretsTable) },
    powertools: props.powertools,
    noDeadLetterQueueReason: schedule.noDeadLetterQueueReason,
  });
  const interval = Duration.minutes(schedule.intervalMinutes);
  fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: interval });
  const rule = new Rule(scope, schedule.scheduleId, {
    description: schedule.scheduleDescription,
    schedule: Schedule.rate(interval),
    targets: [new LambdaFunction(fn, { retryAttempts: 0 })],
  });
  for (const invokeConfig of fn.node.children.filter((child) => child.node.id === 'EventInvokeConfig')) {
    Validations.of(invokeConfig).acknowledge({
      id: 'Serverless-LambdaAsyncFailureDestination',
      reason: schedule.nextRunRedoes,
    });
  }
  Validations.of(rule).acknowledge({ id: 'Serverless-EventBusDLQ', reason: schedule.nextRunRedoes });
  grantSigning(fn, spec, props.secretsTable);
  return fn;
}
