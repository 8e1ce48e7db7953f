import {
  answer,
  headerBytes,
  matchRoute,
  maxHeaderBytes,
  parseQuery,
  requestAuthorizerEvent,
} from '../../tools/local/api-gateway';
import { aCountingFunction, anIncomingRequest, eventFor, gatewayIds, testRoutes } from '../support/gateway-fixtures';

/** Routing, query strings and header quota of API Gateway REST as the local runtime models them (docs/deploy.md). */

const allow = async (event: { methodArn: string }) => ({
  principalId: 'p',
  policyDocument: {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }],
  },
  context: { outcome: 'allowed' },
});

const bodyOf = (reply: { body: Buffer }): unknown => JSON.parse(reply.body.toString('utf8'));

describe('a trailing slash', () => {
  test.each([
    ['GET', '/pipelines/', 'listPipelines', null],
    ['POST', '/prospects/p1/notes/', 'addNote', { prospect_id: 'p1' }],
    ['DELETE', '/prospects/p1/tags/Chaud/', 'removeTag', { prospect_id: 'p1', tag: 'Chaud' }],
  ])('%s %s is the resource without it', (method, path, id, parameters) => {
    const match = matchRoute(testRoutes, method, path);
    expect(match?.route.id).toBe(id);
    expect(match?.pathParameters).toEqual(parameters);
  });

  test.each([['/pipelines//'], ['/prospects/p1//'], ['/prospects//notes/'], ['//pipelines']])(
    'only one is ignored, and a parameter still needs a segment: %s matches nothing',
    (path) => {
      expect(matchRoute(testRoutes, path.includes('notes') ? 'POST' : 'GET', path)).toBeUndefined();
    },
  );

  test('the event keeps the path as sent, the resource as declared', () => {
    const event = eventFor({ target: '/pipelines/' });
    expect(event.path).toBe('/pipelines/');
    expect(event.resource).toBe('/pipelines');
    expect(event.requestContext.resourcePath).toBe('/pipelines');
  });
});

describe('the query string', () => {
  test('a semicolon splits the data like an ampersand; an encoded one does not', () => {
    expect([...parseQuery('q=abcd;20&x=1;y=2')]).toEqual([
      ['q', ['abcd']],
      ['20', ['']],
      ['x', ['1']],
      ['y', ['2']],
    ]);
    expect([...parseQuery('q=abcd%3B20')]).toEqual([['q', ['abcd;20']]]);
    expect([...parseQuery(';;a=1;')]).toEqual([['a', ['1']]]);
  });

  test('a semicolon splits the data in both events', () => {
    const event = eventFor({ target: '/pipelines?tag=a;api_key=secret' });
    expect(event.queryStringParameters).toEqual({ tag: 'a', api_key: 'secret' });
    expect(requestAuthorizerEvent(event).queryStringParameters).toEqual({ tag: 'a', api_key: 'secret' });
  });

  test('a repeated parameter: the last value in queryStringParameters, all in order in the multi-value map', () => {
    const event = eventFor({ target: '/pipelines?endpoint_id=first&other=1&endpoint_id=second;endpoint_id=third' });
    const expected = {
      queryStringParameters: { endpoint_id: 'third', other: '1' },
      multiValueQueryStringParameters: { endpoint_id: ['first', 'second', 'third'], other: ['1'] },
    };
    expect(event).toMatchObject(expected);
    expect(requestAuthorizerEvent(event)).toMatchObject(expected);
  });
});

describe('the header quota', () => {
  test('counts names, values, separators and line terminators', () => {
    expect(headerBytes(['Host', 'a', 'X-Long', 'bc'])).toBe('Host: a\r\n'.length + 'X-Long: bc\r\n'.length);
  });

  const headersOf = (bytes: number): string[] => {
    const fixed = ['Host', '127.0.0.1:3000'];
    const rest = bytes - headerBytes(fixed) - 'X-Pad: \r\n'.length;
    const headers = [...fixed, 'X-Pad', 'x'.repeat(rest)];
    expect(headerBytes(headers)).toBe(bytes);
    return headers;
  };

  test('10240 bytes of headers pass', async () => {
    const handler = aCountingFunction();
    const reply = await answer(
      testRoutes,
      anIncomingRequest({ rawHeaders: headersOf(maxHeaderBytes) }),
      { authorizer: allow, handler },
      gatewayIds,
    );
    expect(reply.statusCode).toBe(200);
    expect(handler.calls).toHaveLength(1);
  });

  test.each([
    ['a known route', '/pipelines'],
    ['an unknown path', '/nowhere'],
  ])('one byte more is a 431 bad_request on %s, without calling any function', async (_, target) => {
    const never = aCountingFunction();
    const reply = await answer(
      testRoutes,
      anIncomingRequest({ target, rawHeaders: headersOf(maxHeaderBytes + 1) }),
      { authorizer: never, handler: never },
      gatewayIds,
    );
    expect(reply.statusCode).toBe(431);
    expect(bodyOf(reply)).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
    expect(never.calls).toHaveLength(0);
  });
});
