import { recordingFollowUpQueue } from './follow-up-queue';
import { setTestQueueUrls } from './queue-urls';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { createAuthorizer } from '../../functions/authorizer';
import { loadSecretsTableName, productionDeps, type Deps } from '../../lib/storage/client';
import type { DeliveryMessage, DeliveryQueue } from '../../lib/domain/events/ports';
import type { StreamDeps } from '../../lib/domain/events/fan-out';
import { createHttpSender } from '../../lib/outbound/http-sender';
import { webhookFunctionVariables } from '../../lib/settings/webhook-functions';
import type { IdentityProvider } from '../../lib/domain/identity-provider';
import { createCognitoClient, createCognitoIdentityProvider } from '../../lib/identity/cognito';
import { loadIdentityConfig } from '../../lib/identity/config';
import { deployedRouteById as routeById, type DeployedRoute as Route } from '../../infra/cdk/route-grants';
import { aLambdaContext, aProxyEvent } from './events';
import { recordCalls, recordCognitoCalls, type RecordedCall, type RecordedCognitoCall } from './recorded-calls';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export type FunctionCall = {
  headers?: Record<string, string>;
  query?: Record<string, string>;
  pathParameters?: Record<string, string>;
  body?: unknown;
};

/**
 * Every function of the API, the authorizer and one per route, each built by its own
 * `createHandler(deps)` with its own DynamoDB client (the test run's DynamoDB Local), which
 * records every call: what each deployed function would send under its own role. A route's
 * function is built from its entry on its first request, as the local server does, so every
 * route of lib/routes.ts has one. Each route's `createHandler` is also given the identity provider
 * `poolIdentityProvider()` would build, the same configuration and client, its client recording every Cognito call
 * (`cognitoCalls`); a function that calls no identity provider takes no such argument and ignores it.
 */
export function recordedFunctions(clock?: () => Date) {
  const calls = new Map<string, RecordedCall[]>();
  const cognitoCalls = new Map<string, RecordedCognitoCall[]>();
  /** What the routes that queue deliveries sent (infra/cdk/route-grants.ts `queuesDeliveries`). */
  const queued: QueuedMessage[] = [];
  const depsOf = (name: string): Deps => {
    const deps = productionDeps();
    calls.set(name, recordCalls(deps.db));
    return clock ? { ...deps, clock } : deps;
  };
  // A function that queues deliveries builds its AWS handler on import, which reads the queue's URL: a fake one;
  // the replay's, the webhooks' functions' names.
  setTestQueueUrls();
  process.env[webhookFunctionVariables.ingestLead] ??= 'never-invoked-ingest-lead';
  process.env[webhookFunctionVariables.recruitment] ??= 'never-invoked-recruitment';
  /**
   * A route's function as the stack configures it (infra/cdk/route-functions.ts): the signing-secrets table's
   * name only to the routes that write secrets, the delivery queue only to those that queue, the webhooks'
   * functions (run here as Lambda runs them, under their own records) only to the replay, the export bucket only to the
   * exports; the local network.
   */
  const routeDepsOf = (route: Route): Deps =>
    ({
      ...depsOf(route.id),
      network: 'local',
      ...(route.secretsTableActions ? { secretsTableName: loadSecretsTableName() } : {}),
      ...(route.queuesDeliveries
        ? { queue: { send: async (sent: QueuedMessage[]) => void queued.push(...sent) } }
        : {}),
      ...(route.invokesWebhooks
        ? {
            webhooks: async (webhook: Route, event: APIGatewayProxyEvent) =>
              (await handlerOf(webhook))(event, aLambdaContext()),
          }
        : {}),
      // The export bucket: the flows export documents small enough to be answered, so nothing is kept there.
      ...(route.keepsExports ? { exports: { keep: async (name: string) => `https://exports.test/${name}` } } : {}),
    }) as Deps;
  const identityOf = (route: Route): IdentityProvider => {
    const config = loadIdentityConfig();
    if (config === undefined) throw new Error('no user pool configured (USER_POOL_ID): the test run starts one');
    const client = createCognitoClient(config);
    cognitoCalls.set(route.id, recordCognitoCalls(client));
    return createCognitoIdentityProvider(config, client);
  };
  const authorizer = createAuthorizer(depsOf('authorizer'));
  const handlers = new Map<string, Promise<Handler>>();
  const handlerOf = (route: Route): Promise<Handler> => {
    const built =
      handlers.get(route.id) ??
      (
        import(`../../${route.entry}`) as Promise<{
          createHandler: (deps: Deps, identity?: IdentityProvider) => Handler;
        }>
      ).then((module) => module.createHandler(routeDepsOf(route), identityOf(route)));
    handlers.set(route.id, built);
    return built;
  };

  /** One request as API Gateway makes it: the authorizer, then the route's handler with the authorizer's context. */
  async function request(routeId: string, call: FunctionCall = {}) {
    const route = routeById(routeId);
    const headers = call.headers ?? {};
    const query = call.query ?? null;
    const decision = await authorizer({
      type: 'REQUEST',
      methodArn: `arn:aws:execute-api:eu-west-3:123456789012:api/test/${route.method}${route.path}`,
      resource: route.path,
      path: route.path,
      httpMethod: route.method,
      headers,
      multiValueHeaders: {},
      pathParameters: call.pathParameters ?? null,
      queryStringParameters: query,
      multiValueQueryStringParameters: null,
      stageVariables: null,
      requestContext: {} as never,
    });
    const event = aProxyEvent({
      resource: route.path,
      path: route.path,
      httpMethod: route.method,
      headers,
      queryStringParameters: query,
      pathParameters: call.pathParameters ?? null,
      body: call.body === undefined ? null : JSON.stringify(call.body),
    });
    // As API Gateway hands it over on the default endpoint: the stage and the path the caller sent, the resource.
    const sentPath = route.path.replace(/\{(\w+)\}/g, (_, name: string) => call.pathParameters?.[name] ?? name);
    event.requestContext = {
      ...event.requestContext,
      domainName: 'api-id.execute-api.eu-west-3.amazonaws.com',
      stage: 'test',
      path: `/test${sentPath}`,
      resourcePath: route.path,
      identity: { sourceIp: '203.0.113.7' } as APIGatewayProxyEvent['requestContext']['identity'],
      authorizer: { ...decision.context, principalId: decision.principalId },
    };
    const response = await (await handlerOf(route))(event, aLambdaContext());
    // A 204 has no body.
    const body = response.body === '' ? {} : (JSON.parse(response.body) as Record<string, unknown>);
    return { status: response.statusCode, body };
  }

  return { calls, cognitoCalls, queued, request };
}

export type QueuedMessage = { message: DeliveryMessage; delaySeconds: number };

/**
 * The functions of outbound events, each built by its own `createHandler(deps)` with its own
 * recording DynamoDB client, as deployed but for the network: the local policy (plain http to
 * 127.0.0.1 allowed) and a queue that keeps what it is sent, in `queued`. Each module also builds
 * its AWS handler on import, as on a cold start, which needs a queue URL: a fake one, never called.
 * The sweep reads every workspace's pending deliveries: `sweepClock` sets its time, so that a test
 * sweeps only the deliveries it dated for it; the purge every workspace's settled deletions of a custom field:
 * `purgeClock`, the same way.
 */
export async function recordedEventFunctions(
  options: { sweepClock?: () => Date; purgeClock?: () => Date; eraseClock?: () => Date } = {},
) {
  const calls = new Map<string, RecordedCall[]>();
  const queued: QueuedMessage[] = [];
  const queue: DeliveryQueue = {
    send: async (messages) => {
      queued.push(...messages);
    },
  };
  const followUpQueue = recordingFollowUpQueue();
  const depsOf = (name: string): StreamDeps => {
    const deps = productionDeps();
    calls.set(name, recordCalls(deps.db));
    return { ...deps, queue, followUpQueue, send: createHttpSender('local'), network: 'local' };
  };
  setTestQueueUrls();
  /** One after the other: jest's ESM loader races on two dynamic imports sharing dependencies. */
  const streamModule = await import('../../functions/events/stream-handler');
  const deliveryModule = await import('../../functions/events/deliver-event');
  const sweepModule = await import('../../functions/events/sweep-deliveries');
  const purgeModule = await import('../../functions/events/purge-deleted-fields');
  const eraseModule = await import('../../functions/events/erase-records');
  const sweepDeps = depsOf('sweepDeliveries');
  // As deployed: the purge is given the table alone (no queue, no sender).
  const { db, tableName, clock, newId, metrics } = depsOf('purgeDeletedFields');
  const purgeDeps = { db, tableName, clock: options.purgeClock ?? clock, newId, metrics };
  // The erasures' background too: the table alone.
  const erasing = depsOf('eraseRecords');
  const eraseDeps = { ...erasing, clock: options.eraseClock ?? erasing.clock };
  return {
    calls,
    queued,
    streamHandler: streamModule.createHandler(depsOf('streamHandler')),
    // As deployed: the delivery function alone is given the signing-secrets table.
    deliverEvent: deliveryModule.createHandler({ ...depsOf('deliverEvent'), secretsTableName: loadSecretsTableName() }),
    sweepDeliveries: sweepModule.createHandler(
      options.sweepClock ? { ...sweepDeps, clock: options.sweepClock } : sweepDeps,
    ),
    purgeDeletedFields: purgeModule.createHandler(purgeDeps),
    eraseRecords: eraseModule.createHandler({
      db: eraseDeps.db,
      tableName: eraseDeps.tableName,
      clock: eraseDeps.clock,
      newId: eraseDeps.newId,
      metrics: eraseDeps.metrics,
    }),
  };
}
