import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { deployedWebhooks, webhookFunctionVariables } from '../../lib/settings/webhook-functions';
import type { Deps } from '../../lib/storage/client';
import type { DeliveryQueue } from '../../lib/domain/events/ports';
import type { ExportStore } from '../../lib/domain/export/export-store';
import { errorFields, logger } from '../../lib/observability';
import { functionTimeoutSeconds } from '../../lib/routes';
import { authorizerEntry, type DeployedRoute as Route } from '../../infra/cdk/route-grants';
import { localStage, within, type GatewayReply, type Invocations } from './api-gateway';

type LambdaFunction = (event: unknown, context: Context) => Promise<unknown>;
type Factory = 'createHandler' | 'createAuthorizer';

/** What the Lambda runtime hands a function next to its event; the memory is the stack's (infra/cdk/constructs/route-function.ts). */
export function lambdaContext(functionName: string, timeoutMs: number = functionTimeoutSeconds * 1000): Context {
  const [deadline, awsRequestId, day] = [Date.now() + timeoutMs, randomUUID(), new Date().toISOString().slice(0, 10)];
  const callbackStyle = () => {
    throw new Error('done/fail/succeed belong to the callback runtimes; handlers here are async');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${localStage.region}:${localStage.accountId}:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${day.replace(/-/g, '/')}/[$LATEST]${awsRequestId.replace(/-/g, '')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    ...{ done: callbackStyle, fail: callbackStyle, succeed: callbackStyle },
  };
}

/**
 * What the stack gives some route functions besides the table (infra/cdk/route-functions.ts): the secrets table's name,
 * the delivery queue (`npm start`'s, none when the table has no stream), the Lambda API once the server listens, and
 * the exports the server keeps and serves in place of the export bucket.
 */
export type LocalOutbound = {
  secretsTableName: string;
  queue?: DeliveryQueue | undefined;
  lambdaEndpoint?: string;
  exports: ExportStore;
};

/** Without a stream there is no delivery function to hand a message to: queuing fails, as SQS unreachable would. */
const noDeliveryQueue: DeliveryQueue = {
  send: () => Promise.reject(new Error("pas de file des envois : la table n'a pas de flux, aucun envoi possible")),
};

/** Where the functions' modules, which build their AWS handlers on import, find the delivery queue: any URL will do. */
export const localDeliveryQueueUrl = `https://sqs.${localStage.region}.amazonaws.com/${localStage.accountId}/crm-local-deliveries`;
/** The follow-up queue's stand-in URL, which the follow-up functions' modules read on import (never called). */
export const localFollowUpQueueUrl = `https://sqs.${localStage.region}.amazonaws.com/${localStage.accountId}/crm-local-follow-ups`;

/** Where the export routes' modules, which build their AWS handlers on import, find the bucket: any name will do. */
export const localExportBucketName = 'crm-local-exports';

/** The webhooks' functions named by their route ids: the same wiring as deployed, on this server's Lambda API. */
const webhookNames = Object.fromEntries(Object.entries(webhookFunctionVariables).map(([id, name]) => [name, id]));

/** A route's deps as the stack configures its function: only what its grants (infra/cdk/route-grants.ts) ask for. */
function routeDeps(deps: Deps, route: Route, outbound: LocalOutbound | undefined): Deps {
  if (route.queuesDeliveries) process.env.DELIVERY_QUEUE_URL ||= localDeliveryQueueUrl;
  if (route.invokesWebhooks) for (const [name, id] of Object.entries(webhookNames)) process.env[name] ||= id;
  if (route.keepsExports) process.env.EXPORT_BUCKET_NAME ||= localExportBucketName;
  const webhookEnv = { ...webhookNames, LAMBDA_ENDPOINT: outbound?.lambdaEndpoint };
  return {
    ...deps,
    network: 'local',
    ...(route.secretsTableActions && outbound ? { secretsTableName: outbound.secretsTableName } : {}),
    ...(route.queuesDeliveries ? { queue: outbound?.queue ?? noDeliveryQueue } : {}),
    ...(route.invokesWebhooks ? { webhooks: deployedWebhooks(webhookEnv, localStage.region) } : {}),
    ...(route.keepsExports && outbound ? { exports: outbound.exports } : {}),
  } as Deps;
}

/**
 * Each handler built once with `deps`, like a warm Lambda. Past its timeout an invocation fails ("Task
 * timed out") and "Lambda resets the execution environment" ("Understanding the Lambda execution
 * environment lifecycle", https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtime-environment.html):
 * the next one starts the function anew; the late call runs on, in `running` until it ends.
 */
export function lambdaInvocations(
  deps: Deps,
  timeoutMs: number,
  running: Set<Promise<unknown>>,
  outbound: LocalOutbound | undefined = undefined,
): Invocations {
  const loaded = new Map<string, Promise<LambdaFunction>>();
  const instance = (entry: string, factory: Factory, route?: Route): Promise<LambdaFunction> => {
    if (!loaded.has(entry)) {
      const functionDeps = route === undefined ? deps : routeDeps(deps, route, outbound);
      const module = import(`../../${entry}`) as Promise<Record<Factory, (deps: Deps) => LambdaFunction>>;
      const lambda = module.then((exports) => exports[factory](functionDeps));
      lambda.catch(() => loaded.delete(entry)); // a failed cold start is tried again, as Lambda does
      loaded.set(entry, lambda);
    }
    return loaded.get(entry) as Promise<LambdaFunction>;
  };
  const invoke = async (entry: string, factory: Factory, name: string, event: unknown, route?: Route) => {
    try {
      const invocation = (await instance(entry, factory, route))(event, lambdaContext(`crm-local-${name}`, timeoutMs));
      const forget = () => running.delete(invocation);
      running.add(invocation);
      void invocation.then(forget, forget);
      return await within(invocation, timeoutMs, () => {
        loaded.delete(entry);
        const timedOut = new Error(`Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
        timedOut.name = 'Sandbox.Timedout';
        return Promise.reject(timedOut);
      });
    } catch (error) {
      // What the Lambda runtime would write to the function's log before API Gateway answers 5xx.
      logger.error('function failed', { function: name, ...errorFields(error) });
      throw error;
    }
  };
  return {
    authorizer: (event) => invoke(authorizerEntry, 'createAuthorizer', 'authorizer', event),
    handler: (route, event) => invoke(route.entry, 'createHandler', route.id, event, route),
  };
}

/**
 * The Lambda API's Invoke for the functions of this runtime, named by their route ids: what another function's
 * `InvokeCommand` reaches ("Invoke", AWS Lambda API Reference, https://docs.aws.amazon.com/lambda/latest/api/API_Invoke.html).
 * The function's answer with 200; a function that failed or timed out still answers 200, with `X-Amz-Function-Error`
 * and its error's type and message; a name it does not run, 404 ResourceNotFoundException. A request without a
 * Signature Version 4 `Authorization` header is refused, as Lambda refuses it: only an SDK client invokes here, never
 * a web page, which cannot send that header to another origin without a preflight this server never grants.
 */
export async function lambdaApiReply(
  invocations: Invocations,
  routes: readonly Route[],
  request: { functionName: string; payload: string | undefined; authorization: string | undefined },
): Promise<GatewayReply> {
  const reply = (statusCode: number, body: unknown, headers: Record<string, string[]> = {}) => ({
    statusCode,
    headers: { 'Content-Type': ['application/json'], ...headers },
    body: Buffer.from(JSON.stringify(body)),
  });
  const errorType = (type: string) => ({ 'x-amzn-ErrorType': [type] });
  if (!request.authorization?.startsWith('AWS4-HMAC-SHA256 '))
    return reply(403, { message: 'Missing Authentication Token' }, errorType('MissingAuthenticationTokenException'));
  const route = routes.find((candidate) => candidate.id === request.functionName);
  const notFound = { Type: 'User', message: `Function not found: ${request.functionName}` };
  if (route === undefined) return reply(404, notFound, errorType('ResourceNotFoundException'));
  try {
    return reply(200, await invocations.handler(route, JSON.parse(request.payload || '{}') as never));
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    return reply(200, { errorType: name, errorMessage: message }, { 'X-Amz-Function-Error': ['Unhandled'] });
  }
}
