import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../lib/deps';
import { errorFields, logger } from '../../lib/observability';
import { authorizerEntry, functionTimeoutSeconds, routes } from '../../lib/routes';
import { localReferencePage } from '../openapi/reference-pages';
import { answer, integrationTimeoutMs, maxRequestBodyBytes, type GatewayReply, type Invocations } from './api-gateway';
import { lambdaContext } from './lambda-context';
import { within } from './time-limit';

export type LocalServer = { url: string; close: () => Promise<void> };

type LambdaFunction = (event: unknown, context: Context) => Promise<unknown>;
type Factory = 'createHandler' | 'createAuthorizer';

/** How long a function may run, and how long API Gateway waits for a route's; tests shorten them. */
export type LocalTimeouts = { functionMs: number; integrationMs: number };

/**
 * As deployed: the stack gives every API function, the authorizer included, `functionTimeoutSeconds`
 * (infra/cdk/constructs/route-function.ts); API Gateway waits 29 s for an integration.
 */
export const deployedTimeouts: LocalTimeouts = {
  functionMs: functionTimeoutSeconds * 1000,
  integrationMs: integrationTimeoutMs,
};

const health: GatewayReply = {
  statusCode: 200,
  headers: { 'Content-Type': ['application/json'] },
  body: Buffer.from('{"ok":true}'),
};

/**
 * The local stand-in for API Gateway: routes from lib/routes.ts only, each function module
 * imported once and its handler built once with the given deps, like a warm Lambda, and ended at
 * its timeout as Lambda ends it. What API Gateway does with a request lives in api-gateway.ts;
 * this file moves bytes and runs the functions.
 */
/** How long an idle kept-alive connection stays open on this server's side. */
const idleConnectionMs = 65_000;

export async function startLocalServer(options: {
  deps: Deps;
  port: number;
  host?: string;
  timeouts?: Partial<LocalTimeouts>;
}): Promise<LocalServer> {
  const host = options.host ?? '127.0.0.1';
  const timeouts = { ...deployedTimeouts, ...options.timeouts };
  const running = new Set<Promise<unknown>>();
  const invocations = lambdaInvocations(options.deps, timeouts.functionMs, running);
  const server = createServer((req, res) => {
    reply(req, invocations, timeouts.integrationMs)
      .then((response) => send(res, response))
      .catch((error: unknown) => {
        logger.error('local server failed', errorFields(error));
        res.destroy();
      });
  });
  // The client, not this server, ends an idle kept-alive connection: with Node's 5 s default, a
  // client whose event loop stalls past its own idle limit (fetch's undici keeps a socket 4 s) can
  // send on a socket this server is closing at that moment, and its call fails with ECONNRESET
  // (seen on a loaded CI machine). Headers must still arrive within `headersTimeout`, above it.
  server.keepAliveTimeout = idleConnectionMs;
  server.headersTimeout = idleConnectionMs + 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    // Once every invocation has ended, those the gateway stopped waiting for included.
    close: async () => {
      await close(server);
      await Promise.allSettled(running);
    },
  };
}

async function reply(req: IncomingMessage, invocations: Invocations, integrationMs: number): Promise<GatewayReply> {
  const target = req.url ?? '/';
  const method = req.method ?? 'GET';
  const body = await readBody(req);
  // Local only, outside the API's routes: readiness for `npm start` and the tests, and the API's reference.
  const path = target.split('?')[0] ?? '';
  if (method === 'GET' && path === '/health') return health;
  const page = method === 'GET' ? await localReferencePage(path) : undefined;
  if (page !== undefined) return page;
  return answer(
    routes,
    {
      method,
      target,
      rawHeaders: req.rawHeaders,
      body,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      httpVersion: req.httpVersion,
    },
    invocations,
    { requestId: randomUUID(), extendedRequestId: randomUUID(), now: new Date() },
    integrationMs,
  );
}

/**
 * Lambda ends an invocation at the function's timeout: it fails ("Task timed out after …"), and
 * "If the Lambda function crashes or times out during the Invoke phase, Lambda resets the
 * execution environment" ("Understanding the Lambda execution environment lifecycle",
 * https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtime-environment.html): the next
 * invocation initialises the function again. In one process the late call cannot be stopped; it
 * runs on unobserved, in `running` until it ends, while its instance is dropped.
 */
export function lambdaInvocations(deps: Deps, timeoutMs: number, running: Set<Promise<unknown>>): Invocations {
  const load = functionLoader(deps);
  const invoke = async (entry: string, factory: Factory, name: string, event: unknown) => {
    try {
      const lambda = await load.instance(entry, factory);
      const invocation = lambda(event, lambdaContext(`crm-local-${name}`, timeoutMs));
      running.add(invocation);
      void invocation.then(
        () => running.delete(invocation),
        () => running.delete(invocation),
      );
      return await within(invocation, timeoutMs, () => {
        load.reset(entry);
        throw new FunctionTimeoutError(timeoutMs);
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

/** What the Lambda runtime reports for an invocation it ended at the function's timeout. */
class FunctionTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
    this.name = 'Sandbox.Timedout';
  }
}

/** One warm instance per function, built by its factory on first use (its cold start), until a reset. */
function functionLoader(deps: Deps) {
  const loaded = new Map<string, Promise<LambdaFunction>>();
  const instance = (entry: string, factory: Factory): Promise<LambdaFunction> => {
    let lambda = loaded.get(entry);
    if (lambda === undefined) {
      lambda = import(`../../${entry}`).then((module: Record<string, unknown>) => {
        const create = module[factory];
        if (typeof create !== 'function') throw new Error(`${entry} does not export ${factory}`);
        return create(deps) as LambdaFunction;
      });
      // A failed cold start is tried again on the next request, as Lambda does.
      lambda.catch(() => loaded.delete(entry));
      loaded.set(entry, lambda);
    }
    return lambda;
  };
  return { instance, reset: (entry: string) => loaded.delete(entry) };
}

/** The whole body as text, or undefined past API Gateway's quota (still read to the end, so the reply reaches the client). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxRequestBodyBytes) chunks.push(chunk);
  }
  return size > maxRequestBodyBytes ? undefined : Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, response: GatewayReply): void {
  res.writeHead(response.statusCode, response.headers);
  res.end(response.body);
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
