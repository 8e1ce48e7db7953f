import * as z from 'zod/mini';
import { createLambdaClient, lambdaFunctionInvoker, type FunctionInvoker } from '../lambda/function-invoker';
import { functionTimeoutSeconds } from '../routes';
import type { WebhookInvoker } from './webhook-call-replay';

/**
 * Where the stack names the webhooks' functions to the replay route (infra/cdk/route-functions.ts); the local
 * runtime names them by their route ids.
 */
export const webhookFunctionVariables = {
  ingestLead: 'INGEST_LEAD_FUNCTION_NAME',
  recruitment: 'RECRUITMENT_FUNCTION_NAME',
} as const;
export type WebhookFunctionNames = Record<keyof typeof webhookFunctionVariables, string>;

/** What API Gateway takes from a proxy integration's function: a status, a body, headers. */
const proxyResult = z.object({
  statusCode: z.number(),
  body: z.string(),
  headers: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))),
});

/**
 * The replay's way to run a webhook (docs/api.md#webhook-call-journal, a new call of the same webhook): that webhook's
 * own function, invoked with the call's event, which journals the call like any other; its answer checked to be one.
 */
export function invokedWebhooks(invoke: FunctionInvoker, names: WebhookFunctionNames): WebhookInvoker {
  return async (route, event) => {
    const name = route.id === 'recruitment' ? names.recruitment : names.ingestLead;
    const answer = proxyResult.safeParse(await invoke(name, event));
    if (!answer.success) throw new Error(`${name} did not answer as an API Gateway proxy integration`);
    return answer.data;
  };
}

/**
 * The deployed webhooks' functions, named by the stack; LAMBDA_ENDPOINT only where the local runtime serves the
 * Lambda API itself (the bench). A function still running one second before the replay's own timeout is given up.
 */
export function deployedWebhooks(env: NodeJS.ProcessEnv, region: string | undefined): WebhookInvoker {
  const name = (variable: string) => {
    const value = env[variable];
    if (!value) throw new Error(`Configuration invalide : ${variable}`);
    return value;
  };
  const names = {
    ingestLead: name(webhookFunctionVariables.ingestLead),
    recruitment: name(webhookFunctionVariables.recruitment),
  };
  const client = createLambdaClient(
    { region, endpoint: env.LAMBDA_ENDPOINT || undefined },
    (functionTimeoutSeconds - 1) * 1000,
  );
  return invokedWebhooks(lambdaFunctionInvoker(client), names);
}
