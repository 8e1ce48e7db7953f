import { noStoreHeaders } from '../../lib/routes';
import { messages } from '../../lib/messages';

/**
 * What API Gateway answers by itself (before or instead of a handler), rewritten into the
 * standard error shape `{ "error": { "code", "message" } }` (docs/api.md#error-bodies). The CDK stack turns
 * these into gateway responses and the local server renders the very same templates, so both
 * answer alike. `statusCode` replaces API Gateway's status; without it the original one stays.
 *
 * A gateway-response template is NOT a VTL mapping template: "A GatewayResponse mapping template
 * isn't processed by the Velocity Template Language (VTL) engine" and supports "only simple
 * variable substitution" (AWS, "x-amazon-apigateway-gateway-responses.responseTemplates object",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-swagger-extensions-gateway-responses.responseTemplates.html;
 * also "Set up gateway responses to customize error responses"). A template therefore cannot
 * branch on the resource path: one gateway response has one body for the whole API. Every body
 * is static JSON in the standard shape, the lead webhook's path included (docs/deploy.md,
 * "Gateway-generated errors, WAF and throttling"); the one place where the lead webhook gets its
 * own shape from the gateway side, a body over 256 KB, is answered by the WAF (./waf-rules.ts).
 */
export type GatewayResponseType =
  | 'UNAUTHORIZED'
  | 'ACCESS_DENIED'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'REQUEST_TOO_LARGE'
  | 'THROTTLED'
  | 'WAF_FILTERED'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

type Answer = { code: string; message: string };

export type GatewayResponse = { statusCode?: number; answer: Answer };

export const gatewayResponses: Record<GatewayResponseType, GatewayResponse> = {
  UNAUTHORIZED: { answer: { code: 'unauthorized', message: messages.access.unauthorized } },
  ACCESS_DENIED: { answer: { code: 'forbidden', message: messages.gateway.accessDenied } },
  /** An unknown path or method: API Gateway's "Missing Authentication Token" 403 becomes a 404. */
  MISSING_AUTHENTICATION_TOKEN: {
    statusCode: 404,
    answer: { code: 'not_found', message: messages.gateway.noSuchRoute },
  },
  /** Over API Gateway's 10 MB payload quota; AWS keeps the 413 (the status of this type cannot be changed). */
  REQUEST_TOO_LARGE: { answer: { code: 'bad_request', message: messages.gateway.bodyTooLarge } },
  THROTTLED: { answer: { code: 'rate_limited', message: messages.gateway.throttled } },
  /** A WAF block without a custom response of its own; the stack's rules all have one (./waf-rules.ts). */
  WAF_FILTERED: { answer: { code: 'forbidden', message: messages.gateway.wafFiltered } },
  DEFAULT_4XX: { answer: { code: 'bad_request', message: messages.gateway.badRequest } },
  DEFAULT_5XX: { answer: { code: 'internal', message: messages.failure.internal } },
};

/**
 * Headers every gateway response adds: the request id the handlers also answer with and log
 * (lib/http/middleware/route.ts), mapped from API Gateway's context, and the handlers' `noStoreHeaders`
 * (lib/routes.ts) as static values, so that what API Gateway answers by itself (an authorizer's
 * refusal, an unknown path, a throttle, a 5xx) is no more cacheable or sniffable than a handler's answer.
 * A value is a mapping expression: `context.x` or a static `'text'` between single quotes. A gateway response
 * maps headers from "the incoming request parameters or using literal strings", `gatewayresponse.header.{name}`
 * ("x-amazon-apigateway-gateway-responses.responseParameters object",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-swagger-extensions-gateway-responses.responseParameters.html;
 * "Gateway responses for REST APIs in API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-gatewayResponse-definition.html):
 * CDK writes each of these so on every type below (./constructs/crm-api.ts), DEFAULT_4XX and DEFAULT_5XX included,
 * which cover the types not customised. docs/deploy.md, first deployment check 20, confirms it on AWS.
 */
export const gatewayResponseHeaders = {
  'x-request-id': 'context.requestId',
  ...(Object.fromEntries(Object.entries(noStoreHeaders).map(([name, value]) => [name, `'${value}'`])) as {
    [name in keyof typeof noStoreHeaders]: string;
  }),
} as const;

export function gatewayResponseBody(answer: Answer): string {
  return JSON.stringify({ error: { code: answer.code, message: answer.message } });
}

/** The mapping template of one gateway response: static JSON, the same on every path. */
export function gatewayResponseTemplate(type: GatewayResponseType): string {
  return gatewayResponseBody(gatewayResponses[type].answer);
}

/** The `$context` variables a local rendering knows; an unknown one renders empty. */
export type GatewayContext = Record<string, string | Record<string, string>>;

const contextVariable = /\$context((?:\.[A-Za-z][A-Za-z0-9_]*){1,2})/g;

function lookUp(context: GatewayContext, path: string): string {
  const [first = '', second] = path.slice(1).split('.');
  const value = context[first];
  if (second === undefined) return typeof value === 'string' ? value : '';
  return typeof value === 'object' ? (value[second] ?? '') : '';
}

/**
 * A gateway-response template rendered as API Gateway does: `$context.x` and `$context.x.y` are
 * substituted, nothing else is interpreted (a `#if`, `#set` or `$util` stays literal text).
 */
export function renderGatewayTemplate(template: string, context: GatewayContext): string {
  return template.replace(contextVariable, (_, path: string) => lookUp(context, path));
}

/** A response-header mapping expression: `'static'` or `context.x[.y]`. */
export function renderGatewayHeader(expression: string, context: GatewayContext): string {
  const quoted = /^'(.*)'$/s.exec(expression);
  if (quoted) return quoted[1] ?? '';
  return /^context(\.[A-Za-z][A-Za-z0-9_]*){1,2}$/.test(expression) ? lookUp(context, expression.slice(7)) : '';
}
