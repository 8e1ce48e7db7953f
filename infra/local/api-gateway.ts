import { createHash } from 'node:crypto';
import type {
  APIGatewayEventRequestContextWithAuthorizer,
  APIGatewayProxyEvent,
  APIGatewayRequestAuthorizerEvent,
} from 'aws-lambda';
import type { Route } from '../../lib/routes';
import {
  gatewayResponseBody,
  gatewayResponses,
  shapeOfResource,
  type GatewayResponseType,
} from '../cdk/gateway-responses';
import { evaluatePolicy } from './iam-policy';

/**
 * What API Gateway REST (v1) does around the Lambda functions, as plain functions: the proxy and
 * REQUEST authorizer events it builds, how it judges the authorizer's answer and the handler's
 * result, and the gateway responses it answers by itself. The local server only moves bytes.
 */

export type GatewayStage = { region: string; accountId: string; apiId: string; stage: string };

export const localStage: GatewayStage = {
  region: 'eu-west-3',
  accountId: '123456789012',
  apiId: 'localapi',
  stage: 'local',
};

/** API Gateway's payload quota. */
export const maxRequestBodyBytes = 10 * 1024 * 1024;

/** A request as read from the socket, before API Gateway touches it. */
export type IncomingRequest = {
  method: string;
  /** The request target as sent: path and query string, still percent-encoded. */
  target: string;
  /** Node's req.rawHeaders: name, value, name, value… in the order sent. */
  rawHeaders: readonly string[];
  /** The body as text; undefined when it went past the quota (and was not kept). */
  body: string | undefined;
  sourceIp: string;
  httpVersion: string;
};

/** What goes back on the wire. */
export type GatewayReply = { statusCode: number; headers: Record<string, string[]>; body: Buffer };

export type RouteMatch = { route: Route; pathParameters: Record<string, string> | null };

export type RequestIds = { requestId: string; extendedRequestId: string; now: Date };

/** The two Lambda invocations API Gateway makes for one request. */
export type Invocations = {
  authorizer: (event: APIGatewayRequestAuthorizerEvent) => Promise<unknown>;
  handler: (route: Route, event: APIGatewayProxyEvent) => Promise<unknown>;
};

/**
 * One request through API Gateway: payload quota, route, authorizer (on every route, no result
 * cache), then the route's handler, each refusal answered with its gateway response.
 */
export async function answer(
  routes: readonly Route[],
  incoming: IncomingRequest,
  invocations: Invocations,
  ids: RequestIds,
): Promise<GatewayReply> {
  const match = matchRoute(routes, incoming.method, splitTarget(incoming.target).path);
  if (incoming.body === undefined) return gatewayReply(refusals.requestTooLarge, match?.route.path, ids.requestId);
  if (match === undefined) return gatewayReply(refusals.missingRoute, undefined, ids.requestId);
  const resourcePath = match.route.path;
  const event = proxyEvent(incoming, match, ids);
  const authorizerEvent = requestAuthorizerEvent(event);
  const started = Date.now();
  const verdict = await Promise.resolve(authorizerEvent)
    .then(invocations.authorizer)
    .then((result) => judgeAuthorizerResult(result, authorizerEvent.methodArn, Date.now() - started), authorizerFailed);
  if (!verdict.allowed) return gatewayReply(verdict.refusal, resourcePath, ids.requestId);
  return Promise.resolve(authorizedEvent(event, verdict.authorizer))
    .then((authorized) => invocations.handler(match.route, authorized))
    .then(
      (result) => proxyReply(result, resourcePath, ids.requestId),
      () => gatewayReply(refusals.badIntegrationResponse, resourcePath, ids.requestId),
    );
}

export function splitTarget(target: string): { path: string; query: string } {
  const at = target.indexOf('?');
  return at === -1 ? { path: target, query: '' } : { path: target.slice(0, at), query: target.slice(at + 1) };
}

/** Path templates like /prospects/{prospect_id} are matched segment by segment; a parameter takes one non-empty segment. */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch | undefined {
  const segments = path.split('/');
  for (const route of routes) {
    if (route.method !== method) continue;
    const template = route.path.split('/');
    if (template.length !== segments.length) continue;
    const parameters: Record<string, string> = {};
    const matches = template.every((part, index) => {
      const segment = segments[index] ?? '';
      const name = /^\{(.+)\}$/.exec(part)?.[1];
      if (name === undefined) return part === decodePathSegment(segment);
      parameters[name] = decodePathSegment(segment);
      return segment !== '';
    });
    if (matches) return { route, pathParameters: Object.keys(parameters).length > 0 ? parameters : null };
  }
  return undefined;
}

/** Path parameters arrive decoded; `+` is a plain character in a path. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Query strings are form-decoded (`+` is a space), as API Gateway does. */
function decodeQueryComponent(component: string): string {
  const spaced = component.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

export function parseQuery(query: string): Map<string, string[]> {
  const parameters = new Map<string, string[]>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = decodeQueryComponent(at === -1 ? pair : pair.slice(0, at));
    const value = at === -1 ? '' : decodeQueryComponent(pair.slice(at + 1));
    parameters.set(name, [...(parameters.get(name) ?? []), value]);
  }
  return parameters;
}

/** Names keep the client's casing (the first one sent when it varies); a repeated header keeps its last value. */
export function parseHeaders(rawHeaders: readonly string[]): Map<string, string[]> {
  const byLowerName = new Map<string, string>();
  const headers = new Map<string, string[]>();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const sent = rawHeaders[index] as string;
    const value = rawHeaders[index + 1] as string;
    const name = byLowerName.get(sent.toLowerCase()) ?? sent;
    byLowerName.set(sent.toLowerCase(), name);
    headers.set(name, [...(headers.get(name) ?? []), value]);
  }
  return headers;
}

const lastValues = (values: Map<string, string[]>): Record<string, string> =>
  Object.fromEntries([...values].map(([name, list]) => [name, list[list.length - 1] ?? '']));

/** The proxy event, before the authorizer has run (`requestContext.authorizer` is filled by {@link authorizedEvent}). */
export function proxyEvent(
  incoming: IncomingRequest,
  match: RouteMatch,
  ids: RequestIds,
  stage: GatewayStage = localStage,
): APIGatewayProxyEvent {
  const { path, query } = splitTarget(incoming.target);
  const headers = parseHeaders(incoming.rawHeaders);
  const parameters = parseQuery(query);
  const headerValue = (name: string) => [...headers].find(([sent]) => sent.toLowerCase() === name)?.[1].at(-1) ?? null;
  const requestContext: APIGatewayEventRequestContextWithAuthorizer<undefined> = {
    accountId: stage.accountId,
    apiId: stage.apiId,
    authorizer: undefined,
    domainName: headerValue('host') ?? `${stage.apiId}.execute-api.${stage.region}.amazonaws.com`,
    domainPrefix: stage.apiId,
    extendedRequestId: ids.extendedRequestId,
    httpMethod: incoming.method,
    identity: {
      accessKey: null,
      accountId: null,
      apiKey: null,
      apiKeyId: null,
      caller: null,
      clientCert: null,
      cognitoAuthenticationProvider: null,
      cognitoAuthenticationType: null,
      cognitoIdentityId: null,
      cognitoIdentityPoolId: null,
      principalOrgId: null,
      sourceIp: incoming.sourceIp,
      user: null,
      userAgent: headerValue('user-agent'),
      userArn: null,
    },
    path: `/${stage.stage}${path}`,
    protocol: `HTTP/${incoming.httpVersion}`,
    requestId: ids.requestId,
    requestTime: requestTime(ids.now),
    requestTimeEpoch: ids.now.getTime(),
    resourceId: resourceId(match.route.path),
    resourcePath: match.route.path,
    stage: stage.stage,
  };
  return {
    resource: match.route.path,
    path,
    httpMethod: incoming.method,
    headers: lastValues(headers),
    multiValueHeaders: Object.fromEntries(headers),
    queryStringParameters: parameters.size > 0 ? lastValues(parameters) : null,
    multiValueQueryStringParameters: parameters.size > 0 ? Object.fromEntries(parameters) : null,
    pathParameters: match.pathParameters,
    stageVariables: null,
    requestContext,
    body: incoming.body ? incoming.body : null,
    isBase64Encoded: false,
  };
}

export function methodArn(event: APIGatewayProxyEvent, stage: GatewayStage = localStage): string {
  return `arn:aws:execute-api:${stage.region}:${stage.accountId}:${stage.apiId}/${stage.stage}/${event.httpMethod}${event.path}`;
}

export function requestAuthorizerEvent(
  event: APIGatewayProxyEvent,
  stage: GatewayStage = localStage,
): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: methodArn(event, stage),
    resource: event.resource,
    path: event.path,
    httpMethod: event.httpMethod,
    headers: event.headers,
    multiValueHeaders: event.multiValueHeaders,
    pathParameters: event.pathParameters,
    queryStringParameters: event.queryStringParameters,
    multiValueQueryStringParameters: event.multiValueQueryStringParameters,
    stageVariables: event.stageVariables,
    requestContext: { ...event.requestContext, authorizer: undefined },
  };
}

export type AuthorizerContext = Record<string, string | number>;

export function authorizedEvent(event: APIGatewayProxyEvent, authorizer: AuthorizerContext): APIGatewayProxyEvent {
  return { ...event, requestContext: { ...event.requestContext, authorizer } };
}

/** A gateway response type with the status API Gateway gives it before any override. */
export type Refusal = { type: GatewayResponseType; statusCode: number };

/** AUTHORIZER_FAILURE, AUTHORIZER_CONFIGURATION_ERROR and a bad Lambda answer are not customised: they fall back to DEFAULT_5XX. */
export const refusals = {
  missingRoute: { type: 'MISSING_AUTHENTICATION_TOKEN', statusCode: 403 },
  unauthorized: { type: 'UNAUTHORIZED', statusCode: 401 },
  accessDenied: { type: 'ACCESS_DENIED', statusCode: 403 },
  requestTooLarge: { type: 'REQUEST_TOO_LARGE', statusCode: 413 },
  authorizerFailure: { type: 'DEFAULT_5XX', statusCode: 500 },
  badIntegrationResponse: { type: 'DEFAULT_5XX', statusCode: 502 },
} as const satisfies Record<string, Refusal>;

export type AuthorizerVerdict = { allowed: true; authorizer: AuthorizerContext } | { allowed: false; refusal: Refusal };

/** A Lambda authorizer that fails with the message "Unauthorized" asks for a 401; any other failure is a 500. */
export function authorizerFailed(error: unknown): AuthorizerVerdict {
  const message = error instanceof Error ? error.message : String(error);
  return { allowed: false, refusal: message === 'Unauthorized' ? refusals.unauthorized : refusals.authorizerFailure };
}

/**
 * Judges the authorizer's answer as it arrives after Lambda's JSON serialization. On Allow, the
 * context values reach the handler as strings (REST API) next to principalId and the latency.
 */
export function judgeAuthorizerResult(result: unknown, arn: string, latencyMs: number): AuthorizerVerdict {
  const answer = jsonRoundTrip(result);
  if (!isObject(answer) || typeof answer.principalId !== 'string') {
    return { allowed: false, refusal: refusals.authorizerFailure };
  }
  const context = answer.context ?? {};
  if (!isObject(context) || !Object.values(context).every(isFlatValue)) {
    return { allowed: false, refusal: refusals.authorizerFailure };
  }
  const verdict = evaluatePolicy(answer.policyDocument, 'execute-api:Invoke', arn);
  if (verdict === 'malformed') return { allowed: false, refusal: refusals.authorizerFailure };
  if (verdict === 'denied') return { allowed: false, refusal: refusals.accessDenied };
  const values = Object.fromEntries(Object.entries(context).map(([name, value]) => [name, String(value)]));
  return { allowed: true, authorizer: { ...values, principalId: answer.principalId, integrationLatency: latencyMs } };
}

const isFlatValue = (value: unknown): boolean => ['string', 'number', 'boolean'].includes(typeof value);

const proxyResultFields = new Set(['statusCode', 'headers', 'multiValueHeaders', 'body', 'isBase64Encoded']);

/**
 * The handler's result as API Gateway accepts it from a Lambda proxy integration; anything else is
 * "Malformed Lambda proxy response", a 502. Headers given in both maps merge, the list winning.
 */
export function proxyReply(result: unknown, resourcePath: string, requestId: string): GatewayReply {
  const malformed = () => gatewayReply(refusals.badIntegrationResponse, resourcePath, requestId);
  const answer = jsonRoundTrip(result);
  if (!isObject(answer) || !Object.keys(answer).every((field) => proxyResultFields.has(field))) return malformed();
  const { statusCode, headers = {}, multiValueHeaders = {}, body, isBase64Encoded = false } = answer;
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) {
    return malformed();
  }
  if (typeof isBase64Encoded !== 'boolean' || (body !== undefined && body !== null && typeof body !== 'string')) {
    return malformed();
  }
  if (!isObject(headers) || !Object.values(headers).every(isFlatValue)) return malformed();
  if (!isObject(multiValueHeaders)) return malformed();
  const merged: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(multiValueHeaders)) {
    if (!Array.isArray(values) || !values.every(isFlatValue)) return malformed();
    merged[name] = values.map(String);
  }
  for (const [name, value] of Object.entries(headers)) {
    const existing = Object.keys(merged).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    if (existing === undefined) merged[name] = [String(value)];
    else if (!merged[existing]?.includes(String(value))) merged[existing]?.unshift(String(value));
  }
  if (!Object.keys(merged).some((name) => name.toLowerCase() === 'content-type')) {
    merged['Content-Type'] = ['application/json'];
  }
  const text = typeof body === 'string' ? body : '';
  return {
    statusCode,
    headers: { ...merged, 'x-amzn-RequestId': [requestId] },
    body: Buffer.from(text, isBase64Encoded ? 'base64' : 'utf8'),
  };
}

/** What API Gateway answers by itself; the body is the one the CDK stack configures for that type. */
export function gatewayReply(refusal: Refusal, resourcePath: string | undefined, requestId: string): GatewayReply {
  const response = gatewayResponses[refusal.type];
  const shape = shapeOfResource(resourcePath);
  return {
    statusCode: response.statusCode ?? refusal.statusCode,
    // gatewayResponseHeaders: x-request-id ← context.requestId.
    headers: { 'Content-Type': ['application/json'], 'x-amzn-RequestId': [requestId], 'x-request-id': [requestId] },
    body: Buffer.from(gatewayResponseBody(response[shape], shape)),
  };
}

/**
 * Lambda hands results over as JSON: undefined values vanish and dates become strings. A result
 * that cannot be serialized (a cycle, a BigInt) fails the invocation: undefined, like no answer.
 */
function jsonRoundTrip(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Stable per route, like the id API Gateway gives each resource. */
function resourceId(resourcePath: string): string {
  return createHash('sha256').update(resourcePath).digest('hex').slice(0, 6);
}

/** $context.requestTime: dd/MMM/yyyy:HH:mm:ss +0000. */
function requestTime(now: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${pad(now.getUTCDate())}/${months[now.getUTCMonth()]}/${now.getUTCFullYear()}:` +
    `${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())} +0000`
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
