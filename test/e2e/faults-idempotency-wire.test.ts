import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import fc from 'fast-check';
import { showProspect } from '../../lib/admin/prospects';
import type { SeedOutput } from '../../lib/admin/seed';
import { productionDeps } from '../../lib/deps';
import { createDocumentClient } from '../../lib/storage/client';
import { partitionOf, startFaultyWire, type FaultyWire, type WireCall, type WireFault } from '../support/faulty-wire';
import { startTestApi, type ApiResponse, type TestApi } from '../support/local-api';
import { seedTestWorkspace } from '../support/seed';

/**
 * Issue 12, point 9: faults on the wire between the real SDK and DynamoDB Local, under an
 * Idempotency-Key. The SDK retries a conditional claim whose answer was lost and meets its own
 * item; a request that fails after claiming must give its key back; a client that retries under
 * the same key always ends with the decided answer, and nothing is written twice.
 */
const deps = productionDeps();
let wire: FaultyWire;
let api: TestApi;
let ws: SeedOutput;

beforeAll(async () => {
  ws = await seedTestWorkspace();
  wire = await startFaultyWire(process.env.DYNAMODB_ENDPOINT as string);
  api = await startTestApi({ db: createDocumentClient({ endpoint: wire.endpoint }) });
});
afterAll(async () => {
  await api.close();
  await wire.close();
  deps.db.destroy();
});
beforeEach(() => {
  wire.plan = () => 'pass';
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

const isClaim = (call: WireCall) => call.operation === 'PutItem' && partitionOf(call).startsWith('IDEM#');
const isAnswerRecord = (call: WireCall) =>
  call.operation === 'UpdateItem' &&
  partitionOf(call).startsWith('IDEM#') &&
  JSON.stringify(call.body.ExpressionAttributeValues ?? {}).includes('"answered"');

/** Faults for the first calls that match, then `pass`. */
function faultsFor(match: (call: WireCall) => boolean, faults: WireFault[]): (call: WireCall) => WireFault {
  const queue = [...faults];
  return (call) => (match(call) ? (queue.shift() ?? 'pass') : 'pass');
}

const note = (prospectId: string, content: string, key: string) =>
  api.request('POST', `/prospects/${prospectId}/notes`, {
    headers: { Authorization: `Bearer ${ws.api_keys.admin?.secret}`, 'Idempotency-Key': key },
    body: { content },
  });
const lead = (email: string, key: string) =>
  api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: ws.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${ws.webhook?.token}`, 'Idempotency-Key': key },
    body: { email },
  });
const notesOf = async (prospectId: string, content: string) =>
  (await showProspect(deps, { workspaceId: ws.workspace_id, prospectId })).notes.filter(
    (entry) => entry.content === content,
  );

describe('a claim whose answer was lost', () => {
  it("is the request's own when the SDK retries it: 201 at once, then replayed", async () => {
    wire.plan = faultsFor(isClaim, ['lose-answer']);
    const prospectId = ws.prospects.lead as string;
    const key = randomUUID();
    const first = await note(prospectId, `perdu ${key}`, key);
    expect(first.status).toBe(201);
    expect(wire.calls.filter((call) => isClaim(call) && call.fault === 'lose-answer')).not.toHaveLength(0);
    const again = await note(prospectId, `perdu ${key}`, key);
    expect(again.body).toEqual(first.body);
    expect(await notesOf(prospectId, `perdu ${key}`)).toHaveLength(1);
  });

  it('on the lead webhook too: created, then the same answer', async () => {
    wire.plan = faultsFor(isClaim, ['lose-answer']);
    const key = randomUUID();
    const first = await lead(`${key}@fil.test`, key);
    expect(first.body).toMatchObject({ status: 'created' });
    expect((await lead(`${key}@fil.test`, key)).body).toEqual(first.body);
  });

  it('that landed while every SDK attempt failed is released: the next retry runs at once', async () => {
    const prospectId = ws.prospects.lead as string;
    const key = randomUUID();
    wire.plan = faultsFor(isClaim, ['lose-answer', 'fail', 'fail', 'fail']);
    const failed = await note(prospectId, `relâché ${key}`, key);
    expect(failed.status).toBe(500);
    const retry = await note(prospectId, `relâché ${key}`, key);
    expect(retry.status).toBe(201);
    expect(await notesOf(prospectId, `relâché ${key}`)).toHaveLength(1);
  });
});

describe('an idempotent answer that cannot be stored', () => {
  it('releases its key: the retry runs the request again, repeating the same note, never a 5xx', async () => {
    const prospectId = ws.prospects.lead as string;
    const key = randomUUID();
    wire.plan = faultsFor(isAnswerRecord, ['too-large']);
    const first = await note(prospectId, `trop grand ${key}`, key);
    expect(first.status).toBe(201);
    const retry = await note(prospectId, `trop grand ${key}`, key);
    expect(retry.status).toBe(201);
    expect((retry.body as { id: string }).id).toBe((first.body as { id: string }).id);
    expect(await notesOf(prospectId, `trop grand ${key}`)).toHaveLength(1);
    const replay = await note(prospectId, `trop grand ${key}`, key);
    expect(replay.body).toEqual(retry.body);
  });
});

describe('10 % of calls throttled, failed, delayed or applied with the answer lost', () => {
  const retryable = (response: ApiResponse) => response.status >= 500 || response.status === 409;

  async function untilDecided(send: () => Promise<ApiResponse>): Promise<ApiResponse[]> {
    const responses: ApiResponse[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await send();
      responses.push(response);
      if (!retryable(response)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return responses;
  }

  it('gives every client retrying 5 times under one key its decided answer, each write once', async () => {
    const faults: WireFault[] = ['throttle', 'fail', 'delay', 'lose-answer'];
    const random = fc.sample(fc.integer({ min: 0, max: 999 }), { numRuns: 5000, seed: 12 });
    let next = 0;
    wire.plan = () => {
      const roll = random[next++ % random.length] as number;
      return roll < 100 ? (faults[roll % faults.length] as WireFault) : 'pass';
    };
    const prospectId = ws.prospects.lead as string;
    const run = randomUUID();
    const leads = Array.from({ length: 12 }, (_, index) => ({
      email: `${run}-${index}@chaos.test`,
      key: randomUUID(),
    }));
    const notes = Array.from({ length: 12 }, (_, index) => ({ content: `chaos ${run} ${index}`, key: randomUUID() }));
    const [leadRuns, noteRuns] = await Promise.all([
      Promise.all(leads.map(({ email, key }) => untilDecided(() => lead(email, key)))),
      Promise.all(notes.map(({ content, key }) => untilDecided(() => note(prospectId, content, key)))),
    ]);
    wire.plan = () => 'pass';

    expect(wire.calls.filter((call) => call.fault !== 'pass').length).toBeGreaterThan(5);
    for (const responses of leadRuns) {
      expect(responses.at(-1)?.status).toBe(200);
      const ids = new Set(
        responses.filter((r) => r.status === 200).map((r) => (r.body as { prospect_id: string }).prospect_id),
      );
      expect(ids.size).toBe(1);
    }
    for (const [index, responses] of noteRuns.entries()) {
      expect(responses.at(-1)?.status).toBe(201);
      expect(await notesOf(prospectId, notes[index]?.content as string)).toHaveLength(1);
    }
    for (const [index, { email, key }] of leads.entries()) {
      const again = await lead(email, key);
      expect(again.body).toMatchObject({
        prospect_id: (leadRuns[index]?.at(-1)?.body as { prospect_id: string }).prospect_id,
      });
    }
  });
});
