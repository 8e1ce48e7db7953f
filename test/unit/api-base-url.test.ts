import type { APIGatewayProxyEvent } from 'aws-lambda';
import { apiBaseUrlOf } from '../../lib/http/request-input';
import { deployedRouteById as routeById } from '../../infra/cdk/route-grants';
import { matchRoute, proxyEvent } from '../../tools/local/api-gateway';
import { aProxyEvent } from '../support/events';

/**
 * The base of the webhook URLs a settings answer shows: the API as the caller reached it. The events are shaped as
 * API Gateway REST hands them to the function (`GET /workspaces/{workspace_id}/webhook`): on the execute-api host
 * `path` has no stage and `requestContext.path` has it; behind a custom domain both have the mapping's base path,
 * as captured in github.com/aws/serverless-java-container/issues/112 and
 * github.com/CodeGenieApp/serverless-express/issues/216; `resource` and `resourcePath` are the route's template.
 */
const workspaceId = '6f1c2b1e-1d2c-4c3b-9a8e-7f6e5d4c3b2a';
const route = routeById('getWebhook');

function reached(domainName: string, requestPath: string, path: string, stage = 'prod'): APIGatewayProxyEvent {
  const event = aProxyEvent({
    resource: route.path,
    path,
    httpMethod: route.method,
    headers: { Host: domainName, 'X-Forwarded-Proto': 'https' },
    pathParameters: { workspace_id: workspaceId },
  });
  event.requestContext = {
    ...event.requestContext,
    domainName,
    domainPrefix: domainName.split('.')[0] as string,
    path: requestPath,
    resourcePath: route.path,
    stage,
    httpMethod: route.method,
  };
  return event;
}

const routePath = `/workspaces/${workspaceId}/webhook`;

test('the default execute-api host: https, the stage in the path', () => {
  const host = 'abc123defg.execute-api.eu-west-3.amazonaws.com';
  expect(apiBaseUrlOf(reached(host, `/prod${routePath}`, routePath))).toBe(`https://${host}/prod`);
});

test('a custom domain with a base path mapping: https, the base path, not the stage', () => {
  const event = reached('api.exemple.fr', `/crm${routePath}`, `/crm${routePath}`);
  expect(apiBaseUrlOf(event)).toBe('https://api.exemple.fr/crm');
});

test('a custom domain with a base path of two levels', () => {
  const event = reached('api.exemple.fr', `/v1/crm${routePath}`, `/v1/crm${routePath}`);
  expect(apiBaseUrlOf(event)).toBe('https://api.exemple.fr/v1/crm');
});

test('a custom domain mapped with no base path, `(none)`: https, at the root', () => {
  expect(apiBaseUrlOf(reached('api.exemple.fr', routePath, routePath))).toBe('https://api.exemple.fr');
});

test('a custom domain whose mapping leaves the stage to the caller: the base path and the stage', () => {
  const event = reached('api.exemple.fr', `/crm/prod${routePath}`, `/crm/prod${routePath}`);
  expect(apiBaseUrlOf(event)).toBe('https://api.exemple.fr/crm/prod');
});

test('a trailing slash, which API Gateway routes to the same resource, is no part of the base', () => {
  const host = 'abc123defg.execute-api.eu-west-3.amazonaws.com';
  expect(apiBaseUrlOf(reached(host, `/prod${routePath}/`, `${routePath}/`))).toBe(`https://${host}/prod`);
});

test('on AWS, https whatever the caller wrote in X-Forwarded-Proto or Host', () => {
  const event = reached('api.exemple.fr', routePath, routePath);
  event.headers = { Host: '127.0.0.1:3000', 'X-Forwarded-Proto': 'http' };
  expect(apiBaseUrlOf(event)).toBe('https://api.exemple.fr');
});

test('the local server, as it builds the event: http, at the root of the host the request named', () => {
  for (const host of ['127.0.0.1:3000', 'localhost:4123']) {
    const match = matchRoute([route], 'GET', routePath);
    if (match === undefined) throw new Error('the route does not match its own path');
    const incoming = {
      method: 'GET',
      target: routePath,
      httpVersion: '1.1',
      sourceIp: '127.0.0.1',
      rawHeaders: ['Host', host],
      body: '',
    };
    const ids = { requestId: 'r', extendedRequestId: 'e', now: new Date('2030-01-01T00:00:00Z') };
    expect(apiBaseUrlOf(proxyEvent(incoming, match, ids))).toBe(`http://${host}`);
  }
});
