import { messages } from '../../lib/messages';
import type { SeedOutput } from '../../tools/seed/seed';
import type { WebhookCallView } from '../../lib/domain/webhook-call-view';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { runAdminInProcess } from '../support/admin-cli';
import { startTestApi, type ApiResponse, type TestApi } from '../support/local-api';
import { seedTestWorkspace } from '../support/seed';

/**
 * docs/api.md#webhook-call-journal: calls refused for their token cannot flood the journal. Per endpoint, route and
 * minute, the first 10 are journaled one by one and the others make one entry whose `count` says
 * how many they were. Over HTTP through the local API, on a clock the test sets, so that "a
 * minute" is the test's to say; the journal is read as the administrator reads it.
 */

/** A workspace and its own local API on its own clock: every call is answered at the time set before it is sent. */
type Flood = { ws: SeedOutput; api: TestApi; deps: Deps; setNow: (time: number) => void };
const floods: Flood[] = [];

async function aFlood(): Promise<Flood> {
  let now = new Date();
  const clock = () => now;
  const flood: Flood = {
    ws: await seedTestWorkspace(),
    api: await startTestApi({ clock }),
    deps: { ...productionDeps(), clock },
    setNow: (time) => void (now = new Date(time)),
  };
  floods.push(flood);
  return flood;
}
afterEach(async () => {
  for (const { api, deps } of floods.splice(0)) {
    await api.close();
    deps.db.destroy();
  }
});

/** The start of a whole minute some hours ago (well within the entries' 30 days). */
const aMinute = (hoursAgo: number): number => Math.floor((Date.now() - hoursAgo * 3_600_000) / 60_000) * 60_000;

const at = (time: number) => new Date(time).toISOString();

const refused = ({ ws, api }: Flood, route: 'ingest-lead' | 'recruitment', token = 'pas-le-bon-jeton') =>
  api.request('POST', `/webhooks/${route}`, {
    query: { endpoint_id: ws.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${token}` },
    body: { email: 'flood@journal.test', name: 'Flood' },
  });

const requestIdOf = (response: ApiResponse): string => {
  expect(response.status).toBe(401);
  return response.headers.get('x-request-id') as string;
};

/** `count` calls one after the other, the i-th at `start` + i × `stepMs`: their request ids, in order. */
async function inTurn(
  flood: Flood,
  count: number,
  start: number,
  stepMs: number,
  send: (index: number) => Promise<ApiResponse>,
): Promise<string[]> {
  const requestIds: string[] = [];
  for (let index = 0; index < count; index += 1) {
    flood.setNow(start + index * stepMs);
    requestIds.push(requestIdOf(await send(index)));
  }
  return requestIds;
}

/** `count` calls `batch` at a time, the batch of rank b at `start` + b × `stepMs`: their request ids. */
async function inBatches(
  flood: Flood,
  count: number,
  batch: number,
  start: number,
  stepMs: number,
  send: () => Promise<ApiResponse>,
): Promise<string[]> {
  const requestIds: string[] = [];
  for (let sent = 0; sent < count; sent += batch) {
    flood.setNow(start + (sent / batch) * stepMs);
    const responses = await Promise.all(Array.from({ length: Math.min(batch, count - sent) }, send));
    requestIds.push(...responses.map(requestIdOf));
  }
  return requestIds;
}

async function journal({ ws, deps }: Flood): Promise<WebhookCallView[]> {
  const run = await runAdminInProcess(
    deps,
    ...['webhook', 'calls', '--workspace', ws.workspace_id, '--limit', '1000', '--json'],
  );
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return (JSON.parse(run.stdout) as { calls: WebhookCallView[] }).calls;
}

/** The journal as [request id, count] pairs: the counting entry, then the first ten, newest first. */
const expectedMinute = (requestIds: readonly string[], counted: number) => [
  [requestIds[10], counted],
  ...requestIds
    .slice(0, 10)
    .map((requestId) => [requestId, 1])
    .reverse(),
];
const pairs = (calls: readonly WebhookCallView[]) => calls.map((call) => [call.request_id, call.count]);

// 612 calls over HTTP, each answered through the authorizer, the handler and three DynamoDB Local
// round trips: on a loaded 2-core machine that is more than the default 30 s.
const floodTimeoutMs = 180_000;

it(
  '600 wrong-token calls in one minute make 11 entries, the 11th counting 590; the next minute starts again',
  async () => {
    const flood = await aFlood();
    const minute = aMinute(3);
    // The first eleven one after the other, so that the test knows which is the 11th; the other 589
    // (all counted) 31 at a time, every one within the minute.
    const first = await inTurn(flood, 11, minute, 90, () => refused(flood, 'ingest-lead'));
    const rest = await inBatches(flood, 589, 31, minute + 1000, 2000, () => refused(flood, 'ingest-lead'));
    expect(new Set([...first, ...rest]).size).toBe(600);

    const calls = await journal(flood);
    expect(calls).toHaveLength(11);
    expect(calls[0]).toEqual({
      id: expect.any(String),
      at: at(minute + 10 * 90),
      route: 'ingest-lead',
      status: 401,
      outcome: 'unauthorized',
      record_id: null,
      placement: null,
      pipeline_id: null,
      stage_id: null,
      warnings: [],
      message: messages.access.webhookUnauthorized,
      request_id: first[10],
      count: 590,
      body_truncated: false,
    });
    expect(pairs(calls)).toEqual(expectedMinute(first, 590));
    expect(calls.slice(1).map((call) => call.at)).toEqual(
      Array.from({ length: 10 }, (_, index) => at(minute + (9 - index) * 90)),
    );
    const shown = await runAdminInProcess(
      flood.deps,
      ...['webhook', 'call', '--workspace', flood.ws.workspace_id, '--id', calls[0]?.id as string, '--json'],
    );
    expect(JSON.parse(shown.stdout)).toEqual({ call: calls[0], body: null });

    // The next minute counts from 1 again: 12 calls, 10 entries and one counting 2, listed first.
    const next = await inTurn(flood, 12, minute + 60_000, 1000, () => refused(flood, 'ingest-lead'));
    const after = await journal(flood);
    expect(after).toHaveLength(22);
    expect(pairs(after.slice(0, 11))).toEqual(expectedMinute(next, 2));
    expect(after.slice(11)).toEqual(calls);
  },
  floodTimeoutMs,
);

it('a disabled webhook is flooded the same way, counted per route; no token counts with a wrong one', async () => {
  const flood = await aFlood();
  const disabled = await runAdminInProcess(flood.deps, 'webhook', 'disable', '--workspace', flood.ws.workspace_id);
  expect(disabled.code).toBe(0);
  const minute = aMinute(2);
  const token = flood.ws.webhook?.token as string;
  const recruitment = await inTurn(flood, 25, minute, 500, () => refused(flood, 'recruitment', token));
  // Every other lead carries no token at all.
  const leads = await inTurn(flood, 14, minute + 20_000, 500, (index) =>
    index % 2 === 0
      ? refused(flood, 'ingest-lead')
      : flood.api.request('POST', '/webhooks/ingest-lead', {
          query: { endpoint_id: flood.ws.webhook?.endpoint_id as string },
          body: { email: 'sans-jeton@journal.test' },
        }),
  );

  const calls = await journal(flood);
  expect(pairs(calls.filter((call) => call.route === 'recruitment'))).toEqual(expectedMinute(recruitment, 15));
  expect(pairs(calls.filter((call) => call.route === 'ingest-lead'))).toEqual(expectedMinute(leads, 4));
  expect(calls.every((call) => call.status === 401 && call.outcome === 'unauthorized')).toBe(true);
});

it('50 refused calls at once lose no count and make one counting entry', async () => {
  const flood = await aFlood();
  const requestIds = await inBatches(flood, 50, 50, aMinute(1) + 30_000, 0, () => refused(flood, 'ingest-lead'));

  const calls = await journal(flood);
  expect(calls.map((call) => call.count)).toEqual([40, ...Array.from({ length: 10 }, () => 1)]);
  // Eleven different calls of the fifty: ten one by one, and the one the counting entry began with.
  expect(new Set(calls.map((call) => call.request_id)).size).toBe(11);
  expect(calls.every((call) => requestIds.includes(call.request_id as string))).toBe(true);
});
