import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  AuthorizationType,
  LambdaIntegration,
  RequestAuthorizer,
  type CfnAuthorizer,
} from 'aws-cdk-lib/aws-apigateway';
import { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { webhookUrl } from '../../lib/settings/webhook-status';
import { tableDefinition } from './table-definition';
import { messages } from '../../lib/messages';
import { checkedRoutes } from '../../lib/routes';
import {
  authorizerEntry,
  authorizerTableKeys,
  deployedRoutes,
  type DeployedRoute,
  type ItemAction,
  type TableAction,
  type TableKeys,
} from './route-grants';
import { nagPolicy } from './nag';
import { AlarmTopic } from './constructs/alarm-topic';
import { Alarms } from './constructs/alarms';
import { CrmApi } from './constructs/crm-api';
import { FollowUpsDue } from './constructs/follow-ups-due';
import { Erasure } from './constructs/erasure';
import { OperationsDashboard } from './constructs/operations-dashboard';
import { OutboundEvents } from './constructs/outbound-events';
import { RouteFunction } from './constructs/route-function';
import { SigningSecretsTable } from './constructs/secrets-table';
import { SettingsFunctions } from './constructs/settings-functions';
import { SettingsPage } from './constructs/settings-page';
import { SingleTable } from './constructs/single-table';
import { MemberUserPool, type SesSender } from './constructs/user-pool';
import { pagePath } from './settings-page';
import { isSettingsRoute } from './settings-routes';
import { isPowertoolsLogLevel, metricNamespace, powertoolsLogLevels, type PowertoolsSettings } from './observability';
import {
  constructId,
  identityEnvironment,
  invokedByApiGateway,
  routeFunction,
  type RouteFunctionSettings,
} from './route-functions';

/**
 * Exactly the item actions the route list gives the authorizer partitions for (`authorizerTableKeys`): API key and
 * endpoint lookups, then the endpoint's "last call received"; a member's membership and sign-out.
 */
export const authorizerTableActions: readonly TableAction[] = (
  Object.keys(authorizerTableKeys) as (keyof TableKeys)[]
).filter((action): action is ItemAction => action !== 'indexes');

export const authorizerDescription = 'Lambda authorizer: API keys and webhook tokens';

/**
 * The stage people use: its members' invitations and reset codes must arrive, so it sends them through SES. Cognito's
 * own sender "limits the number of emails it sends each day for your user pool ... For typical production
 * environments, the default email limit is below the required delivery volume" ("Email settings for Amazon Cognito
 * user pools", https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-email.html), and with it "the
 * following parameters aren't allowed", InviteMessageTemplate.EmailMessage and EmailSubject among them, the French
 * invitation the pool sets ("EmailConfigurationType", EmailSendingAccount,
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_EmailConfigurationType.html).
 */
export const productionStage = 'prod';

export type CrmStackProps = StackProps & {
  stage: string;
  /** POWERTOOLS_LOG_LEVEL of every function, one of `powertoolsLogLevels`; INFO by default (`-c logLevel=DEBUG`). */
  logLevel?: string;
  /** The SES identity the members' pool sends from (`-c sesFromEmail=…`); Cognito's own sender otherwise (docs/deploy.md). */
  sesSender?: SesSender;
  /** Cognito threat protection on the members' pool, with the Plus feature plan (`-c threatProtection=on`). */
  threatProtection?: boolean;
  /** The route list the stack is built from, checked (`checkedRoutes`): lib/routes.ts's; a test may add routes. */
  routes?: readonly DeployedRoute[];
  /**
   * How many of the table's indexes to declare (`-c tableIndexes=5`), all by default: an existing table takes one new
   * index per deployment (docs/deploy.md#new-indexes). At least the indexes it had before the lists of prospects.
   */
  tableIndexes?: number;
};

/** The indexes every deployed table has had since before the lists of prospects (gsi1 to gsi4). */
const indexesBeforeLists = 4;

function checkedIndexCount(count: number | undefined): number {
  const all = tableDefinition.globalSecondaryIndexes.length;
  if (count === undefined) return all;
  if (!Number.isInteger(count) || count < indexesBeforeLists || count > all) {
    throw new Error(messages.deployment.invalidTableIndexes(String(count), indexesBeforeLists, all));
  }
  return count;
}

/** Everything the API needs, generated from the one route list and the one table definition. */
export class CrmStack extends Stack {
  constructor(scope: Construct, id: string, props: CrmStackProps) {
    super(scope, id, props);
    if (props.stage === productionStage && props.sesSender === undefined) {
      throw new Error(messages.deployment.productionWithoutSesSender(props.stage));
    }
    /** Before anything is made: a route under a workspace without a role stops the synthesis (lib/routes.ts). */
    const routes = checkedRoutes(props.routes ?? deployedRoutes);
    const logLevel = props.logLevel ?? 'INFO';
    if (!isPowertoolsLogLevel(logLevel)) {
      throw new Error(`Niveau de journalisation invalide : ${logLevel} (${powertoolsLogLevels.join(', ')})`);
    }
    const powertools: PowertoolsSettings = { metricsNamespace: metricNamespace(props.stage), logLevel };
    const table = new SingleTable(this, 'Table', checkedIndexCount(props.tableIndexes));
    /** A table of their own, without a stream (docs/adr/0012-signing-secrets-table.md). */
    const secretsTable = new SigningSecretsTable(this, 'SigningSecretsTable');
    const api = new CrmApi(this, 'Api', { stage: props.stage, routes });
    const members = new MemberUserPool(this, 'Members', {
      stage: props.stage,
      sesSender: props.sesSender,
      threatProtection: props.threatProtection,
    });
    const identity = { userPool: members.userPool, client: members.client };

    const authorizerFunction = new RouteFunction(this, 'Authorizer', {
      entry: authorizerEntry,
      description: authorizerDescription,
      table,
      tableActions: authorizerTableActions,
      /** The members' access tokens are verified against the pool's issuer and the service's client id. */
      environment: identityEnvironment(identity),
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

    const events = new OutboundEvents(this, 'Events', { table, secretsTable, powertools });
    /** `prospect.follow_up_due`: the follow-up queue, its sweep and send, and the stream handler's part in it. */
    const followUps = new FollowUpsDue(this, 'FollowUps', {
      table,
      secretsTable,
      powertools,
      streamHandler: events.streamHandler,
    });
    /** The copies of erased prospects and candidates, deleted in the background. */
    const erasure = new Erasure(this, 'Erasure', { table, secretsTable, powertools });
    const settings: RouteFunctionSettings = {
      table,
      powertools,
      identity,
      secretsTable,
      deliveryQueue: events.deliveryQueue,
    };
    const settingsRoutes = routes.filter(isSettingsRoute);
    // The main stack's functions first: the settings API's replay invokes the webhooks' functions.
    const mainFunctions = new Map<string, IFunction>(
      routes
        .filter((route) => !isSettingsRoute(route))
        .map((route) => [route.id, routeFunction(this, route, settings)]),
    );
    const [ingestLead, recruitment] = [mainFunctions.get('ingestLead'), mainFunctions.get('recruitment')];
    const webhookFunctions = ingestLead && recruitment ? { ingestLead, recruitment } : undefined;
    /** A nested stack only when there is a settings route: CloudFormation refuses a template without resources. */
    const settingsFunctions =
      settingsRoutes.length > 0
        ? new SettingsFunctions(this, 'SettingsApi', { ...settings, webhookFunctions, routes: settingsRoutes })
            .functions
        : new Map<string, IFunction>();
    const functions = new Map<string, IFunction>([['Authorizer', authorizerFunction]]);
    for (const route of routes) {
      const handler = settingsFunctions.get(route.id) ?? mainFunctions.get(route.id);
      if (handler === undefined) throw new Error(`${route.id}: no function`);
      functions.set(constructId(route.id), handler);
      /** Console test calls skip the authorizer: no permission for them. */
      api.root
        .resourceForPath(route.path)
        .addMethod(route.method, new LambdaIntegration(handler, { allowTestInvoke: false }), {
          authorizer,
          authorizationType: AuthorizationType.CUSTOM,
        });
    }

    /** The settings page, on the API's own stage (docs/adr/0015-settings-page-served-by-api-gateway.md). */
    new SettingsPage(this, 'SettingsPage', { api });

    functions.set('StreamHandler', events.streamHandler);
    functions.set('DeliverEvent', events.deliverEvent);
    functions.set('SweepDeliveries', events.sweepDeliveries);
    functions.set('PurgeDeletedFields', events.purgeDeletedFields);
    functions.set('SweepFollowUps', followUps.sweepFollowUps);
    functions.set('SendFollowUpDue', followUps.sendFollowUpDue);
    functions.set('EraseRecords', erasure.eraseRecords);

    const { topic } = new AlarmTopic(this, 'AlarmTopic', { stage: props.stage });
    const { alarms } = new Alarms(this, 'Alarms', {
      stage: props.stage,
      api,
      functions,
      table,
      events,
      followUps,
      erasure,
      topic,
    });
    const { dashboard } = new OperationsDashboard(this, 'Operations', {
      stage: props.stage,
      api,
      functions,
      table,
      events,
      followUps,
      alarms,
    });

    new CfnOutput(this, 'UserPoolId', {
      value: members.userPool.userPoolId,
      description: 'USER_POOL_ID: the members’ Cognito user pool (docs/deploy.md#member-sign-in)',
    });
    new CfnOutput(this, 'UserPoolClientId', {
      value: members.client.userPoolClientId,
      description:
        'USER_POOL_CLIENT_ID: the service’s app client of that pool; its secret is read with DescribeUserPoolClient',
    });
    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'PUBLIC_BASE_URL of the admin command line' });
    new CfnOutput(this, 'SettingsPageUrl', {
      value: `${api.url}${pagePath.slice(1)}`,
      description: 'The settings page, on the API’s own origin (docs/deploy.md)',
    });
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
    new CfnOutput(this, 'FollowUpQueueUrl', {
      value: followUps.followUpQueue.queueUrl,
      description: 'Follow-ups falling due: FOLLOW_UP_QUEUE_URL of `admin stream replay --aws` (docs/operations.md)',
    });
    new CfnOutput(this, 'FollowUpDeadLetterQueueName', {
      value: followUps.followUpDeadLetterQueue.queueName,
      description: 'Follow-ups falling due: follow-up messages whose function kept failing (docs/operations.md)',
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
          'One Lambda authorizer for every credential by design: API keys, webhook tokens, and the members’ Cognito access tokens, which it verifies with aws-jwt-verify beside the membership and sign-out records a Cognito authorizer cannot read (docs/adr/0013-member-sign-in.md).',
      },
      {
        id: `AwsSolutions-IAM4[${nagPolicy(api, ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs'))}]`,
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
