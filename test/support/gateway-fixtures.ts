import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { matchRoute, proxyEvent, type IncomingRequest } from '../../tools/local/api-gateway';
import { type DeployedRoute as Route } from '../../infra/cdk/route-grants';

/** A route of the list, by default POST notes: the local gateway's tests route with a few of these. */
const aRoute = (overrides: Partial<Route> = {}): Route => ({
  id: 'addNote',
  method: 'POST',
  path: '/prospects/{prospect_id}/notes',
  entry: 'functions/prospect-api/add-note.ts',
  credential: 'api-key',
  errorShape: 'standard',
  tableActions: [],
  ...overrides,
});

export const testRoutes: readonly Route[] = [
  aRoute({ id: 'listPipelines', method: 'GET', path: '/pipelines' }),
  aRoute(),
  aRoute({ id: 'removeTag', method: 'DELETE', path: '/prospects/{prospect_id}/tags/{tag}' }),
  aRoute({ id: 'ingestLead', method: 'POST', path: '/webhooks/ingest-lead', errorShape: 'lead' }),
];

/** A function that answers 200 and keeps its calls: did the gateway invoke it, and with what? */
export const aCountingFunction = () => {
  const calls: unknown[] = [];
  return Object.assign(
    async (...args: unknown[]) => {
      calls.push(args);
      return { statusCode: 200, body: '{"ok":true}' };
    },
    { calls },
  );
};

/** A REQUEST authorizer event as API Gateway sends it, for GET /pipelines unless told otherwise. */
export const anAuthorizerEvent = (
  overrides: Partial<APIGatewayRequestAuthorizerEvent> = {},
): APIGatewayRequestAuthorizerEvent => ({
  type: 'REQUEST',
  methodArn: 'arn:aws:execute-api:eu-west-3:123456789012:api/prod/GET/pipelines',
  resource: '/pipelines',
  path: '/pipelines',
  httpMethod: 'GET',
  headers: {},
  multiValueHeaders: {},
  pathParameters: null,
  queryStringParameters: null,
  multiValueQueryStringParameters: null,
  stageVariables: null,
  requestContext: {} as never,
  ...overrides,
});

/** A request as the local gateway receives it from Node, GET /pipelines unless told otherwise. */
export const anIncomingRequest = (overrides: Partial<IncomingRequest> = {}): IncomingRequest => ({
  method: 'GET',
  target: '/pipelines',
  rawHeaders: ['Host', '127.0.0.1:3000'],
  body: '',
  sourceIp: '127.0.0.1',
  httpVersion: '1.1',
  ...overrides,
});

/** The ids and time the gateway stamps on a request. */
export const gatewayIds = {
  requestId: 'request-1',
  extendedRequestId: 'extended-1',
  now: new Date('2024-03-05T08:09:10.123Z'),
};

/** The proxy event of a request routed among `testRoutes`. */
export function eventFor(overrides: Partial<IncomingRequest> = {}) {
  const incoming = anIncomingRequest(overrides);
  const match = matchRoute(testRoutes, incoming.method, incoming.target.split('?')[0] ?? '');
  if (!match) throw new Error(`no route for ${incoming.method} ${incoming.target}`);
  return proxyEvent(incoming, match, gatewayIds);
}
