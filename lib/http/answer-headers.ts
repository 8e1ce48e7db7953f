/**
 * On every answer of every route, success or error (lib/http/middleware/route.ts `errorAnswers`), and on API
 * Gateway's own answers (infra/cdk/gateway-responses.ts): answers carry API keys, webhook tokens, signing secrets and
 * session tokens, so no cache (a browser's, a proxy's) may keep one (RFC 9111, section 5.2.2.5, `no-store`), and a
 * browser must read a body as the JSON it is typed as, never sniff it into HTML or a script (the Fetch standard,
 * `X-Content-Type-Options: nosniff`).
 */
export const noStoreHeaders = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const satisfies Record<string, string>;
