import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Deps, loadSecretsTableName } from '../../lib/storage/client';
import { errorFields, logger } from '../../lib/observability';
import { functionTimeoutSeconds, routeById } from '../../lib/routes';
import { deployedRoutes as routes } from '../../infra/cdk/route-grants';
import { localSettingsPage } from '../app/page';
import { localReferencePage } from '../openapi/reference-pages';
import { answer, integrationTimeoutMs, maxRequestBodyBytes, type GatewayReply } from './api-gateway';
import { localExports } from './export-downloads';
import { lambdaApiReply, lambdaInvocations, type LocalOutbound } from './lambda-runtime';

export type LocalServer = { url: string; close: () => Promise<void> };

/** How long a function may run, and how long API Gateway waits for a route's; tests shorten them. */
export type LocalTimeouts = { functionMs: number; integrationMs: number };

/** A reset asked through `POST /password-reset` and the code the local identity provider drew (none: unknown e-mail). */
export type PasswordResetAsked = { email: string; code: string | undefined };

const passwordReset = routeById('startPasswordReset');

/**
 * The reset a 202 of `POST /password-reset` answered: the local API answers the code it drew for a known e-mail
 * (docs/api.md#sign-in), which `npm start` prints, since no e-mail leaves the machine.
 */
function passwordResetAsked(body: string, reply: GatewayReply): PasswordResetAsked | undefined {
  if (reply.statusCode !== 202) return undefined;
  const { email } = JSON.parse(body) as { email: string };
  const { code } = JSON.parse(reply.body.toString('utf8')) as { code?: string };
  return { email, code };
}

/** As deployed: every API function, the authorizer included, has `functionTimeoutSeconds` (infra/cdk/constructs/route-function.ts). */
const functionMs = functionTimeoutSeconds * 1000;
export const deployedTimeouts: LocalTimeouts = { functionMs, integrationMs: integrationTimeoutMs };

/**
 * The local stand-in for API Gateway on 127.0.0.1: the routes of lib/routes.ts through api-gateway.ts, the functions
 * run by lambda-runtime.ts. Also GET /health, the API's reference, the settings page under /app/ (tools/app/page.ts),
 * the Lambda API's Invoke (`lambdaApiReply`), and the downloads of the exports it keeps for the export routes
 * (./export-downloads.ts), by `deps`' clock.
 * `outbound`: the secrets table (by default the local one beside `deps`' table) and the delivery queue.
 * `onPasswordReset`: told of every reset the API accepted (`npm start` prints its code).
 */
export async function startLocalServer(options: {
  deps: Deps;
  port: number;
  timeouts?: Partial<LocalTimeouts>;
  outbound?: Partial<Omit<LocalOutbound, 'exports'>>;
  onPasswordReset?: (asked: PasswordResetAsked) => void;
}): Promise<LocalServer> {
  const timeouts = { ...deployedTimeouts, ...options.timeouts };
  const running = new Set<Promise<unknown>>();
  const localSecretsTable = () => loadSecretsTableName({ ...process.env, TABLE_NAME: options.deps.tableName });
  const secretsTableName = options.outbound?.secretsTableName ?? localSecretsTable();
  const exports = localExports(options.deps.clock);
  const outbound: LocalOutbound = { secretsTableName, queue: options.outbound?.queue, exports };
  const invocations = lambdaInvocations(options.deps, timeouts.functionMs, running, outbound);
  const reply = async (req: IncomingMessage): Promise<GatewayReply> => {
    const [method, target, body] = [req.method ?? 'GET', req.url ?? '/', await readBody(req)];
    const path = target.split('?')[0] ?? '';
    if (method === 'GET' && path === '/health') {
      return { statusCode: 200, headers: { 'Content-Type': ['application/json'] }, body: Buffer.from('{"ok":true}') };
    }
    const invoked = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(path);
    if (method === 'POST' && invoked) {
      const [functionName, authorization] = [decodeURIComponent(invoked[1] ?? ''), req.headers.authorization];
      return lambdaApiReply(invocations, routes, { functionName, payload: body, authorization });
    }
    const page =
      method === 'GET'
        ? (exports.download(path) ?? (await localReferencePage(path)) ?? (await localSettingsPage(path)))
        : undefined;
    if (page !== undefined) return page;
    const [{ rawHeaders, httpVersion }, sourceIp] = [req, req.socket.remoteAddress ?? '127.0.0.1'];
    const ids = { requestId: randomUUID(), extendedRequestId: randomUUID(), now: new Date() };
    const incoming = { method, target, rawHeaders, body, sourceIp, httpVersion };
    const replied = await answer(routes, incoming, invocations, ids, timeouts.integrationMs);
    if (
      options.onPasswordReset &&
      method === passwordReset.method &&
      path === passwordReset.path &&
      body !== undefined
    ) {
      const asked = passwordResetAsked(body, replied);
      if (asked) options.onPasswordReset(asked);
    }
    return replied;
  };
  const server = createServer((req, res) => {
    reply(req)
      .then((response) => res.writeHead(response.statusCode, response.headers).end(response.body))
      .catch((error: unknown) => {
        logger.error('local server failed', errorFields(error));
        res.destroy();
      });
  });
  // An idle kept-alive connection is its client's to close: with Node's 5 s timer, a server whose event
  // loop ran late (a loaded machine) closed it as the client sent its next request on it (ECONNRESET).
  // 0 disables the timer (Node.js HTTP, server.keepAliveTimeout); close() ends the connections left.
  server.keepAliveTimeout = 0;
  await new Promise<void>(
    (resolve, reject) => void server.once('error', reject).listen(options.port, '127.0.0.1', resolve),
  );
  // Read by the functions on their first invocation, after this.
  const url = (outbound.lambdaEndpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  exports.baseUrl = url;
  return {
    url,
    // Once every invocation has ended, those the gateway stopped waiting for included.
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      await Promise.allSettled(running);
    },
  };
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
