import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { HttpSender, OutboundRequest, OutboundResult } from '../domain/events/ports';
import { type NetworkPolicy, checkUrl, isRefusedAddress, type Target } from './address-policy';
import { messages } from '../messages';

/** What is read of a subscriber's answer before the connection is dropped: only its status matters. */
const maxDrainedBytes = 16 * 1024;

type Checked = { address: string; family: number };

/**
 * The HTTP client of deliveries. The host is resolved once, every address it resolves to is
 * checked (a name with one private address among public ones is refused), and the connection goes
 * to the checked address through a pinned `lookup`: a second resolution could answer otherwise
 * (DNS rebinding). TLS still verifies the certificate against the host name (SNI and Host keep it).
 * One budget covers resolution, connection, TLS and the response headers; no redirect is followed
 * (a 3xx is a status like any other non-2xx) and no connection is reused (`agent: false`).
 */
export function createHttpSender(policy: NetworkPolicy): HttpSender {
  return async (request) => {
    const target = checkUrl(request.url, policy);
    if ('error' in target) return target;
    const timedOut = { error: messages.delivery.timeout(request.timeoutMs / 1000) };
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), request.timeoutMs);
    const expired = new Promise<typeof timedOut>((resolve) =>
      budget.signal.addEventListener('abort', () => resolve(timedOut), { once: true }),
    );
    const checked = await Promise.race([resolveChecked(target, policy), expired]);
    if ('error' in checked) {
      clearTimeout(timer);
      return checked;
    }
    return post(target, checked, request, budget.signal, timedOut, () => clearTimeout(timer));
  };
}

async function resolveChecked(target: Target, policy: NetworkPolicy): Promise<Checked | { error: string }> {
  if (target.ipLiteral) return { address: target.hostname, family: isIP(target.hostname) };
  let found: Checked[];
  try {
    found = await lookup(target.hostname, { all: true });
  } catch (error) {
    return { error: messages.delivery.unresolved(errorCode(error)) };
  }
  const refused = policy === 'aws' ? found.find((entry) => isRefusedAddress(entry.address)) : undefined;
  if (refused) return { error: messages.delivery.privateAddress(refused.address) };
  const [first] = found;
  return first ?? { error: messages.delivery.unresolved('ENOTFOUND') };
}

/** Node asks with `all: true` when it tries several addresses (autoSelectFamily): one answer either way. */
const pinnedLookup =
  (checked: Checked): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [checked]);
    else callback(null, checked.address, checked.family);
  };

function post(
  target: Target,
  checked: Checked,
  request: OutboundRequest,
  signal: AbortSignal,
  timedOut: { error: string },
  done: () => void,
): Promise<OutboundResult> {
  return new Promise((resolve) => {
    const client = target.protocol === 'https:' ? https : http;
    const outgoing = client.request(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        path: target.path,
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        agent: false,
        lookup: pinnedLookup(checked),
        signal,
      },
      (response) => {
        resolve({ status: response.statusCode ?? 0 });
        let drained = 0;
        response.on('data', (chunk: Buffer) => {
          drained += chunk.length;
          if (drained > maxDrainedBytes) response.destroy();
        });
        response.on('error', () => undefined);
      },
    );
    outgoing.on('close', done);
    outgoing.on('error', (error) =>
      resolve(signal.aborted ? timedOut : { error: messages.delivery.connectionFailed(errorCode(error)) }),
    );
    outgoing.end(request.body);
  });
}

const errorCode = (error: unknown): string =>
  (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
