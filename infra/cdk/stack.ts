import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  AuthorizationType,
  LambdaIntegration,
  RequestAuthorizer,
  type CfnAuthorizer,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { webhookUrl } from '../../lib/admin/webhooks';
import { authorizerEntry, routes, type TableAction } from '../../lib/routes';
import { AlarmTopic } from './constructs/alarm-topic';
import { Alarms } from './constructs/alarms';
import { CrmApi } from './constructs/crm-api';
import { OperationsDashboard } from './constructs/operations-dashboard';
import { OutboundEvents } from './constructs/outbound-events';
import { RouteFunction } from './constructs/route-function';
import { SigningSecretsTable } from './constructs/secrets-table';
import { SingleTable } from './constructs/single-table';
import { isPowertoolsLogLevel, metricNamespace, powertoolsLogLevels, type PowertoolsSettings } from './observability';

/** API key and endpoint lookups, then the endpoint's "last call received"; a member's membership and sign-out. */
export const authorizerTableActions: readonly TableAction[] = ['GetItem', 'UpdateItem', 'BatchGetItem'];

export const authorizerDescription = 'Lambda authorizer: API keys and webhook tokens';

/** Serverless-LambdaDLQ on the API's functions. */
const invokedByApiGateway =
  'API Gateway invokes these functions synchronously and gets the error back; a dead-letter queue only ever receives failed asynchronous invocations.';

export type CrmStackProps = StackProps & {
  stage: string;
  /** POWERTOOLS_LOG_LEVEL of every function, one of `powertoolsLogLevels`; INFO by default (`-c logLevel=DEBUG`). */
  logLevel?: string;
};

const constructId = (routeId: string): string => routeId.charAt(0).toUpperCase() + routeId.slice(1);

/** Everything the API needs, generated from the one route list and the one table definition. */
export class CrmStack extends Stack {
  constructor(scope: Construct, id: string, props: CrmStackProps) {
    super(scope, id, props);
    const logLevel = props.logLevel ?? 'INFO';
    if (!isPowertoolsLogLevel(logLevel)) {
      throw new Error(`Niveau de journalisation invalide : ${logLevel} (${powertoolsLogLevels.join(', ')})`);
    }
    const powertools: PowertoolsSettings = { metricsNamespace: metricNamespace(props.stage), logLevel };
    const table = new SingleTable(this, 'Table');
    /** A table of their own, without a stream (docs/adr/0012-signing-secrets-table.md). */
    const secretsTable = new SigningSecretsTable(this, 'SigningSecretsTable');
    const api = new CrmApi(this, 'Api', { stage: props.stage });

    const authorizerFunction = new RouteFunction(this, 'Authorizer', {
      entry: authorizerEntry,
      description: authorizerDescription,
      table,
      tableActions: authorizerTableActions,
      powertools,
      noDeadLetterQueueReason: invokedByApiGateway,
    });
    const authorizer = new RequestAuthorizer(this, 'RequestAuthorizer', {
      handler: authorizerFunction,
      identitySources: [],
      resultsCacheTtl: Duration.seconds(0),
    });
    /**
     * No identity source, so the authorizer runs for every request: with one, API Gateway would
     * answer 401 by itself when it is missing, where the spec wants 400 or 404 on the webhooks.
     * CDK writes an empty IdentitySource; the property is dropped so CloudFormation sees none.
     */
    (authorizer.node.defaultChild as CfnAuthorizer).addPropertyDeletionOverride('IdentitySource');

    const functions = new Map<string, IFunction>([['Authorizer', authorizerFunction]]);
    for (const route of routes) {
      const name = constructId(route.id);
      const handler = new RouteFunction(this, name, {
        entry: route.entry,
        description: `${route.method} ${route.path}`,
        table,
        tableActions: route.tableActions,
        powertools,
        noDeadLetterQueueReason: invokedByApiGateway,
      });
      functions.set(name, handler);
      /** Console test calls skip the authorizer: no permission for them. */
      api.root
        .resourceForPath(route.path)
        .addMethod(route.method, new LambdaIntegration(handler, { allowTestInvoke: false }), {
          authorizer,
          authorizationType: AuthorizationType.CUSTOM,
        });
    }

    const events = new OutboundEvents(this, 'Events', { table, secretsTable, powertools });
    functions.set('StreamHandler', events.streamHandler);
    functions.set('DeliverEvent', events.deliverEvent);
    functions.set('SweepDeliveries', events.sweepDeliveries);

    const { topic } = new AlarmTopic(this, 'AlarmTopic', { stage: props.stage });
    const { alarms } = new Alarms(this, 'Alarms', { stage: props.stage, api, functions, table, events, topic });
    const { dashboard } = new OperationsDashboard(this, 'Operations', {
      stage: props.stage,
      api,
      functions,
      table,
      events,
      alarms,
    });

    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'PUBLIC_BASE_URL of the admin command line' });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'TABLE_NAME of the admin command line' });
    new CfnOutput(this, 'SecretsTableName', {
      value: secretsTable.tableName,
      description: 'SECRETS_TABLE_NAME of the admin command line (subscription commands)',
    });
    new CfnOutput(this, 'WebhookUrlPattern', {
      value: webhookUrl(api.url, '<endpoint_id>'),
      description: 'Lead webhook URL; endpoint_id comes from `admin webhook status`',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: topic.topicArn,
      description: 'SNS topic every alarm notifies: subscribe people and chat channels to it (docs/operations.md)',
    });
    new CfnOutput(this, 'DashboardName', {
      value: dashboard.dashboardName,
      description: 'CloudWatch dashboard of the stage (docs/operations.md)',
    });
    new CfnOutput(this, 'DeliveryDeadLetterQueueName', {
      value: events.deliveryDeadLetterQueue.queueName,
      description: 'Outbound events: delivery messages whose function kept failing (docs/deploy.md)',
    });
    new CfnOutput(this, 'StreamFailureBucketName', {
      value: events.streamFailureBucket.bucketName,
      description:
        'Outbound events: stream batches given up, kept whole; STREAM_FAILURE_BUCKET of `admin stream replay --aws` (docs/operations.md)',
    });
    new CfnOutput(this, 'DeliveryQueueUrl', {
      value: events.deliveryQueue.queueUrl,
      description: 'Outbound events: DELIVERY_QUEUE_URL of `admin stream replay --aws` (docs/operations.md)',
    });

    Validations.of(api).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'The handlers validate requests: API Gateway request validation would answer 400 in its own body shape where the specification wants 404 not_found for a lead webhook call without endpoint_id.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'Authentication is by API key and webhook token through a Lambda authorizer by design; there are no Cognito users.',
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          'The account-level role API Gateway writes execution logs with: AWS maintains this policy for exactly that purpose, and no function uses the role.',
      },
      {
        id: 'Serverless-APIGWXrayEnabled',
        reason:
          'X-Ray is on for the functions only: API Gateway segments record the full URL, query string included, where a webhook token may travel.',
      },
    );
  }
}
