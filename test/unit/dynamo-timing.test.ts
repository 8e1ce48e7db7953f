import { once } from 'node:events';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { functionTimeoutSeconds } from '../../lib/routes';
import {
  awsDynamoTiming,
  createDocumentClient,
  createDynamoClient,
  DynamoDeadlineExceeded,
  dynamoGraceMs,
  dynamoRequestBudgetMs,
  withDynamoDeadline,
  withDynamoGrace,
  type DynamoTiming,
  defaultBatchPolicy,
} from '../../lib/storage/client';
import { defaultRetryPolicy, defaultRoundPolicy } from '../../lib/storage/conditional-writes';

/**
 * The arithmetic of docs/deploy.md, "Timeouts and tracing", from the constants the code runs with.
 * SDK standard retry mode (@smithy/core 3.41, "2026" retry settings): before retry i (0-based) it
 * waits a random time below min(base × 2^i, 20 s), base 50 ms, 1,000 ms after a throttling error.
 */
const sdkBackoffBaseMs = { transient: 50, throttling: 1000 };
const sdkMaxBackoffMs = 20_000;
const backoffMs = (timing: DynamoTiming, base: number): number =>
  Array.from({ length: timing.maxAttempts - 1 }, (_, i) => Math.min(base * 2 ** i, sdkMaxBackoffMs)).reduce(
    (sum, ms) => sum + ms,
    0,
  );
/** Conservative: an attempt may take its connection time plus its full request time. */
const callWorstMs = (timing: DynamoTiming): number =>
  timing.maxAttempts * (timing.connectionTimeoutMs + timing.requestTimeoutMs) +
  backoffMs(timing, sdkBackoffBaseMs.throttling);
/**
 * The longest route, POST /webhooks/ingest-lead: the Idempotency-Key claim, then up to
 * defaultRoundPolicy.attempts optimistic rounds of (contact owners: BatchGetItem sent again up to
 * defaultBatchPolicy.attempts times, the workspace configuration read alongside; the prospect read;
 * the transaction, tried up to defaultRetryPolicy.attempts times), then the recorded answer.
 */
const longestRouteRoundTrips =
  1 + defaultRoundPolicy.attempts * (defaultBatchPolicy.attempts + 1 + defaultRetryPolicy.attempts) + 1;
/** The handler's own work outside DynamoDB (parsing, hashing, the 5xx answer and its log line). */
const handlerWorkMarginMs = 1000;
const lambdaTimeoutMs = functionTimeoutSeconds * 1000;

describe('DynamoDB time against the Lambda timeout', () => {
  test('per call: attempts × (connection + request) + backoff', () => {
    expect(callWorstMs(awsDynamoTiming)).toBe(3 * (1000 + 2000) + (1000 + 2000));
    // A stall (no answer) is a transient error: its backoff base is 50 ms.
    const stalledCallMs =
      awsDynamoTiming.maxAttempts * (awsDynamoTiming.connectionTimeoutMs + awsDynamoTiming.requestTimeoutMs) +
      backoffMs(awsDynamoTiming, sdkBackoffBaseMs.transient);
    expect(stalledCallMs).toBe(9150);
    expect(stalledCallMs).toBeLessThan(lambdaTimeoutMs);
  });

  test('the longest route cannot fit call by call: the request budget bounds it', () => {
    expect(longestRouteRoundTrips).toBe(98);
    expect(longestRouteRoundTrips * callWorstMs(awsDynamoTiming)).toBeGreaterThan(lambdaTimeoutMs);
    const requestWorstMs = Math.min(dynamoRequestBudgetMs, longestRouteRoundTrips * callWorstMs(awsDynamoTiming));
    // Then the Idempotency-Key's last write, within its grace.
    expect(requestWorstMs + dynamoGraceMs + handlerWorkMarginMs).toBeLessThanOrEqual(lambdaTimeoutMs);
  });
});

/** Accepts connections, reads, never answers: DynamoDB stalled. */
async function stallingServer(): Promise<{ endpoint: string; connections: () => number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server: TcpServer = createTcpServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    connections: () => sockets.length,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Answers every call after `delayMs`, successfully (an item-less GetItem). */
async function slowServer(
  delayMs: number,
): Promise<{ endpoint: string; requests: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: HttpServer = createHttpServer((request, response) => {
    count += 1;
    request.resume();
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      response.end('{}');
    }, delayMs);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const getItem = new GetItemCommand({ TableName: 't', Key: { PK: { S: 'a' }, SK: { S: 'b' } } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the client enforces its limits', () => {
  test('requestTimeout is wall-clock: a stalled call fails after its attempts instead of hanging', async () => {
    const server = await stallingServer();
    const timing = { connectionTimeoutMs: 200, requestTimeoutMs: 300, maxAttempts: 3 };
    const client = createDynamoClient({ endpoint: server.endpoint, timing });
    const started = Date.now();
    try {
      await expect(client.send(getItem)).rejects.toMatchObject({ name: 'TimeoutError' });
      // Each of the three attempts was cut at its requestTimeout (a timer never fires early); an
      // attempt left waiting would have held the call for ever, and opened no further connection.
      expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 300);
      expect(server.connections()).toBe(3);
    } finally {
      client.destroy();
      await server.close();
    }
  });

  test('inside a request deadline: the call fails at the deadline and no attempt starts after it', async () => {
    const server = await stallingServer();
    const client = createDynamoClient({
      endpoint: server.endpoint,
      timing: { connectionTimeoutMs: 1000, requestTimeoutMs: 5000, maxAttempts: 3 },
    });
    const started = Date.now();
    try {
      await expect(withDynamoDeadline(() => client.send(getItem), 400)).rejects.toBeInstanceOf(DynamoDeadlineExceeded);
      // Ended by the deadline, not by the attempt's own timeout (however late a loaded machine fires timers).
      expect(Date.now() - started).toBeLessThan(5000);
      await sleep(600);
      expect(server.connections()).toBe(1);
    } finally {
      client.destroy();
      await server.close();
    }
  });

  test('the deadline bounds a sequence of slow but successful calls, document client included', async () => {
    const server = await slowServer(150);
    const db = createDocumentClient({ endpoint: server.endpoint });
    const budgetMs = 1000;
    let done = 0;
    try {
      const sequence = withDynamoDeadline(async () => {
        for (;;) {
          await db.send(new GetCommand({ TableName: 't', Key: { PK: 'a', SK: 'b' } }));
          done += 1;
        }
      }, budgetMs);
      // An endless sequence of calls that all succeed, each well within its own timeouts: only the
      // deadline can end it. How many fit depends on the machine's speed; never more than the budget allows.
      await expect(sequence).rejects.toBeInstanceOf(DynamoDeadlineExceeded);
      expect(done).toBeLessThanOrEqual(budgetMs / 150);
      await sleep(300);
      // None sent after the deadline: at most the call in progress when it came.
      expect(server.requests()).toBeLessThanOrEqual(done + 1);
    } finally {
      db.destroy();
      await server.close();
    }
  });

  test('past the deadline, a grace lets one more write through', async () => {
    const server = await slowServer(0);
    const db = createDocumentClient({ endpoint: server.endpoint });
    const get = () => db.send(new GetCommand({ TableName: 't', Key: { PK: 'a', SK: 'b' } }));
    try {
      await withDynamoDeadline(async () => {
        await sleep(200);
        await expect(get()).rejects.toBeInstanceOf(DynamoDeadlineExceeded);
        await expect(withDynamoGrace(get, 5000)).resolves.toBeDefined();
      }, 100);
    } finally {
      db.destroy();
      await server.close();
    }
  });

  test('the grace is a deadline too: a stalled table fails the call at its end', async () => {
    const server = await stallingServer();
    const timing = { connectionTimeoutMs: 1000, requestTimeoutMs: 5000, maxAttempts: 3 };
    const client = createDynamoClient({ endpoint: server.endpoint, timing });
    try {
      await withDynamoDeadline(async () => {
        await sleep(200);
        const started = Date.now();
        await expect(withDynamoGrace(() => client.send(getItem), 300)).rejects.toBeInstanceOf(DynamoDeadlineExceeded);
        // Its own attempts alone would have waited 3 × 5 s.
        expect(Date.now() - started).toBeLessThan(timing.requestTimeoutMs);
      }, 100);
    } finally {
      client.destroy();
      await server.close();
    }
  });

  test('a grace never shortens a deadline still ahead', async () => {
    const server = await slowServer(300);
    const db = createDocumentClient({ endpoint: server.endpoint });
    try {
      const get = () => db.send(new GetCommand({ TableName: 't', Key: { PK: 'a', SK: 'b' } }));
      await expect(withDynamoDeadline(() => withDynamoGrace(get, 50), 10_000)).resolves.toBeDefined();
    } finally {
      db.destroy();
      await server.close();
    }
  });

  test('outside a deadline, calls are not limited by one', async () => {
    const server = await slowServer(50);
    const db = createDocumentClient({ endpoint: server.endpoint });
    try {
      await expect(db.send(new GetCommand({ TableName: 't', Key: { PK: 'a', SK: 'b' } }))).resolves.toBeDefined();
    } finally {
      db.destroy();
      await server.close();
    }
  });
});
