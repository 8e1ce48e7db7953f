import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { decodePathParameter } from '../../lib/http/middleware/route';
import type { DeployedRoute as Route } from '../../infra/cdk/route-grants';
import * as stack from '../../infra/cdk/gateway-responses';

/**
 * What API Gateway REST does around the functions (docs/deploy.md, "Authorizer policy and routing"; the web ACL is
 * tested with its rules, not modelled). Quotas ("Quotas for configuring and running a REST API in API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-execution-service-limits-table.html): payload
 * 10 MB, headers 10,240 bytes (past them 431, undocumented: RFC 6585's, as Node answers), method ARN 1,600 bytes,
 * authorizer result 8 KB (Service Quotas L-20859C74). It waits 29 s for the handler ("Integration",
 * https://docs.aws.amazon.com/apigateway/latest/api/API_Integration.html); only its own timeout bounds the authorizer.
 */
export const localStage = { region: 'eu-west-3', accountId: '123456789012', apiId: 'localapi', stage: 'local' };
export const [maxRequestBodyBytes, maxHeaderBytes, maxMethodArnBytes] = [10 * 1024 * 1024, 10240, 1600];
export const maxAuthorizerResultBytes = 8192;
export const integrationTimeoutMs = 29_000;

/** `target`: path and query as sent, still encoded; `rawHeaders`: Node's; `body`: undefined past the payload quota. */
type RequestLine = { method: string; target: string; httpVersion: string; sourceIp: string };
export type IncomingRequest = RequestLine & { rawHeaders: readonly string[]; body: string | undefined };
export type GatewayReply = { statusCode: number; headers: Record<string, string[]>; body: Buffer };
export type RouteMatch = { route: Route; pathParameters: Record<string, string> | null };
export type RequestIds = { requestId: string; extendedRequestId: string; now: Date };
export type Invocations = {
  authorizer: (event: APIGatewayRequestAuthorizerEvent) => Promise<unknown>;
  handler: (route: Route, event: APIGatewayProxyEvent) => Promise<unknown>;
};
export type AuthorizerContext = Record<string, string | number>;
type Refusal = { type: stack.GatewayResponseType; statusCode: number };
export type AuthorizerVerdict = { allowed: true; authorizer: AuthorizerContext } | { allowed: false; refusal: Refusal };

/**
 * Gateway response types ("Gateway response types for API Gateway", https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html);
 * those the stack does not customise fall back to DEFAULT_4XX/5XX with their status. A function that fails
 * or answers in the wrong format is a 502 (https://docs.aws.amazon.com/lambda/latest/dg/services-apigateway-errors.html).
 */
export const refusals = {
  missingRoute: { type: 'MISSING_AUTHENTICATION_TOKEN', statusCode: 403 },
  unauthorized: { type: 'UNAUTHORIZED', statusCode: 401 },
  accessDenied: { type: 'ACCESS_DENIED', statusCode: 403 },
  requestTooLarge: { type: 'REQUEST_TOO_LARGE', statusCode: 413 },
  authorizerFailure: { type: 'DEFAULT_5XX', statusCode: 500 },
  authorizerConfigurationError: { type: 'DEFAULT_5XX', statusCode: 500 },
  uriTooLong: { type: 'DEFAULT_4XX', statusCode: 414 },
  headersTooLarge: { type: 'DEFAULT_4XX', statusCode: 431 },
  badIntegrationResponse: { type: 'DEFAULT_5XX', statusCode: 502 },
  integrationTimeout: { type: 'DEFAULT_5XX', statusCode: 504 },
} as const satisfies Record<string, Refusal>;

/** Quotas, the route, the authorizer (every request: the stack sets no result cache), the handler; 504 past `timeoutMs`. */
export async function answer(
  routes: readonly Route[],
  incoming: IncomingRequest,
  invocations: Invocations,
  ids: RequestIds,
  timeoutMs: number = integrationTimeoutMs,
): Promise<GatewayReply> {
  const match = matchRoute(routes, incoming.method, splitTarget(incoming.target).path);
  const refuse = (refusal: Refusal) => gatewayReply(refusal, match?.route.path, ids.requestId);
  if (headerBytes(incoming.rawHeaders) > maxHeaderBytes) return refuse(refusals.headersTooLarge);
  if (incoming.body === undefined) return refuse(refusals.requestTooLarge);
  if (match === undefined) return refuse(refusals.missingRoute);
  const event = proxyEvent(incoming, match, ids);
  const authorizerEvent = requestAuthorizerEvent(event);
  if (Buffer.byteLength(authorizerEvent.methodArn) > maxMethodArnBytes) return refuse(refusals.uriTooLong);
  const started = Date.now();
  const verdict = await Promise.resolve(authorizerEvent)
    .then(invocations.authorizer)
    .then((result) => judgeAuthorizerResult(result, authorizerEvent.methodArn, Date.now() - started), authorizerFailed);
  if (!verdict.allowed) return refuse(verdict.refusal);
  const integration = Promise.resolve(authorizedEvent(event, verdict.authorizer))
    .then((authorized) => invocations.handler(match.route, authorized))
    .then(
      (result) => proxyReply(result, match.route.path, ids.requestId),
      () => refuse(refusals.badIntegrationResponse),
    );
  return within(integration, timeoutMs, () => refuse(refusals.integrationTimeout));
}

const splitTarget = (target: string) => {
  const [path = '', ...query] = target.split('?');
  return { path, query: query.join('?') };
};

/**
 * Segment by segment, split on literal slashes; a parameter takes one non-empty segment, still
 * percent-encoded as REST hands it over (lib/http/request-input.ts decodes it). One trailing slash is
 * ignored, as observed (undocumented: github.com/aws-powertools/powertools-lambda-python/issues/1552).
 */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch | undefined {
  const segments = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  for (const route of routes.filter((candidate) => candidate.method === method)) {
    const template = route.path.split('/');
    if (template.length !== segments.length) continue;
    const parameters: Record<string, string> = {};
    const matches = template.every((part, index) => {
      const segment = segments[index] ?? '';
      const name = /^\{(.+)\}$/.exec(part)?.[1];
      if (name !== undefined) return (parameters[name] = segment) !== '';
      const literal = decodePathParameter(segment);
      return literal.readable && literal.value === part;
    });
    if (matches) return { route, pathParameters: Object.keys(parameters).length > 0 ? parameters : null };
  }
  return undefined;
}

/**
 * Form-decoded (`+` is a space); `;` splits like `&`: "The semicolon character (;) is not supported
 * for any request URL query string and results in the data being split" ("Amazon API Gateway
 * important notes", https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-known-issues.html).
 */
export function parseQuery(query: string): Map<string, string[]> {
  const decode = (text: string) => {
    const decoded = decodePathParameter(text.replace(/\+/g, ' '));
    return decoded.readable ? decoded.value : decoded.raw;
  };
  const parameters = new Map<string, string[]>();
  for (const pair of query.split(/[&;]/).filter(Boolean)) {
    const [name = '', ...value] = pair.split('=');
    parameters.set(decode(name), [...(parameters.get(decode(name)) ?? []), decode(value.join('='))]);
  }
  return parameters;
}

/** Names keep the casing first sent; every value is kept in order. */
function parseHeaders(rawHeaders: readonly string[]): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const sent = rawHeaders[index] as string;
    const name = [...headers.keys()].find((known) => known.toLowerCase() === sent.toLowerCase()) ?? sent;
    headers.set(name, [...(headers.get(name) ?? []), rawHeaders[index + 1] as string]);
  }
  return headers;
}

/** As the header quota counts them: names, values, separators and line terminators. */
export function headerBytes(rawHeaders: readonly string[]): number {
  const lines = rawHeaders.map((text, index) => (index % 2 === 0 ? `${text}: ${rawHeaders[index + 1]}\r\n` : ''));
  return Buffer.byteLength(lines.join(''), 'latin1');
}

const lastValues = (values: Map<string, string[]>) =>
  Object.fromEntries([...values].map(([name, list]) => [name, list.at(-1) ?? '']));
const identityFields =
  'accessKey accountId apiKey apiKeyId caller clientCert cognitoAuthenticationProvider cognitoAuthenticationType cognitoIdentityId cognitoIdentityPoolId principalOrgId user userArn';
const nullIdentity = Object.fromEntries(identityFields.split(' ').map((name) => [name, null]));

/**
 * The proxy event, before the authorizer has run. The local server is reached at its root, as a custom domain whose
 * API mapping has no base path: `requestContext.path` is the path as sent, with no stage in it, the stage being
 * the mapping's (lib/http/request-input.ts `apiBaseUrlOf` reads the base URL from it).
 */
export function proxyEvent(incoming: IncomingRequest, match: RouteMatch, ids: RequestIds): APIGatewayProxyEvent {
  const { path, query } = splitTarget(incoming.target);
  const headers = parseHeaders(incoming.rawHeaders);
  const parameters = parseQuery(query);
  const header = (name: string) => [...headers].find(([sent]) => sent.toLowerCase() === name)?.[1].at(-1) ?? null;
  // $context.requestTime: dd/MMM/yyyy:HH:mm:ss +0000.
  const [, day, month, year, time] = ids.now.toUTCString().split(' ');
  const resource = match.route.path;
  return {
    resource,
    path,
    httpMethod: incoming.method,
    headers: lastValues(headers),
    multiValueHeaders: Object.fromEntries(headers),
    queryStringParameters: parameters.size > 0 ? lastValues(parameters) : null,
    multiValueQueryStringParameters: parameters.size > 0 ? Object.fromEntries(parameters) : null,
    pathParameters: match.pathParameters,
    stageVariables: null,
    requestContext: {
      accountId: localStage.accountId,
      apiId: localStage.apiId,
      authorizer: undefined,
      domainName: header('host') ?? `${localStage.apiId}.execute-api.${localStage.region}.amazonaws.com`,
      domainPrefix: localStage.apiId,
      extendedRequestId: ids.extendedRequestId,
      httpMethod: incoming.method,
      identity: { ...nullIdentity, sourceIp: incoming.sourceIp, userAgent: header('user-agent') } as never,
      path,
      protocol: `HTTP/${incoming.httpVersion}`,
      requestId: ids.requestId,
      requestTime: `${day}/${month}/${year}:${time} +0000`,
      requestTimeEpoch: ids.now.getTime(),
      resourceId: createHash('sha256').update(resource).digest('hex').slice(0, 6),
      resourcePath: resource,
      stage: localStage.stage,
    },
    body: incoming.body ? incoming.body : null,
    isBase64Encoded: false,
  };
}

/** The proxy event's request, without its body, and the method ARN. */
export function requestAuthorizerEvent(event: APIGatewayProxyEvent): APIGatewayRequestAuthorizerEvent {
  const { region, accountId, apiId, stage } = localStage;
  const { resource, path, httpMethod, headers, multiValueHeaders, pathParameters, stageVariables } = event;
  const request = { resource, path, httpMethod, headers, multiValueHeaders, pathParameters, stageVariables };
  const { queryStringParameters, multiValueQueryStringParameters } = event;
  const query = { queryStringParameters, multiValueQueryStringParameters };
  const methodArn = `arn:aws:execute-api:${region}:${accountId}:${apiId}/${stage}/${httpMethod}${path}`;
  const requestContext = { ...event.requestContext, authorizer: undefined };
  return { type: 'REQUEST', methodArn, ...request, ...query, requestContext };
}

export function authorizedEvent(event: APIGatewayProxyEvent, authorizer: AuthorizerContext): APIGatewayProxyEvent {
  return { ...event, requestContext: { ...event.requestContext, authorizer } };
}

/** A Lambda authorizer that fails with the message "Unauthorized" asks for a 401; any other failure is a 500. */
export function authorizerFailed(error: unknown): AuthorizerVerdict {
  const message = error instanceof Error ? error.message : String(error);
  return { allowed: false, refusal: message === 'Unauthorized' ? refusals.unauthorized : refusals.authorizerFailure };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isFlatValue = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value);
const refused = (refusal: Refusal): AuthorizerVerdict => ({ allowed: false, refusal });

/** The authorizer's answer after Lambda's JSON serialization; on Allow its context reaches the handler as strings (REST). */
export function judgeAuthorizerResult(result: unknown, arn: string, latencyMs: number): AuthorizerVerdict {
  const bytes = Buffer.byteLength(JSON.stringify(result) ?? '');
  if (bytes > maxAuthorizerResultBytes) return refused(refusals.authorizerConfigurationError);
  const answer = jsonRoundTrip(result);
  if (!isObject(answer) || typeof answer.principalId !== 'string') return refused(refusals.authorizerFailure);
  const context = answer.context ?? {};
  if (!isObject(context) || !Object.values(context).every(isFlatValue)) return refused(refusals.authorizerFailure);
  const verdict = evaluatePolicy(answer.policyDocument, arn);
  if (verdict !== 'allowed') return refused(verdict === 'denied' ? refusals.accessDenied : refusals.authorizerFailure);
  const values = Object.fromEntries(Object.entries(context).map(([name, value]) => [name, String(value)]));
  return { allowed: true, authorizer: { ...values, principalId: answer.principalId, integrationLatency: latencyMs } };
}

/** IAM's evaluation for `execute-api:Invoke` on the ARN: a Deny wins, then an Allow is needed; `*`, `?` wildcards. */
function evaluatePolicy(document: unknown, arn: string): 'allowed' | 'denied' | 'malformed' {
  const raw = isObject(document) ? document.Statement : undefined;
  const statements: unknown[] = Array.isArray(raw) ? raw : isObject(raw) ? [raw] : [];
  if (!Array.isArray(raw) && statements.length === 0) return 'malformed';
  const patterns = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
  const matches = (list: unknown[], value: string, flags: string) =>
    list.some((pattern) => {
      const escaped = String(pattern).replace(/[.+^${}()|[\]\\]/g, '\\$&');
      return new RegExp(`^${escaped.replace(/\*/g, '.*').replace(/\?/g, '.')}$`, flags).test(value);
    });
  const effects: unknown[] = [];
  for (const statement of statements) {
    if (!isObject(statement) || (statement.Effect !== 'Allow' && statement.Effect !== 'Deny')) return 'malformed';
    const [actions, resources] = [patterns(statement.Action), patterns(statement.Resource)];
    if (![...actions, ...resources].every((item) => typeof item === 'string')) return 'malformed';
    if (matches(actions, 'execute-api:Invoke', 'is') && matches(resources, arn, 's')) effects.push(statement.Effect);
  }
  return effects.includes('Allow') && !effects.includes('Deny') ? 'allowed' : 'denied';
}

const proxyResultFields = new Set(['statusCode', 'headers', 'multiValueHeaders', 'body', 'isBase64Encoded']);

/** The handler's result as a proxy integration accepts it; anything else is a 502. Header maps merge, the list winning. */
export function proxyReply(result: unknown, resourcePath: string, requestId: string): GatewayReply {
  const answer = jsonRoundTrip(result);
  const malformed = () => gatewayReply(refusals.badIntegrationResponse, resourcePath, requestId);
  if (!isObject(answer) || !Object.keys(answer).every((field) => proxyResultFields.has(field))) return malformed();
  const { statusCode, headers = {}, multiValueHeaders = {}, body, isBase64Encoded = false } = answer;
  const status = typeof statusCode === 'number' && Number.isInteger(statusCode) ? statusCode : 0;
  if (status < 100 || status > 599 || typeof isBase64Encoded !== 'boolean') return malformed();
  if ((body ?? null) !== null && typeof body !== 'string') return malformed();
  const flatHeaders = isObject(headers) && Object.values(headers).every(isFlatValue);
  if (!flatHeaders || !isObject(multiValueHeaders)) return malformed();
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
  const typed = Object.keys(merged).some((name) => name.toLowerCase() === 'content-type');
  if (!typed) merged['Content-Type'] = ['application/json'];
  const bytes = Buffer.from(typeof body === 'string' ? body : '', isBase64Encoded ? 'base64' : 'utf8');
  return { statusCode: status, headers: { ...merged, 'x-amzn-RequestId': [requestId] }, body: bytes };
}

/** What API Gateway answers by itself: the stack's template and header mappings, `$context` substituted (no VTL). */
export function gatewayReply(refusal: Refusal, resourcePath: string | undefined, requestId: string): GatewayReply {
  const context = { requestId, resourcePath: resourcePath ?? '', error: { responseType: refusal.type } };
  const render = (expression: string) => [stack.renderGatewayHeader(expression, context)];
  const mapped = Object.entries(stack.gatewayResponseHeaders).map(([name, expression]) => [name, render(expression)]);
  return {
    statusCode: stack.gatewayResponses[refusal.type].statusCode ?? refusal.statusCode,
    headers: { 'Content-Type': ['application/json'], 'x-amzn-RequestId': [requestId], ...Object.fromEntries(mapped) },
    body: Buffer.from(stack.renderGatewayTemplate(stack.gatewayResponseTemplate(refusal.type), context)),
  };
}

/** Lambda hands results over as JSON: undefined values vanish; no result, or one that cannot be serialized, is null. */
function jsonRoundTrip(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value) ?? 'null');
  } catch {
    return null;
  }
}

/** `work`'s outcome, or `late()`'s once `ms` have passed; `work` goes on, unobserved. */
export function within<T>(work: Promise<T>, ms: number, late: () => T | Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(late()), ms)));
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
