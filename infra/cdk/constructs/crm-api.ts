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
import { logRetention } from '../log-retention';

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
 * Far above the legitimate load (an API key may make 2 requests a second, a form tool a few)
 * and low enough that a flood cannot run up Lambda concurrency and the on-demand bill: at about
 * 50 ms a call, 50 requests a second keep some 5 executions of each function busy.
 */
export const stageThrottling = { rateLimit: 50, burstLimit: 100 } as const;

export type CrmApiProps = { stage: string };

/**
 * The REST API and its stage: access logs as above, execution logging at ERROR only (data tracing
 * would write request bodies and headers), no X-Ray on the stage (its segments record the full
 * URL, query string included), and API Gateway's own answers rewritten into the spec's shapes.
 */
export class CrmApi extends RestApi {
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
