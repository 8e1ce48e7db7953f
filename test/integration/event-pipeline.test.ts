import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { startLocalApi, type TestApi } from '../support/local-api';
import { startEventPipeline, type EventPipeline } from '../../tools/local/event-pipeline';
import { createSubscription } from '../../lib/settings/subscriptions';
import { seedWorkspace, type SeedOutput } from '../../tools/seed/seed';
import { productionDeps, type SecretsDeps, createDynamoClient } from '../../lib/storage/client';
import { retryDelaysSeconds } from '../../lib/domain/events/retry-schedule';
import { ensureSecretsTable, ensureTable } from '../../tools/local/create-table';
import { aWorkspace } from '../support/seed';

/**
 * `npm start`'s outbound events end to end, on a table of their own: a lead through the local API,
 * DynamoDB Local's stream, the real stream handler, the in-process queue, the real delivery function, a
 * receiver on 127.0.0.1. The queue follows the API's clock, which the test moves for the retry delay.
 */

const endpoint = process.env.DYNAMODB_ENDPOINT as string;
const tableName = `crm-test-events-${randomUUID()}`;
const secretsTableName = `${tableName}-secrets`;
let now = new Date();
const base = productionDeps();
const deps: SecretsDeps = { ...base, tableName, secretsTableName, clock: () => now };

type Received = { headers: IncomingHttpHeaders; body: string };
const received: Received[] = [];
let answers: number[] = [];
let receiver: Server;
let receiverUrl: string;
let api: TestApi;
let pipeline: EventPipeline;
let ws: SeedOutput;

beforeAll(async () => {
  const client = createDynamoClient({ endpoint });
  await ensureTable(client, tableName);
  await ensureSecretsTable(client, secretsTableName);
  client.destroy();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(answers.shift() ?? 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  ws = await seedWorkspace(deps, aWorkspace());
  api = await startLocalApi({ tableName, clock: () => now });
  pipeline = await startEventPipeline({ deps, endpoint });
});

afterAll(async () => {
  await pipeline.stop();
  await api.close();
  await new Promise((resolve) => receiver.close(resolve));
  base.db.destroy();
});

test('a new lead reaches a subscribed receiver, signed, and a failed attempt is retried after its delay', async () => {
  const subscription = await createSubscription(deps, {
    workspaceId: ws.workspace_id,
    url: receiverUrl,
    events: 'prospect.created',
    network: 'local',
  });
  answers = [503];
  const email = `zoe.${randomUUID()}@exemple.test`;
  const lead = await api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: ws.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${ws.webhook?.token}` },
    body: { email, first_name: 'Zoé 🎉' },
  });
  expect(lead.body).toMatchObject({ status: 'created' });

  await pipeline.caughtUp();
  await pipeline.idle();
  expect(received).toHaveLength(1);

  // The retry waits in the queue until the clock has moved past its delay.
  now = new Date(now.getTime() + (retryDelaysSeconds[0] as number) * 1000);
  await pipeline.idle();
  expect(received).toHaveLength(2);

  const [first, second] = received as [Received, Received];
  expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
  const verified = new Webhook(subscription.secret).verify(second.body, {
    'webhook-id': second.headers['webhook-id'] as string,
    'webhook-timestamp': second.headers['webhook-timestamp'] as string,
    'webhook-signature': second.headers['webhook-signature'] as string,
  }) as { type: string; data: { prospect: { id: string; email: string } } };
  expect(verified.type).toBe('prospect.created');
  expect(verified.data.prospect.id).toBe((lead.body as { prospect_id: string }).prospect_id);
  expect(pipeline.queued()).toEqual([]);
});
