import { createAuthorizer } from '../../functions/authorizer';
import { productionDeps, type Deps } from '../../lib/deps';
import { routeById } from '../../lib/routes';
import { aLambdaContext, aProxyEvent } from './events';
import { recordCalls, type RecordedCall } from './recorded-calls';
import { handlerFactories } from './route-calls';

export type FunctionCall = {
  headers?: Record<string, string>;
  query?: Record<string, string>;
  pathParameters?: Record<string, string>;
  body?: unknown;
};

/**
 * Every function of the API, the authorizer and one per route, each built by its own
 * `createHandler(deps)` with its own DynamoDB client (the test run's DynamoDB Local), which
 * records every call: what each deployed function would send under its own role.
 */
export function recordedFunctions(clock?: () => Date) {
  const calls = new Map<string, RecordedCall[]>();
  const depsOf = (name: string): Deps => {
    const deps = productionDeps();
    calls.set(name, recordCalls(deps.db));
    return clock ? { ...deps, clock } : deps;
  };
  const authorizer = createAuthorizer(depsOf('authorizer'));
  const handlers = new Map(Object.entries(handlerFactories).map(([id, factory]) => [id, factory(depsOf(id))]));

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
    event.requestContext = {
      ...event.requestContext,
      authorizer: { ...decision.context, principalId: decision.principalId },
    };
    const handler = handlers.get(routeId);
    if (!handler) throw new Error(`no handler for ${routeId}`);
    const response = await handler(event, aLambdaContext());
    return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, unknown> };
  }

  return { calls, request };
}
