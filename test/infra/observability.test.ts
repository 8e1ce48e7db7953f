import { readFileSync } from 'node:fs';
import { Stack } from 'aws-cdk-lib';
import { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { dashboardName } from '../../infra/cdk/constructs/operations-dashboard';
import { RouteFunction } from '../../infra/cdk/constructs/route-function';
import { businessMetrics, metricNamespace, metricsService, powertoolsLogLevels } from '../../infra/cdk/observability';
import { CrmStack, type CrmStackProps } from '../../infra/cdk/stack';
import { routes } from '../../lib/routes';
import { eventFunctions } from '../../infra/cdk/route-grants';
import { testApp } from '../support/cdk-app';
import { tablesOf } from '../support/iam-policies';
import { flattenedTemplate } from '../support/nested-templates';
import { deploymentHandlerIds } from '../support/settings-page-resources';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const build = (id: string, props: CrmStackProps): CrmStack => new CrmStack(testApp(), id, props);

const stack = build('Crm-test', { stage: 'test' });
/** The settings API's functions are in a nested stack: read as one template (test/support/nested-templates.ts). */
const template = flattenedTemplate(stack);
const resources = template.Resources as Record<string, Json>;
const ofType = (type: string): [string, Json][] => Object.entries(resources).filter(([, r]) => r.Type === type);
const only = (type: string): [string, Json] => {
  const found = ofType(type);
  expect(found).toHaveLength(1);
  return found[0]!;
};

const [topicId, topic] = only('AWS::SNS::Topic');
/** The topic's key: the one its KmsMasterKeyId names (the kept stream batches have a key of their own). */
const [keyId, key] = ofType('AWS::KMS::Key').find(([id]) => id === topic.Properties.KmsMasterKeyId['Fn::GetAtt'][0])!;
const alarms = ofType('AWS::CloudWatch::Alarm');
/** The service's functions: not the CDK's bucket-deployment function, which runs only while deploying the page. */
const lambdaFunctions = ofType('AWS::Lambda::Function').filter(([id]) => !deploymentHandlerIds(resources).has(id));

/** Every function of the stack with its construct id (the name the alarms and the dashboard use). */
const routeFunctions = stack.node
  .findAll()
  .filter((construct): construct is RouteFunction => construct instanceof RouteFunction)
  .map((fn) => ({ name: fn.node.id, logicalId: Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnFunction) }));
const alarmIds = stack.node
  .findAll()
  .filter((construct): construct is Alarm => construct instanceof Alarm)
  .map((alarm) => alarm.node.id);

/**
 * The dashboard body as CloudWatch receives it: the Fn::Join's parts concatenated, each reference
 * replaced by a placeholder naming what it points to (all of them sit inside JSON strings).
 */
function dashboardBody(dashboard: Json): Json {
  const [separator, parts] = dashboard.Properties.DashboardBody['Fn::Join'] as [string, unknown[]];
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const ref = part as Json;
      if (ref.Ref) return `{{Ref:${ref.Ref as string}}}`;
      if (ref['Fn::GetAtt']) return `{{GetAtt:${(ref['Fn::GetAtt'] as string[]).join('.')}}}`;
      throw new Error(`Unexpected part ${JSON.stringify(part)}`);
    })
    .join(separator);
  return JSON.parse(text) as Json;
}
const [, dashboard] = only('AWS::CloudWatch::Dashboard');
const body = dashboardBody(dashboard);
const widgets = body.widgets as Json[];
const widgetTitled = (title: string): Json => {
  const found = widgets.filter((widget) => widget.properties.title === title);
  expect(found).toHaveLength(1);
  return found[0]!.properties as Json;
};
/** A graph's lines, each `[namespace, name, dimension name, value, …, options]` or `[{ expression }]`. */
const linesOf = (title: string): unknown[][] => widgetTitled(title).metrics as unknown[][];
const optionsOf = (line: unknown[]): Json => line.at(-1) as Json;

describe('Powertools environment of every function', () => {
  test('every function is a RouteFunction, each with its construct id as its service name', () => {
    expect(routeFunctions.map((fn) => fn.logicalId).sort()).toEqual(lambdaFunctions.map(([id]) => id).sort());
    expect(routeFunctions).toHaveLength(routes.length + 1 + eventFunctions.length);
    expect(routeFunctions.map((fn) => fn.name)).toEqual(expect.arrayContaining(['IngestLead', 'Authorizer']));
    for (const { name, logicalId } of routeFunctions) {
      expect(resources[logicalId]!.Properties.Environment.Variables).toMatchObject({
        POWERTOOLS_SERVICE_NAME: name,
        POWERTOOLS_METRICS_NAMESPACE: 'Crm/test',
        POWERTOOLS_LOG_LEVEL: 'INFO',
      });
    }
    expect(new Set(routeFunctions.map((fn) => fn.name)).size).toBe(routeFunctions.length);
  });

  test('the log level is a stack prop; the namespace follows the stage', () => {
    // The prod stage needs an SES sender (infra/cdk/stack.ts `productionStage`); without a known region, its region.
    const sesSender = { fromEmail: 'acces@crm.example', sesRegion: 'eu-west-3' };
    const other = flattenedTemplate(build('Crm-prod', { stage: 'prod', logLevel: 'DEBUG', sesSender }));
    const otherResources = other.Resources as Record<string, Json>;
    const functions = Object.entries(otherResources)
      .filter(([id, r]) => r.Type === 'AWS::Lambda::Function' && !deploymentHandlerIds(otherResources).has(id))
      .map(([, r]) => r);
    expect(functions).toHaveLength(lambdaFunctions.length);
    for (const fn of functions) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        POWERTOOLS_METRICS_NAMESPACE: 'Crm/prod',
        POWERTOOLS_LOG_LEVEL: 'DEBUG',
      });
    }
  });

  test('an unknown log level stops the synthesis', () => {
    expect(() => build('Crm-bad', { stage: 'bad', logLevel: 'debug' })).toThrow(/Niveau de journalisation invalide/);
    expect(() => build('Crm-bad', { stage: 'bad', logLevel: 'VERBOSE' })).toThrow(powertoolsLogLevels.join(', '));
  });
});

describe('alarm topic', () => {
  test('encrypted with a key of its own, rotated yearly (CloudWatch cannot use the AWS managed alias/aws/sns)', () => {
    expect(topic.Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    expect(key.Properties.EnableKeyRotation).toBe(true);
  });

  test('the key lets CloudWatch encrypt for this stack’s alarms only; grants for AWS services only', () => {
    const statements = key.Properties.KeyPolicy.Statement as Json[];
    const cloudWatch = statements.find((s) => s.Principal?.Service === 'cloudwatch.amazonaws.com')!;
    expect(cloudWatch).toMatchObject({
      Effect: 'Allow',
      Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    });
    expect(JSON.stringify(cloudWatch.Condition.ArnLike['aws:SourceArn'])).toContain(':alarm:Crm-test-*');
    expect(statements).toContainEqual({
      Sid: 'GrantsForAwsServicesOnly',
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Action: 'kms:CreateGrant',
      Resource: '*',
      Condition: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
    });
  });

  test('its policy denies any publish without TLS and lets this stack’s alarms publish', () => {
    const [, policy] = only('AWS::SNS::TopicPolicy');
    expect(policy.Properties.Topics).toEqual([{ Ref: topicId }]);
    const statements = policy.Properties.PolicyDocument.Statement as Json[];
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 'sns:Publish',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        Principal: '*',
        Resource: { Ref: topicId },
      }),
    );
    const cloudWatch = statements.find((s) => s.Principal?.Service === 'cloudwatch.amazonaws.com')!;
    expect(cloudWatch).toMatchObject({
      Effect: 'Allow',
      Action: 'sns:Publish',
      Resource: { Ref: topicId },
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    });
    expect(JSON.stringify(cloudWatch.Condition.ArnLike['aws:SourceArn'])).toContain(':alarm:Crm-test-*');
  });

  test('every alarm of the stack notifies it on ALARM and on OK, named under the pattern the policies allow', () => {
    expect(alarms.length).toBe(alarmIds.length);
    expect(alarms.length).toBeGreaterThanOrEqual(routes.length + 1 + eventFunctions.length + 7);
    for (const [, alarm] of alarms) {
      expect(alarm.Properties).toMatchObject({ AlarmActions: [{ Ref: topicId }], OKActions: [{ Ref: topicId }] });
      /** Absent means enabled (CloudFormation's default). */
      expect(alarm.Properties.ActionsEnabled ?? true).toBe(true);
      expect(alarm.Properties.AlarmName).toMatch(/^Crm-test-\w+$/);
    }
    expect(alarms.map(([, a]) => a.Properties.AlarmName as string).sort()).toEqual(
      alarmIds.map((id) => `Crm-test-${id}`).sort(),
    );
  });

  test('its ARN is the output AlarmTopicArn', () => {
    expect(template.Outputs.AlarmTopicArn.Value).toEqual({ Ref: topicId });
  });
});

describe('delivery failures', () => {
  test('counted by the code (EMF), not by a log metric filter', () => {
    expect(ofType('AWS::Logs::MetricFilter')).toEqual([]);
    const found = alarms.filter(([, a]) => a.Properties.MetricName === 'DeliveriesFailed');
    expect(found).toHaveLength(1);
    expect(found[0]![1].Properties).toMatchObject({
      Namespace: 'Crm/test',
      Dimensions: [{ Name: 'service', Value: 'crm-ingest' }],
    });
  });
});

describe('dashboard', () => {
  test('one per stage, named after the stack and the stage, its name an output', () => {
    expect(dashboard.Properties.DashboardName).toBe('Crm-test');
    expect(template.Outputs.DashboardName.Value).toEqual({ Ref: only('AWS::CloudWatch::Dashboard')[0] });
    expect(dashboardName('Crm-test', 'test')).toBe('Crm-test');
    expect(dashboardName('Sandbox', 'test')).toBe('Sandbox-test');
  });

  test('widgets fit the 24-column grid', () => {
    for (const widget of widgets) expect(widget.x + widget.width).toBeLessThanOrEqual(24);
  });

  test('API: 4XXError and 5XXError (Sum), latency p50 and p99, on the stage’s API', () => {
    const errors = linesOf('API : réponses 4xx et 5xx (somme)');
    expect(errors.map((line) => [...line.slice(0, 4), optionsOf(line).stat])).toEqual([
      ['AWS/ApiGateway', '4XXError', 'ApiName', 'crm-test', 'Sum'],
      ['AWS/ApiGateway', '5XXError', 'ApiName', 'crm-test', 'Sum'],
    ]);
    const latency = linesOf('API : latence (ms)');
    expect(latency.map((line) => [...line.slice(0, 4), optionsOf(line).stat])).toEqual([
      ['AWS/ApiGateway', 'Latency', 'ApiName', 'crm-test', 'p50'],
      ['AWS/ApiGateway', 'Latency', 'ApiName', 'crm-test', 'p99'],
    ]);
  });

  test.each([
    ['Lambda : erreurs (somme)', 'Errors', 'Sum'],
    ['Lambda : limitations (somme)', 'Throttles', 'Sum'],
    ['Lambda : durée p50 (ms)', 'Duration', 'p50'],
    ['Lambda : durée p99 (ms)', 'Duration', 'p99'],
  ])('%s: one line per function, labelled with its name', (title, metricName, stat) => {
    const lines = linesOf(title);
    /** By name: the settings API's functions are built (in their nested stack) before the other routes'. */
    const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label);
    expect(
      lines
        .map((line) => ({
          metric: line.slice(0, 4),
          label: optionsOf(line).label as string,
          stat: optionsOf(line).stat,
        }))
        .sort(byLabel),
    ).toEqual(
      routeFunctions
        .map(({ name, logicalId }) => ({
          metric: ['AWS/Lambda', metricName, 'FunctionName', `{{Ref:${logicalId}}}`],
          label: name,
          stat,
        }))
        .sort(byLabel),
    );
  });

  test('DynamoDB: read and write throttles, system errors of the table', () => {
    const { tableId } = tablesOf(resources);
    const lines = linesOf('DynamoDB : requêtes limitées et erreurs système (somme)');
    const text = JSON.stringify(lines);
    for (const metric of ['ReadThrottleEvents', 'WriteThrottleEvents', 'SystemErrors']) expect(text).toContain(metric);
    for (const line of lines.filter((l) => l[0] === 'AWS/DynamoDB')) expect(line).toContain(`{{Ref:${tableId}}}`);
    expect(text).toContain('"label":"SystemErrors"');
  });

  test('outbound events: the stream’s iterator age, the four queues’ depth (delivery, follow-up, their dead letters), the stream records given up', () => {
    expect(JSON.stringify(linesOf('Événements : retard de lecture du flux (ms, max)'))).toContain('IteratorAge');
    const queueLines = linesOf('Événements : messages en file (max)');
    const queueIds = ofType('AWS::SQS::Queue').map(([id]) => `{{GetAtt:${id}.QueueName}}`);
    expect(queueIds).toHaveLength(4);
    for (const id of queueIds) expect(JSON.stringify(queueLines)).toContain(id);
    expect(JSON.stringify(queueLines)).toContain('ApproximateNumberOfMessagesDelayed');
    const givenUp = JSON.stringify(linesOf('Événements : enregistrements du flux abandonnés (somme)'));
    const [mappingId] = ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => m.Properties.DestinationConfig)!;
    for (const metricName of ['OnFailureDestinationDeliveredEventCount', 'DroppedEventCount']) {
      expect(givenUp).toContain(`"AWS/Lambda","${metricName}","EventSourceMappingUUID","{{Ref:${mappingId}}}"`);
    }
  });

  test('every business metric of lib/observability.ts, each in its own widget', () => {
    /** The names as the source declares them, so the list cannot drift from the type. */
    const source = readFileSync(new URL('../../lib/observability.ts', import.meta.url), 'utf8');
    const union = source.slice(
      source.indexOf('export type BusinessMetric'),
      source.indexOf('export type MetricDimension'),
    );
    const declared = [...union.matchAll(/\|\s*'(\w+)'/g)].map((match) => match[1]);
    expect(Object.keys(businessMetrics).sort()).toEqual(declared.sort());
    expect(declared.length).toBeGreaterThanOrEqual(13);

    for (const [metricName, { dimension, title }] of Object.entries(businessMetrics)) {
      const lines = linesOf(`${title} (${metricName})`);
      expect(lines).toHaveLength(1);
      const line = lines[0]!;
      if (dimension) {
        expect(optionsOf(line).expression).toBe(
          `SEARCH('{Crm/test,service,${dimension}} MetricName="${metricName}" service="crm-ingest"', 'Sum', 300)`,
        );
      } else {
        expect(line.slice(0, 4)).toEqual([metricNamespace('test'), metricName, 'service', metricsService]);
        expect(optionsOf(line).stat).toBe('Sum');
      }
    }
    expect(businessMetrics.LeadsRefused.dimension).toBe('code');
    expect(businessMetrics.RateLimited.dimension).toBe('limit');
  });

  test('the state of every alarm of the stack', () => {
    const status = widgets.filter((widget) => widget.type === 'alarm');
    expect(status).toHaveLength(1);
    expect((status[0]!.properties.alarms as string[]).sort()).toEqual(
      alarms.map(([id]) => `{{GetAtt:${id}.Arn}}`).sort(),
    );
  });
});

describe('docs/operations.md', () => {
  const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');

  test.each(alarmIds.map((id) => [id]))('explains the alarm %s', (id) => {
    expect(doc).toContain(`\`${id}\``);
  });

  test('tells how to find a request from its x-request-id, and how to receive the alarms', () => {
    for (const text of ['x-request-id', 'filter correlation_id', 'AlarmTopicArn', 'aws sns subscribe'])
      expect(doc).toContain(text);
  });
});
