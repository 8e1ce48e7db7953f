import {
  AccessLogFormat,
  EndpointType,
  LogGroupLogDestination,
  MethodLoggingLevel,
  type MethodDeploymentOptions,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import {
  gatewayResponseHeaders,
  gatewayResponses,
  gatewayResponseTemplate,
  type GatewayResponseType,
} from '../gateway-responses';
import { requestLimit } from '../../../lib/storage/rate-limit';
import type { Credential, Route } from '../../../lib/routes';
import { logRetention } from '../log-retention';
import { pageResourcePaths } from '../settings-page';
import { ApiWebAcl } from './web-acl';

/**
 * One JSON line per request, without the query string (a webhook token may travel in ?token=),
 * without any header (Authorization, x-webhook-token, User-Agent) and without the concrete path:
 * the route's template says which route ran, and a path is whatever the caller typed. No value
 * can hold a double quote (no error message, nothing the caller wrote), so each line stays JSON.
 */
export const accessLogFields = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationStatus: '$context.integration.status',
  integrationLatency: '$context.integration.latency',
  authorizerStatus: '$context.authorizer.status',
  authorizerLatency: '$context.authorizer.integrationLatency',
  principalId: '$context.authorizer.principalId',
  errorType: '$context.error.responseType',
} as const;

/** The workspaces the throttles are sized for, all active at once. Numbers and reasons: docs/deploy.md#method-throttles. */
export const expectedActiveWorkspaces = 100;

/**
 * Each route's own throttle, by its family. API Gateway applies a stage's throttle per method, not to
 * the stage as a whole: "Per-API, per-stage throttling limits are applied at the API method level for a
 * stage. You can configure the same settings for all methods, or configure different throttle settings
 * for each method" ("Throttle requests to your REST APIs for better throughput in API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-request-throttling.html: a
 * token bucket per method, refilled at `rateLimit` a second, holding `burstLimit`). So a route draws
 * only from its own bucket, and a flood of one family never empties the other's. What every route does
 * share is the authorizer: its reserved concurrency is sized from the sum of these rates (../concurrency.ts).
 *
 * The Prospect API: `expectedActiveWorkspaces` workspaces each using one API key at its full per-key
 * limit (120 a minute, lib/storage/rate-limit.ts) on the same method, as a synchronisation job does:
 * 100 × 120 / 60 = 200 requests a second, two seconds of it as burst; the per-key limit refuses more
 * anyway. The webhooks have no per-key limit and take a form campaign's bursts from a few form-tool
 * addresses: 250 a second, burst 500, what every method had before.
 */
export const methodThrottling: Readonly<Record<Credential, { rateLimit: number; burstLimit: number }>> = {
  'api-key': {
    rateLimit: (expectedActiveWorkspaces * requestLimit) / 60,
    burstLimit: (2 * expectedActiveWorkspaces * requestLimit) / 60,
  },
  'webhook-token': { rateLimit: 250, burstLimit: 500 },
  /**
   * The settings API and its sign-in routes: people at a screen, not machines. A settings method serves
   * `expectedActiveWorkspaces` people each acting on the same screen once every 5 seconds at once: 20 a
   * second, two seconds of it as burst; each member is held to 120 a minute by the service (docs/api.md#settings-api),
   * each address to as many by the web ACL (../waf-rules.ts `settingsRateLimit`), a tenth of this throttle.
   * Sign-in and reset, the same: a person signs in about once a month (a refresh token lasts 30 days) and
   * refreshes once an hour; guessing is answered 429 per e-mail by the service (10 failures in 15 minutes),
   * per account by Cognito's lockout, per address by the web ACL, and this bucket caps it for everyone at 20 a
   * second. Small on purpose: the authorizer, which every request of every method runs, has a reservation
   * sized from the sum of all the methods' rates (../concurrency.ts), and the settings API has about forty.
   */
  'member-token': { rateLimit: 20, burstLimit: 40 },
  none: { rateLimit: 20, burstLimit: 40 },
};

/**
 * `GET /members` and `GET /fields` (docs/api.md#list-members, #custom-fields), the Prospect API's two look-ups, an
 * eighth of their family's rate each: an integration reads the members to turn a name into a `setter_id`, and the
 * custom fields to map a form's questions, and keeps both, which change only when an administrator edits them; so it
 * calls them far less than a synchronisation job calls the others. The authorizer's reservation is sized from the sum
 * of every method's rate (../concurrency.ts): together they keep the quarter the members' look-up had alone, where one
 * more method at the family's 200 a second would push the sum past what two stages in one account leave unreserved
 * (docs/deploy.md#concurrency-budget).
 */
export const lookupThrottling = {
  rateLimit: methodThrottling['api-key'].rateLimit / 8,
  burstLimit: methodThrottling['api-key'].burstLimit / 8,
} as const;

/**
 * `POST`, `PATCH` and `DELETE …/fields` (docs/api.md#custom-fields) and `PATCH /workspaces/{w}` (its settings,
 * docs/api.md#workspaces), a quarter of a settings method's rate: an admin defines a workspace's custom fields and sets
 * its time zone a few times in its life, one click at a time. Four more settings methods at 20 a second would, for the
 * same sum, not fit the concurrency budget (docs/deploy.md#method-throttles).
 */
export const settingsEditThrottling = {
  rateLimit: methodThrottling['member-token'].rateLimit / 4,
  burstLimit: methodThrottling['member-token'].burstLimit / 4,
} as const;

/**
 * A person's rights (docs/api.md#erasure-export-and-retention): an erasure or an export of one person is a request
 * an admin answers within a month, one click after a confirmation; one a second for the whole API holds every
 * workspace's. Each adds a tenth of a unit to the route functions' peak (../concurrency.ts).
 */
export const privacyThrottling = { rateLimit: 1, burstLimit: 2 } as const;

const lookups: readonly string[] = ['listAssignableMembers', 'listCustomFields'];
const privacyRoutes: readonly string[] = [
  'eraseWorkspaceProspect',
  'eraseWorkspaceCandidate',
  'findWorkspaceCandidates',
  'exportWorkspaceProspect',
  'exportWorkspaceCandidate',
];
const settingsEdits: readonly string[] = ['createField', 'changeField', 'deleteField', 'changeWorkspace'];

/**
 * A route's method throttle: its family's, but for the look-ups' (`lookupThrottling`), the rare edits' and a person's
 * rights' (`privacyThrottling`).
 */
export const methodThrottleOf = (route: Pick<Route, 'id' | 'credential'>): { rateLimit: number; burstLimit: number } =>
  lookups.includes(route.id)
    ? lookupThrottling
    : settingsEdits.includes(route.id)
      ? settingsEditThrottling
      : privacyRoutes.includes(route.id)
        ? privacyThrottling
        : methodThrottling[route.credential];

/**
 * The settings page's two methods (./settings-page.ts), outside the route list: a person's browser asks for the page
 * at each visit and for its two files once a release (cached a year). Each method holds `expectedActiveWorkspaces`
 * people opening the page within 5 seconds, as a settings method does; neither runs the authorizer or a function,
 * so neither counts in their concurrency (../concurrency.ts).
 */
export const pageThrottling = { rateLimit: 20, burstLimit: 40 } as const;

/** The stage-wide default (path `/*` and method `*`): only a method outside the route list and the page would use it; none does. */
export const stageThrottling = { rateLimit: 250, burstLimit: 500 } as const;

/** Set on every method as on the stage, so that nothing depends on what a method setting inherits. */
const methodLogging = { loggingLevel: MethodLoggingLevel.ERROR, dataTraceEnabled: false } as const;

/** Every route's method setting, keyed as CDK wants it (`/<path>/<METHOD>`). */
export const routeMethodOptions = (routes: readonly Route[]): Readonly<Record<string, MethodDeploymentOptions>> =>
  Object.fromEntries(
    routes.map((route) => [
      `${route.path}/${route.method}`,
      {
        ...methodLogging,
        throttlingRateLimit: methodThrottleOf(route).rateLimit,
        throttlingBurstLimit: methodThrottleOf(route).burstLimit,
      },
    ]),
  );

/** The page's method settings, keyed as `routeMethodOptions` keys a route's. */
export const pageMethodOptions: Readonly<Record<string, MethodDeploymentOptions>> = Object.fromEntries(
  Object.values(pageResourcePaths).map((path) => [
    `${path}/GET`,
    {
      ...methodLogging,
      throttlingRateLimit: pageThrottling.rateLimit,
      throttlingBurstLimit: pageThrottling.burstLimit,
    },
  ]),
);

export type CrmApiProps = { stage: string; routes: readonly Route[] };

/**
 * The REST API and its stage: access logs as above, execution logging at ERROR only (data tracing
 * would write request bodies and headers), no X-Ray on the stage (its segments record the full
 * URL, query string included), API Gateway's own answers rewritten into the spec's standard shape,
 * and a WAF web ACL on the stage.
 */
export class CrmApi extends RestApi {
  readonly webAcl: ApiWebAcl;

  constructor(scope: Construct, id: string, props: CrmApiProps) {
    const accessLogs = new LogGroup(scope, `${id}AccessLogs`, { retention: logRetention });
    super(scope, id, {
      restApiName: `crm-${props.stage}`,
      description: `CRM ingestion API (${props.stage})`,
      /** Callers are servers (form tools, integrations): no CloudFront hop in front of the region. */
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      /** Execution logging needs the account's API Gateway → CloudWatch role; the stack sets it. */
      cloudWatchRole: true,
      deployOptions: {
        stageName: props.stage,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
        ...methodLogging,
        tracingEnabled: false,
        throttlingRateLimit: stageThrottling.rateLimit,
        throttlingBurstLimit: stageThrottling.burstLimit,
        methodOptions: { ...routeMethodOptions(props.routes), ...pageMethodOptions },
      },
    });
    /** Created before the stage, so execution logs land in a group with a retention, not a never-expiring one. */
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.restApiId}/${props.stage}`,
      retention: logRetention,
    });
    this.deploymentStage.node.addDependency(executionLogs);
    /** AWS WAF in front of the stage: per-IP and anonymous rate limits, bodies too large for the functions (../waf-rules.ts). */
    this.webAcl = new ApiWebAcl(this, 'Firewall', {
      stage: this.deploymentStage,
      name: `crm-${props.stage}`,
      routes: props.routes,
    });
    for (const type of Object.keys(gatewayResponses) as GatewayResponseType[]) {
      this.addGatewayResponse(type, {
        type: ResponseType.of(type),
        statusCode: gatewayResponses[type].statusCode?.toString(),
        responseHeaders: gatewayResponseHeaders,
        templates: { 'application/json': gatewayResponseTemplate(type) },
      });
    }
  }
}
