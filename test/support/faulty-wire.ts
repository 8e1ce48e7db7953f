import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy on the wire between the real SDK and DynamoDB Local, for faults that a mock above the
 * SDK cannot make: the SDK's own retries see them, as they would see AWS's. `lose-answer` forwards
 * the request (DynamoDB applies it) and answers 500 instead of the result: the worst ambiguity;
 * `too-large` answers what DynamoDB answers a write over its 400 KB item limit; `hold` keeps the
 * call unanswered until `release()`, a stalled table for exactly as long as a test needs.
 */
export type WireFault = 'pass' | 'throttle' | 'fail' | 'too-large' | 'delay' | 'lose-answer' | 'hold';

/** `client` names whoever called through {@link FaultyWire.endpointFor}; '' through `endpoint`. */
export type WireCall = { client: string; operation: string; body: Record<string, unknown> };

export type FaultyWire = {
  endpoint: string;
  /**
   * The same wire, with every call through it marked as `client`'s: a plan can then give each
   * client faults of its own, whatever order concurrent clients' calls arrive in.
   */
  endpointFor: (client: string) => string;
  /** Decides each call's fault as it arrives; `pass` unless set. */
  plan: (call: WireCall) => WireFault;
  calls: (WireCall & { fault: WireFault })[];
  /** Lets every held call go on to DynamoDB Local. */
  release: () => void;
  /**
   * Resolves once no call is on the wire: every call it forwarded has been applied and answered
   * (a caller that gave up on one does not stop it), so the table can be read as they left it.
   */
  idle: () => Promise<void>;
  close: () => Promise<void>;
};

const errorBody = (type: string, message: string) =>
  JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message });

const faultAnswers = {
  throttle: {
    status: 400,
    body: errorBody(
      'ProvisionedThroughputExceededException',
      'The level of configured provisioned throughput was exceeded.',
    ),
  },
  fail: { status: 500, body: errorBody('InternalServerError', 'Internal server error') },
  'too-large': {
    status: 400,
    body: errorBody('ValidationException', 'Item size has exceeded the maximum allowed size'),
  },
} as const;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFaultyWire(target: string): Promise<FaultyWire> {
  let releaseHeld = () => undefined as void;
  let held = new Promise<void>((resolve) => (releaseHeld = resolve));
  const release = () => {
    releaseHeld();
    held = new Promise<void>((resolve) => (releaseHeld = resolve));
  };
  const wire: FaultyWire = {
    endpoint: '',
    endpointFor: (client) => `${wire.endpoint}/${encodeURIComponent(client)}`,
    plan: () => 'pass',
    calls: [],
    release,
    idle: async () => {
      while (onTheWire.size > 0) await Promise.all(onTheWire);
    },
    close: async () => undefined,
  };
  const onTheWire = new Set<Promise<void>>();
  const server = createServer((request, response) => {
    const handled = (async () => {
      const text = await readBody(request);
      const operation = String(request.headers['x-amz-target'] ?? '').replace('DynamoDB_20120810.', '');
      // The SDK keeps an endpoint's path: the calls of endpointFor(client) arrive on `/<client>/`.
      const client = decodeURIComponent((request.url ?? '/').split('/')[1] ?? '');
      const call = { client, operation, body: JSON.parse(text || '{}') as Record<string, unknown> };
      const fault = wire.plan(call);
      wire.calls.push({ ...call, fault });
      const answer = (status: number, body: string) => {
        response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
        response.end(body);
      };
      if (fault === 'throttle' || fault === 'fail' || fault === 'too-large') {
        return answer(faultAnswers[fault].status, faultAnswers[fault].body);
      }
      if (fault === 'delay') await new Promise((resolve) => setTimeout(resolve, 200));
      if (fault === 'hold') await held;
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => name !== 'host' && name !== 'content-length'),
      ) as Record<string, string>;
      const forwarded = await fetch(target, { method: 'POST', headers, body: text });
      const body = await forwarded.text();
      if (fault === 'lose-answer') return answer(faultAnswers.fail.status, faultAnswers.fail.body);
      return answer(forwarded.status, body);
    })().catch((error: unknown) => {
      response.writeHead(502);
      response.end(String(error));
    });
    onTheWire.add(handled);
    void handled.finally(() => onTheWire.delete(handled));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  wire.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  wire.close = () =>
    new Promise<void>((resolve) => {
      release();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return wire;
}

/** The partition key a call writes or reads first, to aim a fault at one kind of item. */
export function partitionOf(call: WireCall): string {
  const item = (call.body.Item ?? call.body.Key) as { pk?: { S?: string } } | undefined;
  return item?.pk?.S ?? '';
}
