import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';

/**
 * Another function of the stack, invoked synchronously: its answer to `event`, as it returned it. With
 * `InvocationType` RequestResponse (the default), "details about the function response, including errors, are
 * included in the response body and headers", and the payload is at most 6 MB ("Invoke", AWS Lambda API Reference:
 * https://docs.aws.amazon.com/lambda/latest/api/API_Invoke.html): a function that failed (thrown, timed out) is
 * told by `FunctionError`, with the status still 200.
 */
export type FunctionInvoker = (functionName: string, event: unknown) => Promise<unknown>;

/** Local credentials for an explicit endpoint (the local runtime's Lambda API), as for DynamoDB Local. */
const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * One client per cold start. No retry: a call sent again after a timeout could run the function twice, and the
 * caller (a replay of a webhook call) is answered either way. The request may take the invoked function's whole
 * timeout but one second, so that a function still running answers the caller's 500 before its own timeout.
 */
export function createLambdaClient(
  config: { region?: string | undefined; endpoint?: string | undefined },
  timeoutMs: number,
) {
  return new LambdaClient({
    ...(config.endpoint === undefined
      ? { region: config.region }
      : { endpoint: config.endpoint, region: config.region ?? 'eu-west-3', credentials: localCredentials }),
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 1000, requestTimeout: timeoutMs, throwOnRequestTimeout: true },
  });
}

export function lambdaFunctionInvoker(client: LambdaClient): FunctionInvoker {
  return async (functionName, event) => {
    const { FunctionError, Payload } = await client.send(
      new InvokeCommand({ FunctionName: functionName, Payload: JSON.stringify(event) }),
    );
    const answer: unknown = JSON.parse(Payload?.transformToString() || 'null');
    if (FunctionError !== undefined) {
      // Only the error's type: its message may carry what the event held.
      const type = (answer as { errorType?: unknown } | null)?.errorType;
      throw new Error(`${functionName} failed (${FunctionError}${typeof type === 'string' ? `, ${type}` : ''})`);
    }
    return answer;
  };
}
