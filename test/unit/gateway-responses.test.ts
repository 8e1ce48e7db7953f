import fc from 'fast-check';
import { noStoreHeaders } from '../../lib/routes';
import {
  gatewayResponseHeaders,
  gatewayResponses,
  gatewayResponseTemplate,
  renderGatewayHeader,
  renderGatewayTemplate,
  type GatewayContext,
  type GatewayResponseType,
} from '../../infra/cdk/gateway-responses';
import {
  bodySizeBlock,
  contentLengthPattern,
  decimalGreaterThan,
  leadPathPattern,
  maxDeclaredBodyBytes,
  wafResponseBodies,
  wafRules,
} from '../../infra/cdk/waf-rules';
import { gatewayReply, refusals } from '../../tools/local/api-gateway';

const types = Object.keys(gatewayResponses) as GatewayResponseType[];

/** A context with every variable API Gateway could put there, made of characters JSON would have to escape. */
const hostileContext = {
  requestId: 'req-"1"\\',
  resourcePath: '/webhooks/ingest-lead',
  error: { responseType: 'DEFAULT_4XX', messageString: '"quoted"', message: 'a "b"' },
};

describe('gateway-response templates (simple substitution, no VTL)', () => {
  test.each(types)('%s renders to valid JSON in the standard shape, whatever the context', (type) => {
    const template = gatewayResponseTemplate(type);
    const contexts: GatewayContext[] = [{}, { requestId: 'r-1', resourcePath: '/pipelines' }, hostileContext];
    for (const context of contexts) {
      const body: unknown = JSON.parse(renderGatewayTemplate(template, context));
      expect(body).toEqual({ error: { code: gatewayResponses[type].answer.code, message: expect.any(String) } });
    }
  });

  test.each(types)('%s is static text: no directive, no variable', (type) => {
    const template = gatewayResponseTemplate(type);
    expect(template).not.toMatch(/[#$]/);
    expect(renderGatewayTemplate(template, hostileContext)).toBe(template);
  });

  test('a VTL directive is not run: it stays as literal text (and the JSON breaks)', () => {
    const template = '#if($context.resourcePath == "/x"){"a":1}#else{"b":2}#end';
    const rendered = renderGatewayTemplate(template, { resourcePath: '/x' });
    expect(rendered).toBe('#if(/x == "/x"){"a":1}#else{"b":2}#end');
    expect(() => JSON.parse(rendered)).toThrow();
  });

  test('$context.x and $context.x.y are substituted, an unknown one is empty, $util stays literal', () => {
    const rendered = renderGatewayTemplate(
      '{"id":"$context.requestId","type":"$context.error.responseType","x":"$context.nothing","u":"$util.escapeJavaScript(1)"}',
      { requestId: 'r-1', error: { responseType: 'THROTTLED' } },
    );
    expect(JSON.parse(rendered)).toEqual({ id: 'r-1', type: 'THROTTLED', x: '', u: '$util.escapeJavaScript(1)' });
  });

  test('header mappings: context variables and quoted static values', () => {
    expect(renderGatewayHeader('context.requestId', { requestId: 'r-1' })).toBe('r-1');
    expect(renderGatewayHeader("'60'", {})).toBe('60');
    expect(renderGatewayHeader(gatewayResponseHeaders['x-request-id'], { requestId: 'r-2' })).toBe('r-2');
  });

  test('every gateway response maps Cache-Control: no-store and X-Content-Type-Options: nosniff, as static values', () => {
    expect(gatewayResponseHeaders).toEqual({
      'x-request-id': 'context.requestId',
      'Cache-Control': "'no-store'",
      'X-Content-Type-Options': "'nosniff'",
    });
    // The same values as the handlers' answers.
    for (const [name, value] of Object.entries(noStoreHeaders)) {
      expect(renderGatewayHeader(gatewayResponseHeaders[name as keyof typeof noStoreHeaders], {})).toBe(value);
    }
    expect(types).toEqual(expect.arrayContaining(['DEFAULT_4XX', 'DEFAULT_5XX']));
  });

  test.each(Object.entries(refusals))(
    'the local server’s %s carries both headers, as API Gateway would',
    (_, refusal) => {
      const reply = gatewayReply(refusal, '/workspaces/{workspace_id}/webhook', 'r-4');
      expect(reply.headers).toMatchObject({
        'Cache-Control': ['no-store'],
        'X-Content-Type-Options': ['nosniff'],
        'x-request-id': ['r-4'],
      });
    },
  );

  test('the local gateway reply is the rendered template, with x-request-id, on the lead webhook too', () => {
    for (const path of ['/webhooks/ingest-lead', '/pipelines', undefined]) {
      const reply = gatewayReply(refusals.requestTooLarge, path, 'r-3');
      expect(reply.statusCode).toBe(413);
      expect(reply.headers['x-request-id']).toEqual(['r-3']);
      expect(reply.body.toString()).toBe(gatewayResponseTemplate('REQUEST_TOO_LARGE'));
      expect(JSON.parse(reply.body.toString())).toEqual({
        error: { code: 'bad_request', message: expect.any(String) },
      });
    }
  });
});

describe('WAF rules', () => {
  test('every custom response body is JSON under WAF’s 4 KB, in the route’s shape', () => {
    for (const body of Object.values(wafResponseBodies)) {
      expect(Buffer.byteLength(body.content)).toBeLessThanOrEqual(4096);
      JSON.parse(body.content);
    }
    expect(JSON.parse(wafResponseBodies.leadBodyTooLarge.content)).toEqual({
      error: 'invalid_payload',
      message: expect.any(String),
    });
    expect(JSON.parse(wafResponseBodies.bodyTooLarge.content)).toEqual({
      error: { code: 'bad_request', message: expect.any(String) },
    });
    expect(JSON.parse(wafResponseBodies.ipRateLimited.content)).toEqual({
      error: { code: 'rate_limited', message: expect.any(String) },
    });
    expect(wafRules.ipRateLimit.block).toMatchObject({ statusCode: 429, headers: { 'Retry-After': '60' } });
  });

  test('the content-length pattern matches exactly the values over 256 KB', () => {
    const pattern = new RegExp(contentLengthPattern);
    for (const value of [0, 1, 262143, 262144, 262145, 262150, 262200, 263000, 270000, 300000, 999999, 1000000])
      expect([value, pattern.test(String(value))]).toEqual([value, value > maxDeclaredBodyBytes]);
    expect(pattern.test('00262145')).toBe(true);
    expect(pattern.test('0000262144')).toBe(false);
    expect(pattern.test('')).toBe(false);
    expect(pattern.test('3e6')).toBe(false);
    expect(pattern.test('7340032 ')).toBe(false);
  });

  test('decimalGreaterThan(n) matches m exactly when m > n', () => {
    fc.assert(
      fc.property(fc.nat({ max: 99_999_999 }), fc.nat({ max: 2_000_000_000 }), (limit, value) => {
        expect(new RegExp(decimalGreaterThan(limit)).test(String(value))).toBe(value > limit);
      }),
    );
    for (const limit of [0, 9, 10, 89, 99, 100, 262144]) {
      for (let value = Math.max(0, limit - 200); value <= limit + 200; value += 1)
        expect(new RegExp(decimalGreaterThan(limit)).test(String(value))).toBe(value > limit);
    }
  });

  test('the patterns use no construct AWS WAF refuses (capturing group, back-reference, look-around)', () => {
    for (const pattern of [contentLengthPattern, leadPathPattern]) {
      expect(pattern).not.toMatch(/\((?!\?:)/);
      expect(pattern).not.toMatch(/\\[1-9]|\(\?[=!<]/);
    }
  });

  test.each([
    ['/webhooks/ingest-lead', true],
    ['/prod/webhooks/ingest-lead', true],
    ['/prod/webhooks/ingest-lead/', true],
    ['/webhooks/recruitment', false],
    ['/prod/webhooks/recruitment', false],
    ['/pipelines', false],
    ['/a/b/webhooks/ingest-lead', false],
    ['/webhooks/ingest-lead-x', false],
  ])('the lead path pattern on %s: %s', (path, matches) => {
    expect(new RegExp(leadPathPattern).test(path)).toBe(matches);
  });

  test('a body declared over 256 KB gets the route’s 400; no length, or a small one, passes', () => {
    expect(bodySizeBlock('/webhooks/ingest-lead', '7340032')).toBe(wafRules.leadBodyTooLarge.block);
    expect(bodySizeBlock('/webhooks/ingest%2Dlead', '7340032')).toBe(wafRules.leadBodyTooLarge.block);
    expect(bodySizeBlock('/webhooks/recruitment', '7340032')).toBe(wafRules.bodyTooLarge.block);
    expect(bodySizeBlock('/prospects/p/notes', '262145')).toBe(wafRules.bodyTooLarge.block);
    expect(bodySizeBlock('/webhooks/ingest-lead', '262144')).toBeUndefined();
    expect(bodySizeBlock('/webhooks/ingest-lead', undefined)).toBeUndefined();
  });
});
