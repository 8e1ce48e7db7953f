import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import {
  answer,
  authorizedEvent,
  authorizerFailed,
  gatewayReply,
  judgeAuthorizerResult,
  matchRoute,
  proxyReply,
  refusals,
  requestAuthorizerEvent,
} from '../../tools/local/api-gateway';
import { aCountingFunction, anIncomingRequest, eventFor, gatewayIds, testRoutes } from '../support/gateway-fixtures';

const arn = 'arn:aws:execute-api:eu-west-3:123456789012:localapi/local/GET/pipelines';

const anAuthorizerResult = (overrides: Partial<APIGatewayAuthorizerResult> = {}): APIGatewayAuthorizerResult => ({
  principalId: 'workspace-1',
  policyDocument: {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: arn }],
  },
  context: { outcome: 'allowed' },
  ...overrides,
});

const internal = { error: { code: 'internal', message: 'Erreur interne : réessayez dans quelques instants.' } };

const bodyOf = (reply: { body: Buffer }): unknown => JSON.parse(reply.body.toString('utf8'));

describe('route matching', () => {
  test('path templates match segment by segment and hand path parameters over still encoded, as REST does', () => {
    const match = matchRoute(testRoutes, 'DELETE', '/prospects/abc%20d+e/tags/Caf%C3%A9%2Fbar%25');
    expect(match?.route.id).toBe('removeTag');
    expect(match?.pathParameters).toEqual({ prospect_id: 'abc%20d+e', tag: 'Caf%C3%A9%2Fbar%25' });
  });

  test('an encoded slash stays inside its segment; a malformed escape is handed over as received', () => {
    expect(matchRoute(testRoutes, 'DELETE', '/prospects/p1/tags/a%2Fb')?.pathParameters).toEqual({
      prospect_id: 'p1',
      tag: 'a%2Fb',
    });
    expect(matchRoute(testRoutes, 'DELETE', '/prospects/%E9/tags/%')?.pathParameters).toEqual({
      prospect_id: '%E9',
      tag: '%',
    });
    expect(matchRoute(testRoutes, 'DELETE', '/prospects/p1/tags/a/b')).toBeUndefined();
  });

  test('a route without parameters has null path parameters', () => {
    expect(matchRoute(testRoutes, 'GET', '/pipelines')).toEqual({ route: testRoutes[0], pathParameters: null });
  });

  test.each([
    ['GET', '/nowhere'],
    ['POST', '/pipelines'],
    ['GET', '/pipelines/extra'],
    ['POST', '/prospects//notes'],
  ])('%s %s matches no route', (method, path) => {
    expect(matchRoute(testRoutes, method, path)).toBeUndefined();
  });
});

describe('proxy event', () => {
  test('keeps header names as sent; a repeated header keeps its last value, multiValueHeaders all', () => {
    const event = eventFor({
      rawHeaders: [
        'Host',
        'localhost',
        'X-Custom-Header',
        'one',
        'authorization',
        'Bearer k',
        'x-custom-header',
        'two',
      ],
    });
    expect(event.headers).toEqual({ Host: 'localhost', 'X-Custom-Header': 'two', authorization: 'Bearer k' });
    expect(event.multiValueHeaders).toEqual({
      Host: ['localhost'],
      'X-Custom-Header': ['one', 'two'],
      authorization: ['Bearer k'],
    });
  });

  test('decodes the query string; a repeated parameter keeps its last value', () => {
    const event = eventFor({ target: '/pipelines?tag=a&name=Caf%C3%A9+noir&tag=b&flag&empty=' });
    expect(event.queryStringParameters).toEqual({ tag: 'b', name: 'Café noir', flag: '', empty: '' });
    expect(event.multiValueQueryStringParameters).toEqual({
      tag: ['a', 'b'],
      name: ['Café noir'],
      flag: [''],
      empty: [''],
    });
  });

  test('has null query and path parameters when there are none, and a null body when empty', () => {
    const event = eventFor();
    expect(event.queryStringParameters).toBeNull();
    expect(event.multiValueQueryStringParameters).toBeNull();
    expect(event.pathParameters).toBeNull();
    expect(event.stageVariables).toBeNull();
    expect(event.body).toBeNull();
    expect(event.isBase64Encoded).toBe(false);
  });

  test('describes the resource, the raw path, the body and the request context', () => {
    const event = eventFor({
      method: 'POST',
      target: '/prospects/p%201/notes',
      body: '{"content":"Rappeler"}',
      sourceIp: '10.0.0.7',
      rawHeaders: ['Host', '127.0.0.1:3000', 'User-Agent', 'jest'],
    });
    expect(event).toMatchObject({
      resource: '/prospects/{prospect_id}/notes',
      path: '/prospects/p%201/notes',
      httpMethod: 'POST',
      pathParameters: { prospect_id: 'p%201' },
      body: '{"content":"Rappeler"}',
    });
    expect(event.requestContext).toMatchObject({
      resourcePath: '/prospects/{prospect_id}/notes',
      httpMethod: 'POST',
      path: '/prospects/p%201/notes',
      stage: 'local',
      requestId: 'request-1',
      requestTimeEpoch: gatewayIds.now.getTime(),
      requestTime: '05/Mar/2024:08:09:10 +0000',
      protocol: 'HTTP/1.1',
      domainName: '127.0.0.1:3000',
      identity: { sourceIp: '10.0.0.7', userAgent: 'jest' },
    });
    expect(event.requestContext.authorizer).toBeUndefined();
  });

  test('the REQUEST authorizer event carries the method ARN and the same request', () => {
    const event = eventFor({ target: '/pipelines?x=1' });
    const authorizerEvent = requestAuthorizerEvent(event);
    expect(authorizerEvent).toMatchObject({
      type: 'REQUEST',
      methodArn: arn,
      resource: '/pipelines',
      path: '/pipelines',
      httpMethod: 'GET',
      headers: event.headers,
      multiValueHeaders: event.multiValueHeaders,
      queryStringParameters: { x: '1' },
      multiValueQueryStringParameters: { x: ['1'] },
      pathParameters: null,
      stageVariables: null,
    });
    expect(authorizerEvent.requestContext.requestId).toBe('request-1');
  });
});

describe('authorizer result', () => {
  test('an Allow for the method ARN passes the context as strings with principalId', () => {
    const verdict = judgeAuthorizerResult(
      anAuthorizerResult({ context: { outcome: 'allowed', count: 3, admin: true } }),
      arn,
      12,
    );
    expect(verdict).toEqual({
      allowed: true,
      authorizer: { outcome: 'allowed', count: '3', admin: 'true', principalId: 'workspace-1', integrationLatency: 12 },
    });
    const event = authorizedEvent(eventFor(), verdict.allowed ? verdict.authorizer : {});
    expect(event.requestContext.authorizer).toMatchObject({ outcome: 'allowed', principalId: 'workspace-1' });
  });

  test.each([
    ['the exact ARN', arn],
    ['a * wildcard', 'arn:aws:execute-api:eu-west-3:123456789012:localapi/*'],
    ['a ? wildcard', 'arn:aws:execute-api:eu-west-3:123456789012:localapi/local/GE?/pipeline?'],
    ['a list holding it', ['arn:aws:execute-api:eu-west-3:123456789012:other/*', arn]],
  ])('an Allow on %s lets the request through', (_, resource) => {
    const result = anAuthorizerResult({
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: resource }],
      },
    });
    expect(judgeAuthorizerResult(result, arn, 0).allowed).toBe(true);
  });

  test('an explicit Deny wins over an Allow', () => {
    const result = anAuthorizerResult({
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: '*' },
          { Action: 'execute-api:*', Effect: 'Deny', Resource: 'arn:aws:execute-api:*:*:*/local/GET/*' },
        ],
      },
    });
    expect(judgeAuthorizerResult(result, arn, 0)).toEqual({ allowed: false, refusal: refusals.accessDenied });
  });

  test.each([
    ['another method', 'arn:aws:execute-api:eu-west-3:123456789012:localapi/local/POST/pipelines'],
    ['another path', 'arn:aws:execute-api:eu-west-3:123456789012:localapi/local/GET/prospects/*'],
    ['a ? that needs one more character', 'arn:aws:execute-api:eu-west-3:123456789012:localapi/local/GET/pipelines?'],
  ])('an Allow only on %s is answered 403', (_, resource) => {
    const result = anAuthorizerResult({
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: resource }],
      },
    });
    expect(judgeAuthorizerResult(result, arn, 0)).toEqual({ allowed: false, refusal: refusals.accessDenied });
  });

  test('an Allow for another action is answered 403', () => {
    const result = anAuthorizerResult({
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'dynamodb:GetItem', Effect: 'Allow', Resource: arn }],
      },
    });
    expect(judgeAuthorizerResult(result, arn, 0)).toEqual({ allowed: false, refusal: refusals.accessDenied });
  });

  test.each([
    ['an object', { nested: { a: 1 } }],
    ['an array', { list: ['a'] }],
    ['a null', { nothing: null }],
  ])('a context value that is %s is a 500', (_, context) => {
    const result = { ...anAuthorizerResult(), context };
    expect(judgeAuthorizerResult(result, arn, 0)).toEqual({ allowed: false, refusal: refusals.authorizerFailure });
  });

  test.each([
    ['no answer', undefined],
    ['no principalId', { policyDocument: anAuthorizerResult().policyDocument }],
    ['no policy document', { principalId: 'p' }],
    [
      'a statement without a valid Effect',
      { principalId: 'p', policyDocument: { Statement: [{ Effect: 'Maybe', Action: '*', Resource: '*' }] } },
    ],
  ])('%s is a 500', (_, result) => {
    expect(judgeAuthorizerResult(result, arn, 0)).toEqual({ allowed: false, refusal: refusals.authorizerFailure });
  });

  test('a thrown "Unauthorized" is a 401, any other failure a 500', () => {
    expect(authorizerFailed(new Error('Unauthorized'))).toEqual({ allowed: false, refusal: refusals.unauthorized });
    expect(authorizerFailed(new Error('boom'))).toEqual({ allowed: false, refusal: refusals.authorizerFailure });
  });
});

describe('handler result', () => {
  test('a valid result gives status, merged headers and body', () => {
    const reply = proxyReply(
      {
        statusCode: 201,
        headers: { 'Content-Type': 'text/plain', 'RateLimit-Remaining': 119, 'X-Flag': true },
        multiValueHeaders: { 'Set-Cookie': ['a=1', 'b=2'] },
        body: 'créé',
      },
      '/pipelines',
      'request-1',
    );
    expect(reply.statusCode).toBe(201);
    expect(reply.headers).toEqual({
      'Content-Type': ['text/plain'],
      'RateLimit-Remaining': ['119'],
      'X-Flag': ['true'],
      'Set-Cookie': ['a=1', 'b=2'],
      'x-amzn-RequestId': ['request-1'],
    });
    expect(reply.body.toString('utf8')).toBe('créé');
  });

  test('a base64 body is decoded and a missing body is empty, as JSON by default', () => {
    expect(
      proxyReply({ statusCode: 200, body: 'aGk=', isBase64Encoded: true }, '/pipelines', 'r').body.toString(),
    ).toBe('hi');
    const empty = proxyReply({ statusCode: 204 }, '/pipelines', 'r');
    expect(empty.body.length).toBe(0);
    expect(empty.headers['Content-Type']).toEqual(['application/json']);
  });

  test.each([
    ['no statusCode', { body: '{}' }],
    ['a statusCode that is a string', { statusCode: '200', body: '{}' }],
    ['a statusCode that is not an integer', { statusCode: 200.5, body: '{}' }],
    ['a body that is an object', { statusCode: 200, body: { ok: true } }],
    ['a body that is a number', { statusCode: 200, body: 3 }],
    ['a header value that is an object', { statusCode: 200, headers: { 'X-A': { b: 1 } }, body: '' }],
    ['a multiValueHeaders entry that is not a list', { statusCode: 200, multiValueHeaders: { 'X-A': 'b' } }],
    ['a non-boolean isBase64Encoded', { statusCode: 200, body: '', isBase64Encoded: 'yes' }],
    ['an unknown field', { statusCode: 200, body: '', cookies: [] }],
    ['a plain string', 'ok'],
    ['nothing', undefined],
  ])('%s is a 502 with the DEFAULT_5XX body', (_, result) => {
    const reply = proxyReply(result, '/pipelines', 'request-1');
    expect(reply.statusCode).toBe(502);
    expect(bodyOf(reply)).toEqual(internal);
  });
});

describe('one request through the gateway', () => {
  const allowAll = async (event: { methodArn: string }) =>
    anAuthorizerResult({
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }],
      },
    });
  const ok = async () => ({ statusCode: 200, body: '{"ok":true}' });

  test('runs the authorizer, then the handler with the authorizer context', async () => {
    const seen: unknown[] = [];
    const reply = await answer(
      testRoutes,
      anIncomingRequest({ method: 'POST', target: '/prospects/p1/notes', body: '{}' }),
      {
        authorizer: async (event) => {
          seen.push(event);
          return allowAll(event);
        },
        handler: async (route, event) => {
          seen.push({ route: route.id, authorizer: event.requestContext.authorizer, body: event.body });
          return ok();
        },
      },
      gatewayIds,
    );
    expect(reply.statusCode).toBe(200);
    expect(seen).toEqual([
      expect.objectContaining({ type: 'REQUEST', resource: '/prospects/{prospect_id}/notes' }),
      {
        route: 'addNote',
        authorizer: expect.objectContaining({ outcome: 'allowed', principalId: 'workspace-1' }),
        body: '{}',
      },
    ]);
  });

  test.each([
    ['an unknown path', 'GET', '/nowhere'],
    ['a known path with another method', 'PATCH', '/pipelines'],
  ])('%s is a 404 not_found without calling any function', async (_, method, target) => {
    const never = aCountingFunction();
    const reply = await answer(
      testRoutes,
      anIncomingRequest({ method, target }),
      { authorizer: never, handler: never },
      gatewayIds,
    );
    expect(reply.statusCode).toBe(404);
    expect(bodyOf(reply)).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    expect(never.calls).toHaveLength(0);
  });

  test('a body past the quota is a 413', async () => {
    const never = aCountingFunction();
    const reply = await answer(
      testRoutes,
      anIncomingRequest({ body: undefined }),
      { authorizer: never, handler: never },
      gatewayIds,
    );
    expect(reply.statusCode).toBe(413);
    expect(never.calls).toHaveLength(0);
  });

  test('a thrown handler is a 502 with the DEFAULT_5XX body', async () => {
    const reply = await answer(
      testRoutes,
      anIncomingRequest(),
      {
        authorizer: allowAll,
        handler: async () => {
          throw new Error('boom');
        },
      },
      gatewayIds,
    );
    expect(reply.statusCode).toBe(502);
    expect(bodyOf(reply)).toEqual(internal);
  });

  test('past the integration timeout the client gets the 504 of INTEGRATION_TIMEOUT, rendered by DEFAULT_5XX', async () => {
    let finish = () => undefined as void;
    const handler = () => new Promise<unknown>((resolve) => (finish = () => resolve({ statusCode: 200, body: '' })));
    const reply = await answer(testRoutes, anIncomingRequest(), { authorizer: allowAll, handler }, gatewayIds, 20);
    finish();
    expect(reply.statusCode).toBe(504);
    expect(reply.headers['x-request-id']).toEqual([gatewayIds.requestId]);
    expect(bodyOf(reply)).toEqual(internal);
  });

  test('the integration timeout bounds the handler only, not the authorizer before it', async () => {
    const slowAllow = async (event: { methodArn: string }) => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      return allowAll(event);
    };
    const reply = await answer(testRoutes, anIncomingRequest(), { authorizer: slowAllow, handler: ok }, gatewayIds, 30);
    expect(reply.statusCode).toBe(200);
  });

  test.each([
    ['Unauthorized', 401],
    ['boom', 500],
  ])('an authorizer throwing "%s" is a %i and the handler is not called', async (message, status) => {
    const handler = aCountingFunction();
    const reply = await answer(
      testRoutes,
      anIncomingRequest(),
      {
        authorizer: async () => {
          throw new Error(message);
        },
        handler,
      },
      gatewayIds,
    );
    expect(reply.statusCode).toBe(status);
    expect(handler.calls).toHaveLength(0);
  });
});

describe('gateway responses', () => {
  test('an unknown route is a 404 not_found in the standard shape', () => {
    const reply = gatewayReply(refusals.missingRoute, undefined, 'request-1');
    expect(reply.statusCode).toBe(404);
    expect(reply.headers['Content-Type']).toEqual(['application/json']);
    expect(bodyOf(reply)).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  test('the status of each refusal and the body shape of the route', () => {
    expect(gatewayReply(refusals.unauthorized, '/pipelines', 'r').statusCode).toBe(401);
    expect(gatewayReply(refusals.accessDenied, '/pipelines', 'r').statusCode).toBe(403);
    expect(gatewayReply(refusals.requestTooLarge, '/pipelines', 'r').statusCode).toBe(413);
    expect(gatewayReply(refusals.authorizerFailure, '/pipelines', 'r').statusCode).toBe(500);
    expect(bodyOf(gatewayReply(refusals.unauthorized, '/pipelines', 'r'))).toEqual({
      error: { code: 'unauthorized', message: expect.any(String) },
    });
  });
});
