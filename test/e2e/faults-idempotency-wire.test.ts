import { createHash, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { showProspect } from '../../lib/settings/prospects';
import type { SeedOutput } from '../../tools/seed/seed';
import { productionDeps, createDocumentClient } from '../../lib/storage/client';
import { keys, type ItemKey } from '../../lib/storage/table-items';
import { partitionOf, startFaultyWire, type FaultyWire, type WireCall, type WireFault } from '../support/faulty-wire';
import { startTestApi, type ApiResponse, type TestApi } from '../support/local-api';
import { aWorkspace, seedTestWorkspace } from '../support/seed';
import { seededRandom } from '../../tools/load/seeded-random';

/**
 * Faults on the wire between the real SDK and DynamoDB Local, under an
 * Idempotency-Key. The SDK retries a conditional claim whose answer was lost and meets its own
 * item; a request that fails after claiming must give its key back; a client that retries under
 * the same key always ends with the decided answer, and nothing is written twice.
 */
const deps = productionDeps();
let wire: FaultyWire;
let api: TestApi;
let ws: SeedOutput;
/** How far ahead of real time the API's clock runs (a test that waits out a claim moves it). */
let clockShiftMs = 0;
/** A claim still "in flight" this long after it started is abandoned (function timeout and margin, by far). */
const pastAbandonmentMs = 60_000;

beforeAll(async () => {
  ws = await seedTestWorkspace();
  wire = await startFaultyWire(process.env.DYNAMODB_ENDPOINT as string);
  api = await startTestApi({
    db: createDocumentClient({ endpoint: wire.endpoint }),
    clock: () => new Date(Date.now() + clockShiftMs),
  });
});
afterAll(async () => {
  await api.close();
  await wire.close();
  deps.db.destroy();
});
beforeEach(() => {
  wire.plan = () => 'pass';
  clockShiftMs = 0;
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

const isClaim = (call: WireCall) => call.operation === 'PutItem' && partitionOf(call).startsWith('IDEM#');
const isAnswerRecord = (call: WireCall) =>
  call.operation === 'UpdateItem' &&
  partitionOf(call).startsWith('IDEM#') &&
  JSON.stringify(call.body.ExpressionAttributeValues ?? {}).includes('"answered"');
const isRelease = (call: WireCall) =>
  call.operation === 'UpdateItem' &&
  partitionOf(call).startsWith('IDEM#') &&
  String(call.body.UpdateExpression).includes(':released');
const isTransaction = (call: WireCall) => call.operation === 'TransactWriteItems';

/** Faults for the first calls that match, then `pass`. */
function faultsFor(match: (call: WireCall) => boolean, faults: WireFault[]): (call: WireCall) => WireFault {
  const queue = [...faults];
  return (call) => (match(call) ? (queue.shift() ?? 'pass') : 'pass');
}

/** The first plan that has a fault for the call gives it. */
const either =
  (...plans: ((call: WireCall) => WireFault)[]) =>
  (call: WireCall): WireFault =>
    plans.map((plan) => plan(call)).find((fault) => fault !== 'pass') ?? 'pass';

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
const retryAfterOf = (response: ApiResponse) => response.headers.get('retry-after');

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

describe('a key that could not be given back', () => {
  // The change fails on every SDK attempt, and so does the release that follows: the key stays held.
  const changeAndReleaseFail = () =>
    either(faultsFor(isTransaction, ['fail', 'fail', 'fail']), faultsFor(isRelease, ['fail', 'fail', 'fail']));

  it('is refused as still running (409, Retry-After: 1) until its claim is abandoned, then taken over: one note', async () => {
    const prospectId = ws.prospects.lead as string;
    const key = randomUUID();
    wire.plan = changeAndReleaseFail();
    expect((await note(prospectId, `retenue ${key}`, key)).status).toBe(500);
    wire.plan = () => 'pass';
    const refused = await note(prospectId, `retenue ${key}`, key);
    expect([refused.status, retryAfterOf(refused), refused.body]).toEqual([
      409,
      '1',
      { error: expect.objectContaining({ code: 'conflict' }) },
    ]);
    clockShiftMs = pastAbandonmentMs;
    const retry = await note(prospectId, `retenue ${key}`, key);
    expect(retry.status).toBe(201);
    expect(await notesOf(prospectId, `retenue ${key}`)).toHaveLength(1);
  });

  it('on the lead webhook: 500 with Retry-After: 1 while held, then created', async () => {
    const key = randomUUID();
    wire.plan = changeAndReleaseFail();
    expect((await lead(`${key}@retenu.test`, key)).status).toBe(500);
    wire.plan = () => 'pass';
    const refused = await lead(`${key}@retenu.test`, key);
    expect([refused.status, retryAfterOf(refused), refused.body]).toEqual([
      500,
      '1',
      expect.objectContaining({ error: 'ingest_failed' }),
    ]);
    clockShiftMs = pastAbandonmentMs;
    expect((await lead(`${key}@retenu.test`, key)).body).toMatchObject({ status: 'created' });
  });
});

describe('24 clients retrying under their keys, each through faults of its own', () => {
  /**
   * Rounds: every client not yet answered sends its next attempt at the same time, then honours the
   * Retry-After it was given. Attempts 1 to 4 meet faults drawn for that client and attempt alone
   * (seeded; never taken in arrival order from a counter shared by concurrent clients). Attempt 5
   * meets none and is sent one client at a time: whatever the earlier rounds did, every client's
   * last attempt meets a healthy table, so "each ends with its decided answer" holds by
   * construction, and the faulty rounds prove what no schedule may break: never another answer,
   * never a write twice, never "still running" for a key nobody holds.
   */
  const faultyAttempts = 4;
  const seed = 24;
  const faultKinds: WireFault[] = ['throttle', 'fail', 'delay', 'lose-answer'];

  /**
   * One attempt's faults: a burst of one to three, from one of its first three calls (every request
   * makes at least three, so every faulty attempt meets it), then one call in twenty. A burst of
   * three on one call outlasts the SDK's three attempts: the request fails.
   */
  function faultsOfAttempt(random: () => number): (call: WireCall) => WireFault {
    const kind = () => faultKinds[Math.floor(random() * faultKinds.length)] as WireFault;
    const start = Math.floor(random() * 3);
    const burst = Array.from({ length: 1 + Math.floor(random() * 3) }, kind);
    let calls = 0;
    return () => {
      const inBurst = burst[calls - start];
      calls += 1;
      return inBurst ?? (random() < 0.05 ? kind() : 'pass');
    };
  }

  type Kind = 'lead' | 'note';
  type Client = {
    name: string;
    kind: Kind;
    send: () => Promise<ApiResponse>;
    /** Its Idempotency-Key's record. */
    record: ItemKey;
    /** How far ahead its API's clock runs: past the claim's abandonment once its key is left held. */
    clockShiftMs: number;
    answers: ApiResponse[];
    /** Whether its key was held "in flight" when each attempt was sent. */
    heldBefore: boolean[];
  };
  const decidedStatus: Record<Kind, number> = { lead: 200, note: 201 };
  /** The answers a client retries (docs/api.md#idempotency-keys): a 5xx, and the Prospect API's "still running". */
  const retried = (client: Client, response: ApiResponse) =>
    response.status >= 500 || (client.kind === 'note' && response.status === 409);
  const retrying = (client: Client) => {
    const last = client.answers.at(-1);
    return last === undefined || retried(client, last);
  };
  const outcome = (response: ApiResponse) =>
    `${response.status}${retryAfterOf(response) === null ? '' : ` Retry-After: ${retryAfterOf(response)}`}`;
  /** Besides the decided answer, in the route's own shape. */
  const otherAnswers: Record<string, { outcomes: RegExp; body: Record<string, unknown> }> = {
    'lead 500': { outcomes: /^500( Retry-After: 1)?$/, body: { error: 'ingest_failed' } },
    'note 500': { outcomes: /^500( Retry-After: 1)?$/, body: { error: { code: 'internal' } } },
    'note 409': { outcomes: /^409 Retry-After: 1$/, body: { error: { code: 'conflict' } } },
  };
  /** A write of the key's holder that settles it: its answer kept, or the key given back. */
  const settles = (call: WireCall, record: ItemKey) =>
    call.operation === 'UpdateItem' &&
    partitionOf(call) === record.pk &&
    /:answered|:released/.test(String(call.body.UpdateExpression));
  /** What DynamoDB received (a lost answer included). */
  const reachedTable = (fault: WireFault) => fault === 'pass' || fault === 'delay' || fault === 'lose-answer';

  const clientApis: TestApi[] = [];
  afterAll(async () => {
    await Promise.all(clientApis.map((clientApi) => clientApi.close()));
  });

  async function held(record: ItemKey): Promise<boolean> {
    const { Item } = await deps.db.send(
      new GetCommand({ TableName: deps.tableName, Key: record, ConsistentRead: true }),
    );
    return Item?.state === 'in_flight';
  }

  it('gives each its decided answer at the end, never another one, each write once', async () => {
    const perKind = 12;
    const labels = Array.from({ length: perKind }, (_, index) => `n${index}`);
    // Each note client has its own key and prospect: no rate limit or record shared between clients.
    const chaos = await seedTestWorkspace(
      aWorkspace({
        api_keys: labels.map((label) => ({ key: label, name: `Client ${label}`, scopes: ['*'] })),
        prospects: labels.map((label) => ({
          key: label,
          email: `${label}-${randomUUID()}@chaos.test`,
          pipeline: 'sales',
          stage: 'new',
        })),
      }),
    );
    const endpoint = chaos.webhook as { endpoint_id: string; token: string };
    const run = randomUUID();
    const email = (index: number) => `${run}-${index}@chaos.test`;
    const content = (index: number) => `chaos ${run} ${index}`;
    const clients: Client[] = [];
    for (const kind of ['lead', 'note'] as const) {
      for (let index = 0; index < perKind; index += 1) {
        const name = `${kind}-${index}`;
        const idempotencyKey = randomUUID();
        const apiKey = chaos.api_keys[labels[index] as string] as { id: string; secret: string };
        const client: Client = {
          name,
          kind,
          send: () => Promise.reject(new Error('not started')),
          record: keys.idempotency(
            `${chaos.workspace_id}\n${kind === 'lead' ? endpoint.endpoint_id : apiKey.id}`,
            idempotencyKey,
          ),
          clockShiftMs: 0,
          answers: [],
          heldBefore: [],
        };
        // Its own API, as a Lambda instance of its own: its own SDK client and retry quota, and its
        // calls marked with its name on the wire.
        const clientApi = await startTestApi({
          db: createDocumentClient({ endpoint: wire.endpointFor(name) }),
          clock: () => new Date(Date.now() + client.clockShiftMs),
        });
        clientApis.push(clientApi);
        client.send =
          kind === 'lead'
            ? () =>
                clientApi.request('POST', '/webhooks/ingest-lead', {
                  query: { endpoint_id: endpoint.endpoint_id },
                  headers: { Authorization: `Bearer ${endpoint.token}`, 'Idempotency-Key': idempotencyKey },
                  body: { email: email(index) },
                })
            : () =>
                clientApi.request('POST', `/prospects/${chaos.prospects[labels[index] as string]}/notes`, {
                  headers: { Authorization: `Bearer ${apiKey.secret}`, 'Idempotency-Key': idempotencyKey },
                  body: { content: content(index) },
                });
        clients.push(client);
      }
    }
    // A seed per client and attempt, hashed: nearby seeds give mulberry32 alike first draws.
    const seedOf = (client: Client, attempt: number) =>
      createHash('sha256').update(`${seed} ${client.name} ${attempt}`).digest().readUInt32LE(0);
    const planOf = (client: Client, attempt: number) =>
      attempt > faultyAttempts ? (): WireFault => 'pass' : faultsOfAttempt(seededRandom(seedOf(client, attempt)));

    for (let attempt = 1; attempt <= faultyAttempts + 1; attempt += 1) {
      const last = attempt === faultyAttempts + 1;
      const sending = clients.filter(retrying);
      await wire.idle();
      for (const client of sending) {
        const heldNow = await held(client.record);
        client.heldBefore.push(heldNow);
        // A key its holder could not settle is taken over once the claim is abandoned (function
        // timeout and margin): this client's last attempt comes after that, as a form tool's would.
        if (last && heldNow) client.clockShiftMs = pastAbandonmentMs;
      }
      const plans = new Map(sending.map((client) => [client.name, planOf(client, attempt)]));
      wire.plan = (call) => plans.get(call.client)?.(call) ?? 'pass';
      const firstCall = wire.calls.length;
      const send = async (client: Client) => {
        const response = await client.send();
        client.answers.push(response);
        if (!last && retried(client, response)) {
          const waitMs = retryAfterOf(response) === null ? 100 : Number(retryAfterOf(response)) * 1000;
          await new Promise((resolve) => setTimeout(resolve, waitMs));
        }
      };
      if (last) for (const client of sending) await send(client);
      else await Promise.all(sending.map(send));
      wire.plan = () => 'pass';

      // A key still held after its attempt is one none of whose settling writes reached DynamoDB.
      await wire.idle();
      const calls = wire.calls.slice(firstCall);
      for (const client of sending) {
        if (!(await held(client.record))) continue;
        const settled = calls.filter(
          (call) => call.client === client.name && settles(call, client.record) && reachedTable(call.fault),
        );
        expect([client.name, attempt, settled]).toEqual([client.name, attempt, []]);
      }
    }

    // The schedule reached every client (each first attempt met its burst).
    expect(
      clients.filter((client) => !wire.calls.some((call) => call.client === client.name && call.fault !== 'pass')),
    ).toEqual([]);
    // Every answer but the decided one is one a client retries, in the route's shape.
    for (const client of clients) {
      for (const response of client.answers.filter((answer) => answer.status !== decidedStatus[client.kind])) {
        const expected = otherAnswers[`${client.kind} ${response.status}`];
        expect([client.name, outcome(response)]).toEqual([
          client.name,
          expect.stringMatching(expected?.outcomes ?? /^$/),
        ]);
        expect(response.body).toMatchObject(expected?.body ?? {});
      }
    }
    // "Still running" (409 on the Prospect API) only while the key is held.
    const refusedUnheld = clients.flatMap((client) =>
      client.answers.flatMap((response, index) =>
        response.status === 409 && !client.heldBefore[index] ? [[client.name, index + 1]] : [],
      ),
    );
    expect(refusedUnheld).toEqual([]);
    // Each client ends with its decided answer, which its key replays.
    expect(clients.filter(retrying).map((client) => [client.name, client.answers.map(outcome)])).toEqual([]);
    for (const client of clients) {
      const decided = client.answers.at(-1) as ApiResponse;
      const replay = await client.send();
      expect([client.name, replay.status, replay.body]).toEqual([client.name, decided.status, decided.body]);
    }
    // Each write once: a new e-mail is created once (a retry repeating an attempt that landed still
    // answers "created"); a note key adds one note and one log entry.
    for (const [index, client] of clients.filter((candidate) => candidate.kind === 'lead').entries()) {
      const answer = client.answers.at(-1)?.body as { status: string; prospect_id: string };
      expect([client.name, answer.status]).toEqual([client.name, 'created']);
      const { prospect } = await showProspect(deps, {
        workspaceId: chaos.workspace_id,
        prospectId: answer.prospect_id,
      });
      expect(prospect.email).toBe(email(index));
    }
    for (const [index, client] of clients.filter((candidate) => candidate.kind === 'note').entries()) {
      const answer = client.answers.at(-1)?.body as { id: string };
      const { notes, changelog } = await showProspect(deps, {
        workspaceId: chaos.workspace_id,
        prospectId: chaos.prospects[labels[index] as string] as string,
      });
      expect([client.name, notes.map((entry) => [entry.id, entry.content])]).toEqual([
        client.name,
        [[answer.id, content(index)]],
      ]);
      expect([client.name, changelog.filter((entry) => entry.field === 'note').length]).toEqual([client.name, 1]);
    }
  }, 120_000);
});
