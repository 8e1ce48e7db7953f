import {
  AccessLogFormat,
  EndpointType,
  LogGroupLogDestination,
  MethodLoggingLevel,
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
import { requestLimit } from '../../../lib/domain/rate-limit';
import { logRetention } from '../log-retention';
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

/**
 * The stage throttle is shared by every workspace, so it is sized for many of them at once, not
 * for one: `expectedActiveWorkspaces` workspaces each using one API key at its full per-key limit
 * (120 a minute, lib/domain/rate-limit.ts), plus a quarter more for the webhooks, rounded up to
 * a multiple of 50; the burst absorbs two seconds of that. One client cannot take it all: the WAF
 * caps one IP address at 10 requests a second (../waf-rules.ts). Lambda: a request is two short
 * invocations (authorizer, then handler, about 40 ms warm together), so the rate keeps some
 * 10 executions busy, 250 if every call took a full second: within the default 1,000 concurrent
 * executions of an account. Numbers and reasons: docs/deploy.md.
 */
export const expectedActiveWorkspaces = 100;

const webhookHeadroom = 1.25;
/** 100 × 120 / 60 × 1.25 = 250 requests a second. */
const stageRate = Math.ceil((expectedActiveWorkspaces * (requestLimit / 60) * webhookHeadroom) / 50) * 50;

export const stageThrottling = { rateLimit: stageRate, burstLimit: 2 * stageRate } as const;

export type CrmApiProps = { stage: string };

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
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        tracingEnabled: false,
        throttlingRateLimit: stageThrottling.rateLimit,
        throttlingBurstLimit: stageThrottling.burstLimit,
      },
    });
    /** Created before the stage, so execution logs land in a group with a retention, not a never-expiring one. */
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.restApiId}/${props.stage}`,
      retention: logRetention,
    });
    this.deploymentStage.node.addDependency(executionLogs);
    /** AWS WAF in front of the stage: per-IP rate limit, and bodies too large for the functions (../waf-rules.ts). */
    this.webAcl = new ApiWebAcl(this, 'Firewall', { stage: this.deploymentStage, name: `crm-${props.stage}` });
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
