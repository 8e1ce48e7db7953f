import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../lib/deps';
import { errorFields, logger } from '../../lib/observability';
import { authorizerEntry, functionTimeoutSeconds } from '../../lib/routes';
import { localStage, within, type Invocations } from './api-gateway';

type LambdaFunction = (event: unknown, context: Context) => Promise<unknown>;
type Factory = 'createHandler' | 'createAuthorizer';

/** What the Lambda runtime hands a function next to its event; the memory is the stack's (infra/cdk/constructs/route-function.ts). */
export function lambdaContext(functionName: string, timeoutMs: number = functionTimeoutSeconds * 1000): Context {
  const deadline = Date.now() + timeoutMs;
  const awsRequestId = randomUUID();
  const callbackStyle = () => {
    throw new Error('done/fail/succeed belong to the callback runtimes; handlers here are async');
  };
  const [region, account] = [localStage.region, localStage.accountId];
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:${account}:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${new Date().toISOString().slice(0, 10).replace(/-/g, '/')}/[$LATEST]${awsRequestId.replace(/-/g, '')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    ...{ done: callbackStyle, fail: callbackStyle, succeed: callbackStyle },
  };
}

/**
 * Each handler built once with `deps`, like a warm Lambda. Past its timeout an invocation fails ("Task
 * timed out") and "Lambda resets the execution environment" ("Understanding the Lambda execution
 * environment lifecycle", https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtime-environment.html):
 * the next one starts the function anew; the late call runs on, in `running` until it ends.
 */
export function lambdaInvocations(deps: Deps, timeoutMs: number, running: Set<Promise<unknown>>): Invocations {
  const loaded = new Map<string, Promise<LambdaFunction>>();
  const instance = (entry: string, factory: Factory): Promise<LambdaFunction> => {
    if (!loaded.has(entry)) {
      const module = import(`../../${entry}`) as Promise<Record<Factory, (deps: Deps) => LambdaFunction>>;
      const lambda = module.then((exports) => exports[factory](deps));
      lambda.catch(() => loaded.delete(entry)); // a failed cold start is tried again, as Lambda does
      loaded.set(entry, lambda);
    }
    return loaded.get(entry) as Promise<LambdaFunction>;
  };
  const invoke = async (entry: string, factory: Factory, name: string, event: unknown) => {
    try {
      const invocation = (await instance(entry, factory))(event, lambdaContext(`crm-local-${name}`, timeoutMs));
      const forget = () => running.delete(invocation);
      running.add(invocation);
      void invocation.then(forget, forget);
      return await within(invocation, timeoutMs, () => {
        loaded.delete(entry);
        const timedOut = new Error(`Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
        timedOut.name = 'Sandbox.Timedout';
        return Promise.reject(timedOut);
      });
    } catch (error) {
      // What the Lambda runtime would write to the function's log before API Gateway answers 5xx.
      logger.error('function failed', { function: name, ...errorFields(error) });
      throw error;
    }
  };
  return {
    authorizer: (event) => invoke(authorizerEntry, 'createAuthorizer', 'authorizer', event),
    handler: (route, event) => invoke(route.entry, 'createHandler', route.id, event),
  };
}
