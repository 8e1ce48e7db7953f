import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { webhookFunctionVariables, type WebhookFunctionNames } from '../../lib/settings/webhook-functions';
import type { DeployedRoute } from './route-grants';
import { concurrencyBudget } from './concurrency';
import type { ExportBucket } from './constructs/export-bucket';
import { RouteFunction } from './constructs/route-function';
import type { PowertoolsSettings } from './observability';
import { isSettingsRoute } from './settings-routes';
import { secretsTableStatements } from './table-access';

/** Serverless-LambdaDLQ on the API's functions. */
export const invokedByApiGateway =
  'API Gateway invokes these functions synchronously and gets the error back; a dead-letter queue only ever receives failed asynchronous invocations.';

/** The members' user pool and the service's app client (./constructs/user-pool.ts). */
export type MemberIdentity = { userPool: IUserPool; client: IUserPoolClient };

/**
 * What every route function of the stack shares; the signing-secrets table, the delivery queue, the webhooks'
 * functions and the export bucket are given to the routes whose line asks for them only (`secretsTableActions`,
 * `queuesDeliveries`, `invokesWebhooks`, `keepsExports`).
 */
export type RouteFunctionSettings = {
  table: ITable;
  powertools: PowertoolsSettings;
  identity: MemberIdentity;
  secretsTable: ITable;
  deliveryQueue: IQueue;
  /** Where the export routes keep a document too large to answer: the settings API's nested stack makes it. */
  exports?: ExportBucket;
  /** The two webhooks' functions, once made: the replay route invokes them. */
  webhookFunctions?: Record<keyof WebhookFunctionNames, IFunction>;
};

/**
 * Where a function that signs members in or verifies their tokens finds the pool: the pool id (the issuer of
 * its access tokens) and the service's app client id (their `client_id`); the client secret is read at cold
 * start with DescribeUserPoolClient, never passed here (docs/adr/0013-member-sign-in.md §2, §7).
 */
export const identityEnvironment = (identity: MemberIdentity): Record<string, string> => ({
  USER_POOL_ID: identity.userPool.userPoolId,
  USER_POOL_CLIENT_ID: identity.client.userPoolClientId,
});

export const constructId = (routeId: string): string => routeId.charAt(0).toUpperCase() + routeId.slice(1);

/**
 * The function of one route: its table actions on its partitions, its user-pool actions on the pool, its
 * credential's concurrency, and for the settings API the pool's ids.
 */
export function routeFunction(scope: Construct, route: DeployedRoute, settings: RouteFunctionSettings): RouteFunction {
  const webhooks = route.invokesWebhooks ? settings.webhookFunctions : undefined;
  if (route.invokesWebhooks && webhooks === undefined)
    throw new Error(`${route.id}: the webhooks' functions come first`);
  const fn = new RouteFunction(scope, constructId(route.id), {
    entry: route.entry,
    description: `${route.method} ${route.path}`,
    table: settings.table,
    tableActions: route.tableActions,
    tableKeys: route.tableKeys ?? {},
    identity: { userPool: settings.identity.userPool, actions: route.identityActions ?? [] },
    concurrency: concurrencyBudget[route.credential],
    environment: {
      ...(isSettingsRoute(route) ? identityEnvironment(settings.identity) : {}),
      ...(route.secretsTableActions ? { SECRETS_TABLE_NAME: settings.secretsTable.tableName } : {}),
      ...(route.queuesDeliveries ? { DELIVERY_QUEUE_URL: settings.deliveryQueue.queueUrl } : {}),
      ...(route.keepsExports ? { EXPORT_BUCKET_NAME: exportsOf(route, settings).bucket.bucketName } : {}),
      ...(webhooks
        ? {
            [webhookFunctionVariables.ingestLead]: webhooks.ingestLead.functionName,
            [webhookFunctionVariables.recruitment]: webhooks.recruitment.functionName,
          }
        : {}),
    },
    powertools: settings.powertools,
    noDeadLetterQueueReason: invokedByApiGateway,
  });
  // Writes only on the signing-secrets table (route-grants.ts `SecretsTableWrite`): no route function reads a secret.
  for (const statement of secretsTableStatements(settings.secretsTable, route.secretsTableActions ?? []))
    fn.addToRolePolicy(statement);
  if (route.queuesDeliveries) settings.deliveryQueue.grant(fn, 'sqs:SendMessage');
  if (route.keepsExports) exportsOf(route, settings).grantKeep(fn);
  // lambda:InvokeFunction on the two functions' unqualified ARNs alone, which an invocation by name needs ("Invoke",
  // AWS Lambda API Reference); `grantInvoke` would add `<arn>:*`, every version and alias.
  const invoked = Object.values(webhooks ?? {}).map((webhook) => webhook.functionArn);
  if (invoked.length > 0)
    fn.addToRolePolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: invoked }));
  return fn;
}

function exportsOf(route: DeployedRoute, settings: RouteFunctionSettings): ExportBucket {
  if (!settings.exports) throw new Error(`${route.id}: keeps exports, but no export bucket was given`);
  return settings.exports;
}
