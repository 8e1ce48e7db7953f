import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { createHandler as addNote } from '../../functions/prospect-api/add-note';
import { createHandler as addTag } from '../../functions/prospect-api/add-tag';
import { createAuthorizer } from '../../functions/authorizer';
import { createHandler as findProspects } from '../../functions/prospect-api/find-prospects';
import { createHandler as getProspect } from '../../functions/prospect-api/get-prospect';
import { createHandler as ingestLead } from '../../functions/webhooks/ingest-lead';
import { createHandler as listAssignableMembers } from '../../functions/prospect-api/list-assignable-members';
import { createHandler as listChanges } from '../../functions/prospect-api/list-changes';
import { createHandler as listCustomFields } from '../../functions/prospect-api/list-custom-fields';
import { createHandler as listNotes } from '../../functions/prospect-api/list-notes';
import { createHandler as listPipelines } from '../../functions/prospect-api/list-pipelines';
import { createHandler as recruitment } from '../../functions/webhooks/recruitment';
import { createHandler as removeTag } from '../../functions/prospect-api/remove-tag';
import { createHandler as updateProspect } from '../../functions/prospect-api/update-prospect';
import type { AuthDecision } from '../../lib/auth/context';
import type { Deps } from '../../lib/storage/client';
import { routeById, type Route } from '../../lib/routes';
import { aLambdaContext, aProxyEvent } from './events';
import { fixture } from './fake-table';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** Every route's handler factory, by route id. */
export const handlerFactories: Record<string, (deps: Deps) => Handler> = {
  listPipelines,
  listAssignableMembers,
  listCustomFields,
  getProspect,
  findProspects,
  listNotes,
  listChanges,
  updateProspect,
  addNote,
  addTag,
  removeTag,
  ingestLead,
  recruitment,
};

export const routeIds = Object.keys(handlerFactories);

/** A query each read route acts on against the fake table's fixture. */
const acceptedQueries: Record<string, Record<string, string>> = {
  findProspects: { email: 'lea@exemple.test' },
};

/** A body each route accepts and acts on against the fake table's fixture (a write, for write routes). */
const acceptedBodies: Record<string, unknown> = {
  updateProspect: { stage: 'Relance' },
  addNote: { content: 'Rappeler mardi' },
  addTag: { tag: 'VIP' },
  ingestLead: { email: 'nouveau@exemple.test' },
  recruitment: { email: 'camille@exemple.test', name: 'Camille Dupont', answers: { Disponible: 'oui' } },
};

const allowed = (route: Route): AuthDecision =>
  route.credential === 'api-key'
    ? {
        outcome: 'allowed',
        principal: { kind: 'api-key', workspaceId: fixture.workspaceId, keyId: fixture.keyId, scopes: ['*'] },
      }
    : {
        outcome: 'allowed',
        principal: { kind: 'webhook', workspaceId: fixture.workspaceId, endpointId: fixture.endpointId },
      };

type RouteCall = {
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  decision?: AuthDecision;
  /** The authorizer's context as API Gateway passes it on, instead of a decision. */
  authorizerContext?: Record<string, unknown>;
};

/** One invocation of a route's handler, built with `deps`, as API Gateway makes it after the authorizer. */
export async function callRoute(routeId: string, deps: Deps, call: RouteCall = {}): Promise<APIGatewayProxyResult> {
  const route = routeById(routeId);
  const factory = handlerFactories[routeId];
  if (!factory) throw new Error(`no handler for ${routeId}`);
  const body = 'body' in call ? call.body : acceptedBodies[routeId];
  const event = aProxyEvent({
    resource: route.path,
    path: route.path,
    httpMethod: route.method,
    headers: call.headers ?? {},
    pathParameters: route.path.includes('{prospect_id}')
      ? { prospect_id: fixture.prospectId, ...(route.path.includes('{tag}') ? { tag: 'Chaud' } : {}) }
      : null,
    body: body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body),
    ...queryParameters(call.query ?? acceptedQueries[routeId]),
    decision: call.decision ?? allowed(route),
  });
  if (call.authorizerContext) {
    event.requestContext = { ...event.requestContext, authorizer: call.authorizerContext };
  }
  return factory(deps)(event, aLambdaContext());
}

function queryParameters(query: Record<string, string> | undefined) {
  if (query === undefined) return {};
  return {
    queryStringParameters: query,
    multiValueQueryStringParameters: Object.fromEntries(Object.entries(query).map(([name, value]) => [name, [value]])),
  };
}

/** The authorizer for one route, with a valid credential unless the request says otherwise. */
export async function callAuthorizer(
  routeId: string,
  deps: Deps,
  request: { headers?: Record<string, string>; query?: Record<string, string> } = {},
) {
  const route = routeById(routeId);
  const webhook = route.credential === 'webhook-token';
  return createAuthorizer(deps)({
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:eu-west-3:123456789012:api/test/${route.method}${route.path}`,
    resource: route.path,
    path: route.path,
    httpMethod: route.method,
    headers: request.headers ?? {
      Authorization: `Bearer ${webhook ? fixture.webhookToken : fixture.apiKeySecret}`,
    },
    multiValueHeaders: {},
    pathParameters: null,
    queryStringParameters: request.query ?? (webhook ? { endpoint_id: fixture.endpointId } : null),
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: {} as never,
  });
}

/** Words that tell of the machinery behind an answer: none may reach a response body. */
export const internalNames =
  /Exception|\w+Error\b|\bError:|DynamoDB|Throughput|[Tt]hrottl|Timeout|socket|ECONN|node_modules|\bat \/|\.[jt]s:\d+/;

/** A 500 in the route's own shape (docs/api.md#error-bodies), with the generic message and nothing of the fault. */
export function expectCleanServerError(route: Route, response: APIGatewayProxyResult): void {
  expect(response.statusCode).toBe(500);
  expect(response.body).not.toMatch(internalNames);
  const body: unknown = JSON.parse(response.body);
  if (route.errorShape === 'lead') {
    expect(body).toEqual({ error: 'ingest_failed', message: expect.any(String) });
  } else {
    expect(body).toEqual({ error: { code: 'internal', message: expect.any(String) } });
  }
}
