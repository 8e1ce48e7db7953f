import { messages } from '../../lib/messages';
import { maxWebhookBodyBytes, routes, type Route } from '../../lib/routes';
import { pageResourcePaths } from './settings-page';
import { isSettingsRoute } from './settings-routes';

/**
 * The AWS WAF rules in front of the API stage, as plain data: infra/cdk/constructs/web-acl.ts
 * turns them into a web ACL, and the local stand-in for API Gateway (tools/local/api-gateway.ts)
 * applies the body-size rules with the same patterns, so both answer alike.
 *
 * Why a WAF: API Gateway REST accepts payloads up to 10 MB, a synchronous Lambda invocation at
 * most 6 MB. A body between the two never reaches the handler (that would answer the route's 400
 * past 256 KB, docs/api.md#webhook-bodies): API Gateway answers a 5xx. The WAF refuses such a
 * body first, with the route's own 400. It cannot measure the body itself (it inspects at most the
 * first 16 KB of an API Gateway request body by default, 64 KB at most; "Oversize web request
 * components" in the AWS WAF Developer Guide), so it reads the declared `Content-Length`.
 */

/** Bodies declared larger than this are refused (the handlers' own limit, docs/api.md#webhook-bodies). */
export const maxDeclaredBodyBytes = maxWebhookBodyBytes;

/**
 * A regular expression matching a decimal number greater than `limit` (leading zeros allowed),
 * in the PCRE subset AWS WAF accepts: no look-around, no back-reference.
 */
export function decimalGreaterThan(limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`not a size: ${limit}`);
  const digits = String(limit);
  const alternatives = [`[1-9][0-9]{${digits.length},}`];
  for (let at = 0; at < digits.length; at += 1) {
    const digit = Number(digits[at]);
    if (digit === 9) continue;
    const rest = digits.length - at - 1;
    const higher = digit === 8 ? '9' : `[${digit + 1}-9]`;
    alternatives.push(`${digits.slice(0, at)}${higher}${rest > 0 ? `[0-9]{${rest}}` : ''}`);
  }
  return `^0*(?:${alternatives.join('|')})$`;
}

/** Paths whose errors take the lead webhook's shape `{ "error", "message" }`. */
export const leadPaths = routes.filter((route) => route.errorShape === 'lead').map((route) => route.path);

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The URI path WAF sees: `/<stage>/webhooks/ingest-lead` on the execute-api host,
 * `/webhooks/ingest-lead` (or `/<base path>/…`) on a custom domain; a trailing slash tolerated.
 * WAF decodes it first (URL_DECODE text transformation).
 */
export const leadPathPattern = `^(?:/[^/]+)?(?:${leadPaths.map(escapeRegex).join('|')})/?$`;

type JsonBody = { key: string; content: string };

/**
 * Per client IP, over a sliding 60-second window: 10 requests that carry no credential at all, the
 * lowest limit a rate-based rule takes ("Rate-based rule high-level settings in AWS WAF",
 * https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based-high-level-settings.html).
 * Every route needs a credential, so such a request can only be answered 401 or 404: no client needs
 * more than a few a minute. The settings page's files are the exception, left out (`pagePathPattern`). Anonymous clients, held to 10 a second each by the per-IP rule alone, now
 * need 60 times more addresses to empty a webhook's throttle (docs/deploy.md#anonymous-requests).
 */
export const anonymousRateLimit = { limit: 10, evaluationWindowSec: 60 } as const;

/**
 * The places the authorizer reads a credential from (lib/auth/authorize.ts): an API key or a webhook
 * token as `Authorization: Bearer`, then the webhooks' `x-webhook-token` header and `?token=` query
 * parameter (docs/api.md#webhook-token-authentication). A request with something in one of them is not
 * anonymous, whether or not its credential is valid: a webhook call with `?token=` is never counted by
 * the anonymous rule. WAF matches both kinds of name without regard to case ("SingleHeader",
 * "SingleQueryArgument" in the AWS WAF API Reference), as the authorizer reads headers.
 */
export const credentialPlaces = { headers: ['authorization', 'x-webhook-token'], queryArguments: ['token'] } as const;

/**
 * The routes that take no credential at all (`credential: 'none'`: sign-in, its refresh, the password reset and its
 * confirmation): they read none of the places above, so a request to one of them is anonymous whatever it carries
 * there, and always counted by the anonymous rule. Otherwise a made-up `Authorization` header would take a
 * password-guessing client out of that rule's 10 a minute, into the settings rule's 120.
 */
export const credentialFreeRoutes = (routeList: readonly Route[]): Route[] =>
  routeList.filter((route) => route.credential === 'none');

/**
 * The URI paths of `routeList`'s routes as WAF sees them, behind the stage (execute-api host) or not (custom domain),
 * a trailing slash tolerated: each path whole, a `{parameter}` matching one segment. WAF decodes it first
 * (URL_DECODE).
 */
export const exactPathsPattern = (routeList: readonly Route[]): string => {
  const pathPattern = (path: string) =>
    path
      .split(/\{[^}]+\}/)
      .map(escapeRegex)
      .join('[^/]+');
  return `^(?:/[^/]+)?(?:${[...new Set(routeList.map((route) => pathPattern(route.path)))].join('|')})/?$`;
};

/**
 * The settings page's URI paths as WAF sees them, behind the stage or not: `/app`, `/app/` and its files
 * (./constructs/settings-page.ts). A browser asks for them without any credential, the page holding none, and they
 * run neither the authorizer nor a function: the anonymous rule leaves them out, or people opening the page behind
 * one address (an office's NAT), the page and its two files each, would be refused by it. The per-IP rule still
 * counts them, and each of the page's methods has its own throttle.
 */
export const pagePathPattern = `^(?:/[^/]+)?${escapeRegex(pageResourcePaths.page)}(?:/|$)`;

const bodyTooLarge = messages.body.webhookTooLarge(maxDeclaredBodyBytes / 1024);

/** WAF custom response bodies (JSON, at most 4 KB each), keyed as the web ACL's CustomResponseBodies. */
export const wafResponseBodies = {
  leadBodyTooLarge: {
    key: 'lead-body-too-large',
    content: JSON.stringify({ error: 'invalid_payload', message: bodyTooLarge }),
  },
  bodyTooLarge: {
    key: 'body-too-large',
    content: JSON.stringify({ error: { code: 'bad_request', message: bodyTooLarge } }),
  },
  ipRateLimited: {
    key: 'ip-rate-limited',
    content: JSON.stringify({ error: { code: 'rate_limited', message: messages.gateway.ipRateLimited(60) } }),
  },
  anonymousRateLimited: {
    key: 'anonymous-rate-limited',
    content: JSON.stringify({
      error: {
        code: 'rate_limited',
        message: messages.gateway.ipRateLimited(anonymousRateLimit.evaluationWindowSec),
      },
    }),
  },
} as const satisfies Record<string, JsonBody>;

export type WafBlock = { statusCode: number; body: JsonBody; headers: Record<string, string> };

/**
 * Per client IP, over a sliding 60-second window: 600 requests, 10 a second. A form tool
 * (Zapier, Make) or a company's NAT sends several workspaces' calls from one address, so the
 * limit is five API keys at their full 120 a minute; one address can still use only 4 % of a
 * webhook's throttle, 5 % of a Prospect API method's (./constructs/crm-api.ts). Numbers and reasons:
 * docs/deploy.md.
 */
export const ipRateLimit = { limit: 600, evaluationWindowSec: 60 } as const;

/**
 * Per client IP, over a sliding 60-second window: 120 calls of the settings API and its sign-in routes, the limit
 * of one member in one workspace (docs/api.md#settings-api). People at a screen make a call or two per action; one
 * address at this limit holds a tenth of one settings method's throttle (./constructs/crm-api.ts), where the per-IP
 * rule alone would let it hold half. A sign-in call without any credential counts toward the anonymous rule too.
 */
export const settingsRateLimit = { limit: 120, evaluationWindowSec: 60 } as const;

/**
 * The first path segments of the settings routes (`/workspaces`, `/session`, `/password-reset`): a rule on a few
 * segments stays far under WAF's 512 characters of a regular expression, whatever the number of routes. No other
 * route may start with one of them, or the rule would count it.
 */
export function settingsPathSegments(routeList: readonly Route[]): string[] {
  const segmentOf = (route: Route) => route.path.split('/')[1]!;
  const segments = [...new Set(routeList.filter(isSettingsRoute).map(segmentOf))];
  const shared = routeList.filter((route) => !isSettingsRoute(route) && segments.includes(segmentOf(route)));
  if (shared.length > 0)
    throw new Error(`Routes outside the settings API under its paths: ${shared.map((r) => r.id).join(', ')}`);
  return segments;
}

/** The URI paths of the settings routes as WAF sees them, behind the stage (execute-api host) or not (custom domain). */
export const settingsPathPattern = (segments: readonly string[]): string =>
  `^(?:/[^/]+)?/(?:${segments.map(escapeRegex).join('|')})(?:/|$)`;

/** The rules, by priority (WAF evaluates them in this order; the first matching block answers). */
export const wafRules = {
  ipRateLimit: {
    name: 'RequestsPerIp',
    priority: 0,
    block: {
      statusCode: 429,
      body: wafResponseBodies.ipRateLimited,
      headers: { 'Retry-After': String(ipRateLimit.evaluationWindowSec) },
    },
  },
  leadBodyTooLarge: {
    name: 'LeadWebhookBodyTooLarge',
    priority: 1,
    block: { statusCode: 400, body: wafResponseBodies.leadBodyTooLarge, headers: {} },
  },
  bodyTooLarge: {
    name: 'BodyTooLarge',
    priority: 2,
    block: { statusCode: 400, body: wafResponseBodies.bodyTooLarge, headers: {} },
  },
  /** After the per-IP rule, which so still counts every request; blocks only requests without a credential. */
  anonymousRateLimit: {
    name: 'AnonymousRequestsPerIp',
    priority: 3,
    block: {
      statusCode: 429,
      body: wafResponseBodies.anonymousRateLimited,
      headers: { 'Retry-After': String(anonymousRateLimit.evaluationWindowSec) },
    },
  },
  /** Only when the route list has settings routes: the paths of `settingsPathSegments`. */
  settingsRateLimit: {
    name: 'SettingsRequestsPerIp',
    priority: 4,
    block: {
      statusCode: 429,
      body: wafResponseBodies.ipRateLimited,
      headers: { 'Retry-After': String(settingsRateLimit.evaluationWindowSec) },
    },
  },
} as const satisfies Record<string, { name: string; priority: number; block: WafBlock }>;

/** The `content-length` values the body-size rules refuse. */
export const contentLengthPattern = decimalGreaterThan(maxDeclaredBodyBytes);

/**
 * The body-size rules as WAF evaluates them: the declared length first, then the path for the
 * response shape. No `Content-Length` (a chunked body) matches neither rule.
 */
export function bodySizeBlock(uriPath: string, contentLength: string | undefined): WafBlock | undefined {
  if (contentLength === undefined || !new RegExp(contentLengthPattern).test(contentLength)) return undefined;
  let decoded = uriPath;
  try {
    decoded = decodeURIComponent(uriPath);
  } catch {
    // WAF's URL_DECODE leaves a malformed escape as it is.
  }
  return new RegExp(leadPathPattern).test(decoded) ? wafRules.leadBodyTooLarge.block : wafRules.bodyTooLarge.block;
}
