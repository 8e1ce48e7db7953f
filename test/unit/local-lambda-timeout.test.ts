import type { APIGatewayProxyEvent } from 'aws-lambda';
import { lambdaContext, lambdaInvocations } from '../../tools/local/lambda-runtime';
import { deployedTimeouts } from '../../tools/local/server';
import type { Deps } from '../../lib/storage/client';
import { functionTimeoutSeconds } from '../../lib/routes';
import { deployedRouteById as routeById } from '../../infra/cdk/route-grants';
import { instances } from '../support/sleepy-function';

/** The local Lambda runtime ends an invocation at the function's timeout, as Lambda does. */
const sleepyRoute = { ...routeById('listPipelines'), entry: 'test/support/sleepy-function.ts' };
const sleeping = (sleepMs: number) => ({ sleepMs }) as unknown as APIGatewayProxyEvent;

test('by default the timeouts are the deployed ones: the stack’s function timeout and API Gateway’s 29 s', () => {
  expect(deployedTimeouts).toEqual({ functionMs: functionTimeoutSeconds * 1000, integrationMs: 29_000 });
  // Bracketed by the time the check itself took, however slowly a loaded machine runs it.
  const created = Date.now();
  const remaining = lambdaContext('f').getRemainingTimeInMillis();
  expect(remaining).toBeLessThanOrEqual(functionTimeoutSeconds * 1000);
  expect(remaining).toBeGreaterThanOrEqual(functionTimeoutSeconds * 1000 - (Date.now() - created));
  expect(lambdaContext('f', 300).getRemainingTimeInMillis()).toBeLessThanOrEqual(300);
});

test('an invocation past the timeout fails as Lambda reports it, runs on unobserved, and the next one starts the function anew', async () => {
  const running = new Set<Promise<unknown>>();
  const invocations = lambdaInvocations({} as Deps, 300, running);
  const before = instances.built;

  await expect(invocations.handler(sleepyRoute, sleeping(0))).resolves.toEqual({
    statusCode: 200,
    body: '{"slept":true}',
  });
  await invocations.handler(sleepyRoute, sleeping(0));
  expect(instances.built).toBe(before + 1);

  await expect(invocations.handler(sleepyRoute, sleeping(600))).rejects.toMatchObject({
    name: 'Sandbox.Timedout',
    message: 'Task timed out after 0.30 seconds',
  });
  expect(running.size).toBe(1);
  await Promise.allSettled(running);
  expect(running.size).toBe(0);

  await invocations.handler(sleepyRoute, sleeping(0));
  expect(instances.built).toBe(before + 2);
});
