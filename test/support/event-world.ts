import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import type { createHandler as createStreamHandler } from '../../functions/events/stream-handler';
import { readTableStream, startEventPipeline, type EventPipeline } from '../../tools/local/event-pipeline';
import type { CreatedSubscription } from '../../lib/settings/subscriptions';
import { seedWorkspace, type SeedDescription, type SeedOutput } from '../../tools/seed/seed';
import { productionDeps, type SecretsDeps, createDynamoClient } from '../../lib/storage/client';
import type { DeliveryView } from '../../lib/domain/events/delivery-view';
import { createHttpSender } from '../../lib/outbound/http-sender';
import { ensureSecretsTable, ensureTable } from '../../tools/local/create-table';
import { runAdminInProcess } from './admin-cli';
import { startTestApi, type ApiResponse, type TestApi } from './local-api';
import { aWorkspace } from './seed';

/**
 * Outbound events end to end, as `npm start` runs them: the local API, a table of the world's own
 * (the shared `crm-test` table's stream carries every other test file's writes), DynamoDB Local's
 * stream read by the real stream handler, the in-process queue feeding the real delivery function,
 * and receivers on 127.0.0.1. One clock drives the API, the functions and the queue: real time plus
 * an offset the test moves forward to reach the next retry without waiting for it, or, once stopped,
 * only the test's moves.
 */

/** One POST a receiver got, with the raw body (signatures are over its bytes) and what it answered. */
export type ReceivedRequest = {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Real time (ms) the request ended. */
  receivedAt: number;
  /** What it answered; null: nothing, ever. */
  status: number | null;
  /** Real time (ms) the exchange ended: its answer sent, or the connection dropped by the client. */
  endedAt?: number;
};

/**
 * What the receiver answers one request: a status at once, or (null) nothing ever, so that only the
 * client's own timeout ends the exchange, however slowly a loaded machine runs.
 */
export type Answer = { status: number | null };

export type Receiver = {
  url: string;
  requests: ReceivedRequest[];
  /** Decides each answer from here on (204 at once by default). */
  answerWith: (decide: (request: Omit<ReceivedRequest, 'status'>) => Answer) => void;
  close: () => Promise<void>;
};

/** An event as received: the webhook-id and the parsed body. */
export type ReceivedEvent = {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
  request: ReceivedRequest;
};

export type EventWorld = {
  endpoint: string;
  tableName: string;
  /** The world's clock-driven dependencies on its tables (seed, admin commands, checks). */
  deps: SecretsDeps;
  api: TestApi;
  pipeline: EventPipeline;
  /** The world's time (real time plus the offset, until `stopClock`). */
  now: () => Date;
  /** Moves the world's clock forward. */
  advance: (seconds: number) => void;
  /**
   * From now on the world's clock moves only by `advance`: nothing that is due later (a retry, a
   * queue delay) comes while a test looks, however long its checks take on a loaded machine.
   */
  stopClock: () => void;
  /** A workspace seeded on the world's table, its writes through the pipeline before this returns. */
  seed: (description?: SeedDescription) => Promise<SeedOutput>;
  receiver: () => Promise<Receiver>;
  /** `subscription create --json` on the receiver's URL (network 'local'), as the admin prints it. */
  subscribe: (ws: SeedOutput, receiver: Receiver, events?: string) => Promise<CreatedSubscription>;
  /** An admin command with `--json`: its document; throws with stderr on a non-zero exit. */
  admin: (...args: string[]) => Promise<unknown>;
  /** An admin command as typed (no `--json` added): exit code and output. */
  adminRun: (...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;
  deliveries: (ws: SeedOutput, subscriptionId: string, status?: string) => Promise<DeliveryView[]>;
  /** A Prospect API call with one of the seed's keys (`admin` by default). */
  call: (ws: SeedOutput, method: string, path: string, body?: unknown, key?: string) => Promise<ApiResponse>;
  /** A lead through the lead webhook with the seed's token (a new e-mail unless given). */
  lead: (ws: SeedOutput, body?: object) => Promise<ApiResponse>;
  /** An application through the recruitment webhook. */
  apply: (ws: SeedOutput, body: object) => Promise<ApiResponse>;
  /** The stream handler, built as the pipeline's (same queue), to feed it records again. */
  streamHandler: () => Promise<ReturnType<typeof createStreamHandler>>;
  /** Records every stream batch from now on, as the pipeline's poller hands them over. */
  recordStream: () => Promise<{ events: DynamoDBStreamEvent[]; stop: () => Promise<void> }>;
  /** Until every write so far went through the stream handler and the queue has nothing left to do now. */
  settle: () => Promise<void>;
  close: () => Promise<void>;
};

export async function startEventWorld(): Promise<EventWorld> {
  const endpoint = process.env.DYNAMODB_ENDPOINT as string;
  const tableName = `crm-test-events-${randomUUID()}`;
  const secretsTableName = `${tableName}-secrets`;
  const client = createDynamoClient({ endpoint });
  await ensureTable(client, tableName);
  await ensureSecretsTable(client, secretsTableName);
  client.destroy();

  let offsetMs = 0;
  let stoppedAt: number | undefined;
  const nowMs = () => stoppedAt ?? Date.now() + offsetMs;
  const now = () => new Date(nowMs());
  const base = productionDeps();
  const deps: SecretsDeps = { ...base, tableName, secretsTableName, clock: now };
  const api = await startTestApi({ tableName, clock: now });
  // A fresh table: every record of its stream is the world's, read from the start.
  const pipeline = await startEventPipeline({ deps, endpoint, tableName, startingPosition: 'TRIM_HORIZON' });
  const receivers: Receiver[] = [];

  const adminRun = (...args: string[]) => runAdminInProcess(deps, ...args);
  const admin = async (...args: string[]): Promise<unknown> => {
    const run = await adminRun(...args, '--json');
    if (run.code !== 0) throw new Error(`admin ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
    return JSON.parse(run.stdout);
  };

  const fingerprint = () =>
    JSON.stringify([
      receivers.map((receiver) => receiver.requests.length),
      pipeline.queued().map((message) => [message.messageId, message.receives]),
    ]);

  const world: EventWorld = {
    endpoint,
    tableName,
    deps,
    api,
    pipeline,
    now,
    advance: (seconds) => {
      if (stoppedAt === undefined) offsetMs += seconds * 1000;
      else stoppedAt += seconds * 1000;
    },
    stopClock: () => void (stoppedAt = nowMs()),
    seed: async (description = aWorkspace()) => {
      const ws = await seedWorkspace(deps, description);
      // Its writes go through the stream handler before any subscription exists: they send nothing.
      await world.settle();
      return ws;
    },
    receiver: async () => {
      const receiver = await startReceiver();
      receivers.push(receiver);
      return receiver;
    },
    subscribe: async (ws, receiver, events) =>
      (await admin(
        'subscription',
        'create',
        '--workspace',
        ws.workspace_id,
        '--url',
        receiver.url,
        ...(events === undefined ? [] : ['--events', events]),
      )) as CreatedSubscription,
    admin,
    adminRun,
    deliveries: async (ws, subscriptionId, status) =>
      (
        (await admin(
          'subscription',
          'deliveries',
          '--workspace',
          ws.workspace_id,
          '--id',
          subscriptionId,
          '--limit',
          '1000',
          ...(status === undefined ? [] : ['--status', status]),
        )) as { deliveries: DeliveryView[] }
      ).deliveries,
    call: (ws, method, path, body, key = 'admin') =>
      api.request(method, path, { headers: { Authorization: `Bearer ${ws.api_keys[key]?.secret}` }, body }),
    lead: (ws, body = {}) =>
      api.request('POST', '/webhooks/ingest-lead', {
        query: { endpoint_id: ws.webhook?.endpoint_id as string },
        headers: { Authorization: `Bearer ${ws.webhook?.token}` },
        body: { email: `${randomUUID()}@exemple.test`, ...body },
      }),
    apply: (ws, body) =>
      api.request('POST', '/webhooks/recruitment', {
        query: { endpoint_id: ws.webhook?.endpoint_id as string },
        headers: { Authorization: `Bearer ${ws.webhook?.token}` },
        body,
      }),
    streamHandler: async () => {
      // Imported once the pipeline has set the queue URL its module's AWS handler reads on import.
      const { createHandler } = await import('../../functions/events/stream-handler');
      return createHandler({
        ...deps,
        queue: pipeline.queue,
        followUpQueue: pipeline.followUpQueue,
        send: createHttpSender('local'),
        network: 'local',
      });
    },
    recordStream: async () => {
      const events: DynamoDBStreamEvent[] = [];
      const reader = await readTableStream({
        endpoint,
        tableName,
        handler: async (event) => void events.push(event),
        startingPosition: 'LATEST',
      });
      return {
        events,
        stop: async () => {
          await reader.caughtUp();
          await reader.stop();
        },
      };
    },
    settle: async () => {
      const states: string[] = [];
      for (let round = 0; round < 100; round += 1) {
        const before = fingerprint();
        await pipeline.caughtUp();
        await pipeline.idle();
        if (fingerprint() === before) return;
        states.push(fingerprint());
      }
      // What kept changing (requests received, messages and their receive counts).
      throw new Error(`the event pipeline never settled; its last states:\n${states.slice(-3).join('\n')}`);
    },
    close: async () => {
      await pipeline.stop();
      await api.close();
      await Promise.all(receivers.map((receiver) => receiver.close()));
      base.db.destroy();
    },
  };
  return world;
}

/** A receiver on 127.0.0.1 that records every request before answering it. */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let decide: (request: Omit<ReceivedRequest, 'status'>) => Answer = () => ({ status: 204 });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = {
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      const { status } = decide(received);
      const recorded: ReceivedRequest = { ...received, status };
      requests.push(recorded);
      response.once('close', () => void (recorded.endedAt = Date.now()));
      if (status !== null) response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/crm-events`,
    requests,
    answerWith: (next) => void (decide = next),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The events in `requests` (from index `from`), parsed. */
export function eventsOf(requests: readonly ReceivedRequest[], from = 0): ReceivedEvent[] {
  return requests.slice(from).map((request) => {
    const body = JSON.parse(request.body) as { type: string; timestamp: string; data: Record<string, unknown> };
    return { id: request.headers['webhook-id'] as string, ...body, request };
  });
}

/** The request's body checked with the subscription's secret, as a receiver does (throws when it does not verify). */
export function verified(secret: string, request: ReceivedRequest): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': request.headers['webhook-id'] as string,
    'webhook-timestamp': request.headers['webhook-timestamp'] as string,
    'webhook-signature': request.headers['webhook-signature'] as string,
  });
}
