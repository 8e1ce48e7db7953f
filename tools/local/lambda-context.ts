import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { functionTimeoutSeconds } from '../../lib/routes';
import { localStage } from './api-gateway';

/** The memory setting of the stack (infra/cdk/constructs/route-function.ts). */
const memoryLimitInMB = '512';

/**
 * What the Lambda runtime hands a function next to its event, for one local invocation that the
 * runtime ends after `timeoutMs` (./server.ts), the stack's function timeout unless told otherwise.
 */
export function lambdaContext(functionName: string, timeoutMs: number = functionTimeoutSeconds * 1000): Context {
  const deadline = Date.now() + timeoutMs;
  const awsRequestId = randomUUID();
  const callbackStyle = () => {
    throw new Error('done/fail/succeed belong to the callback runtimes; handlers here are async');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${localStage.region}:${localStage.accountId}:function:${functionName}`,
    memoryLimitInMB,
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${new Date().toISOString().slice(0, 10).replace(/-/g, '/')}/[$LATEST]${awsRequestId.replace(/-/g, '')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: callbackStyle,
    fail: callbackStyle,
    succeed: callbackStyle,
  };
}
