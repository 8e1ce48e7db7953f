import { createHash } from 'node:crypto';
import type {
  APIGatewayEventRequestContextWithAuthorizer,
  APIGatewayProxyEvent,
  APIGatewayRequestAuthorizerEvent,
} from 'aws-lambda';
import { decodePathParameter } from '../../lib/http/request-input';
import type { Route } from '../../lib/routes';
import {
  gatewayResponseHeaders,
  gatewayResponses,
  gatewayResponseTemplate,
  renderGatewayHeader,
  renderGatewayTemplate,
  type GatewayContext,
  type GatewayResponseType,
} from '../../infra/cdk/gateway-responses';
import { bodySizeBlock, type WafBlock } from '../../infra/cdk/waf-rules';
import { evaluatePolicy } from './iam-policy';
import { within } from './time-limit';

/**
 * What API Gateway REST (v1) does around the Lambda functions, as plain functions: the proxy and
 * REQUEST authorizer events it builds, how it judges the authorizer's answer and the handler's
 * result, how long it waits for the handler, and the gateway responses it answers by itself. The
 * local server moves bytes and runs the functions.
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

/**
 * Lambda's quota for a synchronous invocation's payload (the proxy event as JSON): a body between
 * this and {@link maxRequestBodyBytes} passes API Gateway but not Lambda, a 5xx from the
 * integration. The stack's WAF refuses such a body first when it declares its length ({@link wafBlock}).
 */
export const maxLambdaPayloadBytes = 6 * 1024 * 1024;

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
 * How long API Gateway waits for a Lambda integration: `timeoutInMillis`, "Custom timeout between
 * 50 and 29,000 milliseconds. The default value is 29,000 milliseconds or 29 seconds." ("Integration",
 * Amazon API Gateway API reference, https://docs.aws.amazon.com/apigateway/latest/api/API_Integration.html;
 * the integration timeout row of "Quotas for configuring and running a REST API in API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-execution-service-limits-table.html).
 * The stack sets no timeout on its integrations, so the default holds. The authorizer is not an
 * integration: only its function's own timeout bounds it (./server.ts).
 */
export const integrationTimeoutMs = 29_000;

/**
 * One request through API Gateway: payload quota, route, authorizer (on every route, no result
 * cache), then the route's handler, each refusal answered with its gateway response. Past
 * `integrationTimeoutMs` the client gets the gateway's 504, whatever the function still does.
 */
export async function answer(
  routes: readonly Route[],
  incoming: IncomingRequest,
  invocations: Invocations,
  ids: RequestIds,
  timeoutMs: number = integrationTimeoutMs,
): Promise<GatewayReply> {
  const match = matchRoute(routes, incoming.method, splitTarget(incoming.target).path);
  if (headerBytes(incoming.rawHeaders) > maxHeaderBytes) {
    return gatewayReply(refusals.headersTooLarge, match?.route.path, ids.requestId);
  }
  if (incoming.body === undefined) return gatewayReply(refusals.requestTooLarge, match?.route.path, ids.requestId);
  const blocked = wafBlock(incoming);
  if (blocked !== undefined) return wafReply(blocked, ids.requestId);
  if (match === undefined) return gatewayReply(refusals.missingRoute, undefined, ids.requestId);
  const resourcePath = match.route.path;
  const event = proxyEvent(incoming, match, ids);
  const authorizerEvent = requestAuthorizerEvent(event);
  if (Buffer.byteLength(authorizerEvent.methodArn, 'utf8') > maxMethodArnBytes) {
    return gatewayReply(refusals.uriTooLong, resourcePath, ids.requestId);
  }
  const started = Date.now();
  const verdict = await Promise.resolve(authorizerEvent)
    .then(invocations.authorizer)
    .then((result) => judgeAuthorizerResult(result, authorizerEvent.methodArn, Date.now() - started), authorizerFailed);
  if (!verdict.allowed) return gatewayReply(verdict.refusal, resourcePath, ids.requestId);
  const integration = Promise.resolve(authorizedEvent(event, verdict.authorizer))
    .then((authorized) => invokeWithinPayloadQuota(authorized, (fits) => invocations.handler(match.route, fits)))
    .then(
      (result) => proxyReply(result, resourcePath, ids.requestId),
      () => gatewayReply(refusals.badIntegrationResponse, resourcePath, ids.requestId),
    );
  return within(integration, timeoutMs, () => gatewayReply(refusals.integrationTimeout, resourcePath, ids.requestId));
}

export function splitTarget(target: string): { path: string; query: string } {
  const at = target.indexOf('?');
  return at === -1 ? { path: target, query: '' } : { path: target.slice(0, at), query: target.slice(at + 1) };
}

/**
 * Path templates like /prospects/{prospect_id} are matched segment by segment; a parameter takes one non-empty segment.
 * The path is split on its literal slashes only, and each parameter is handed over as received,
 * still percent-encoded, as a REST API does (the function decodes it: lib/http/path-ids.ts, which
 * cites the captures this relies on): `/tags/a%2Fb` is the one tag `a%2Fb`, `/tags/a+b` the tag `a+b`.
 *
 * One trailing slash is ignored: `/pipelines/` is the `/pipelines` resource (the event's `path` keeps the
 * slash). The AWS documentation says nothing of trailing slashes for REST APIs; this is the observed
 * behaviour, as reported in github.com/aws-powertools/powertools-lambda-python/issues/1552 and
 * github.com/dherault/serverless-offline/issues/1601. See docs/deploy.md, "Authorizer policy and routing".
 */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch | undefined {
  const segments = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  for (const route of routes) {
    if (route.method !== method) continue;
    const template = route.path.split('/');
    if (template.length !== segments.length) continue;
    const parameters: Record<string, string> = {};
    const matches = template.every((part, index) => {
      const segment = segments[index] ?? '';
      const name = /^\{(.+)\}$/.exec(part)?.[1];
      if (name === undefined) return literalMatches(part, segment);
      parameters[name] = segment;
      return segment !== '';
    });
    if (matches) return { route, pathParameters: Object.keys(parameters).length > 0 ? parameters : null };
  }
  return undefined;
}

/** A fixed segment of a template (`prospects`, `tags`) matches its text, spelt plainly or percent-encoded. */
function literalMatches(part: string, segment: string): boolean {
  const decoded = decodePathParameter(segment);
  return decoded.readable && decoded.value === part;
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

/**
 * `&` and `;` both separate parameters: "The semicolon character (;) is not supported for any request
 * URL query string and results in the data being split" ("Amazon API Gateway important notes", REST
 * APIs, https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-known-issues.html).
 * So `?q=a;b` is `q=a` and `b`; an encoded `%3B` stays in its value. A repeated parameter keeps all its
 * values in order (multiValueQueryStringParameters), its last one in queryStringParameters.
 */
export function parseQuery(query: string): Map<string, string[]> {
  const parameters = new Map<string, string[]>();
  for (const pair of query.split(/[&;]/)) {
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

/**
 * "Total combined size of all header values, including header names, values, any line terminators,
 * and whitespaces: 10240 Bytes" ("Quotas for configuring and running a REST API in API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-execution-service-limits-table.html).
 */
export const maxHeaderBytes = 10240;

/** Each header as on the wire: `name: value` and its CRLF terminator. */
export function headerBytes(rawHeaders: readonly string[]): number {
  let total = 0;
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    total += Buffer.byteLength(`${rawHeaders[index]}: ${rawHeaders[index + 1]}\r\n`, 'latin1');
  }
  return total;
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

/**
 * "Method ARN length: 1600 bytes. If your method contains a path parameter and a client uses a value
 * that exceeds the ARN length, your API will return a `414 Request URI too long` response."
 * ("Quotas for configuring and running a REST API in API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-execution-service-limits-table.html;
 * "Amazon API Gateway quotas", https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html,
 * applies it whenever authorization is enabled on the method, as on every route here.)
 */
export const maxMethodArnBytes = 1600;

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
  /**
   * AUTHORIZER_CONFIGURATION_ERROR, 500 ("Gateway response types for API Gateway",
   * https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html):
   * not customised, so DEFAULT_5XX answers it.
   */
  authorizerConfigurationError: { type: 'DEFAULT_5XX', statusCode: 500 },
  /**
   * 414 past the method ARN quota ({@link maxMethodArnBytes}) and 431 past the header quota
   * ({@link maxHeaderBytes}). Neither has a gateway response type of its own, so DEFAULT_4XX renders them
   * ("DEFAULT_4XX: the default gateway response for an unspecified response type with the status code
   * of 4XX", same page) and, having no status of its own here, keeps theirs. AWS does not document the
   * status past the header quota: 431 (Request Header Fields Too Large, RFC 6585) is the model, as 414
   * is AWS's for an over-long URI, and is what Node answers past its own header limit.
   */
  uriTooLong: { type: 'DEFAULT_4XX', statusCode: 414 },
  headersTooLarge: { type: 'DEFAULT_4XX', statusCode: 431 },
  /**
   * A function that fails, its timeout included, or answers what a proxy integration cannot read:
   * "If the function runs but returns an error, or returns a response in the wrong format, API
   * Gateway returns a 502" ("Handling Lambda errors with an API Gateway API",
   * https://docs.aws.amazon.com/lambda/latest/dg/services-apigateway-errors.html).
   */
  badIntegrationResponse: { type: 'DEFAULT_5XX', statusCode: 502 },
  /**
   * INTEGRATION_TIMEOUT, 504 ("Gateway response types for API Gateway", above): not customised, so
   * DEFAULT_5XX renders it and it keeps its 504.
   */
  integrationTimeout: { type: 'DEFAULT_5XX', statusCode: 504 },
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
  if (authorizerResultBytes(result) > maxAuthorizerResultBytes) {
    return { allowed: false, refusal: refusals.authorizerConfigurationError };
  }
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

/**
 * "AWS Lambda authorizer result size: 8 KB", not adjustable ("Quotas for configuring and running a
 * WebSocket API in API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-execution-service-websocket-limits-table.html;
 * listed in Service Quotas as the API Gateway quota L-20859C74). The REST quota page lists no other
 * bound on an authorizer's answer, nor any on one Resource of its policy, so this one applies: a
 * policy whose resources push the answer past it is an invalid answer, a 500
 * ({@link refusals.authorizerConfigurationError}). See docs/deploy.md, "Authorizer policy and routing".
 */
export const maxAuthorizerResultBytes = 8 * 1024;

/** The answer's size as Lambda returns it: its JSON text; an answer that cannot be serialized counts 0 (judged below). */
function authorizerResultBytes(result: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(result) ?? '', 'utf8');
  } catch {
    return 0;
  }
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

/**
 * What API Gateway answers by itself: the CDK stack's template for that type and its header
 * mappings, rendered as API Gateway does (simple `$context` substitution, no VTL).
 */
export function gatewayReply(refusal: Refusal, resourcePath: string | undefined, requestId: string): GatewayReply {
  const response = gatewayResponses[refusal.type];
  const context: GatewayContext = {
    requestId,
    resourcePath: resourcePath ?? '',
    error: { responseType: refusal.type },
  };
  const mapped = Object.fromEntries(
    Object.entries(gatewayResponseHeaders).map(([name, expression]) => [
      name,
      [renderGatewayHeader(expression, context)],
    ]),
  );
  return {
    statusCode: response.statusCode ?? refusal.statusCode,
    headers: { 'Content-Type': ['application/json'], 'x-amzn-RequestId': [requestId], ...mapped },
    body: Buffer.from(renderGatewayTemplate(gatewayResponseTemplate(refusal.type), context)),
  };
}

/**
 * The stack's web ACL (infra/cdk/waf-rules.ts), which AWS evaluates before routing and the
 * authorizer: its body-size rules on the declared `Content-Length`. The per-IP rate rule is not
 * modelled locally (docs/deploy.md).
 */
export function wafBlock(incoming: IncomingRequest): WafBlock | undefined {
  const headers = parseHeaders(incoming.rawHeaders);
  const contentLength = [...headers].find(([name]) => name.toLowerCase() === 'content-length')?.[1].at(-1);
  return bodySizeBlock(splitTarget(incoming.target).path, contentLength);
}

/** A WAF block's custom response: its status, JSON body and headers, as API Gateway sends it. */
export function wafReply(block: WafBlock, requestId: string): GatewayReply {
  const custom = Object.fromEntries(Object.entries(block.headers).map(([name, value]) => [name, [value]]));
  return {
    statusCode: block.statusCode,
    headers: { 'Content-Type': ['application/json'], 'x-amzn-RequestId': [requestId], ...custom },
    body: Buffer.from(block.body.content),
  };
}

/** Lambda refuses an event past its payload quota: the invocation fails, as a thrown handler does. */
async function invokeWithinPayloadQuota<T>(
  event: APIGatewayProxyEvent,
  invoke: (event: APIGatewayProxyEvent) => Promise<T>,
): Promise<T> {
  if (Buffer.byteLength(JSON.stringify(event), 'utf8') > maxLambdaPayloadBytes) {
    throw new Error('RequestEntityTooLargeException: request payload exceeds the synchronous invocation quota');
  }
  return invoke(event);
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
