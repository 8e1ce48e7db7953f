import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { continueErasures, erasureSettings } from '../../lib/domain/erasure/continue-erasures';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { keys } from '../../lib/storage/table-items';
import { startLocalApi, type TestApi } from '../support/local-api';
import { runAdminInProcess } from '../support/admin-cli';
import { bearer, workspaceWithPeople, type PeopleWorkspace } from '../support/people';
import { strongReads } from '../support/table-reads';

/*
 * Erasure (docs/api.md#erasure-export-and-retention, docs/adr/0019-erasure-in-the-background.md) over HTTP through the
 * local server: every kind of copy of one prospect and of one candidate is planted the way the service makes it, the
 * erasure answered, then the background run (its clock two minutes later), and the table itself read: nothing of the
 * person is left but the audit entry and the event that tells the erasure.
 */

const deps = productionDeps();
let api: TestApi;
let people: PeopleWorkspace;

beforeAll(async () => {
  api = await startLocalApi();
  people = await workspaceWithPeople(api);
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const ws = () => people.seed.workspace_id;
const webhook = () => ({
  query: { endpoint_id: people.seed.webhook?.endpoint_id as string },
  headers: { 'x-webhook-token': people.seed.webhook?.token as string },
});
const withKey = (method: string, path: string, body?: unknown) =>
  api.request(method, path, {
    headers: { Authorization: `Bearer ${people.seed.api_keys.admin?.secret}` },
    ...(body === undefined ? {} : { body }),
  });
const asAdmin = (method: string, path: string) =>
  api.request(method, `/workspaces/${ws()}${path}`, { headers: bearer(people.admin) });

const { item, partition } = strongReads(deps);

/** The background run as the schedule makes it, its clock `seconds` after now. */
const runLater = (seconds: number) =>
  continueErasures({ ...deps, clock: () => new Date(Date.now() + seconds * 1000) } satisfies Deps);

/** A delivery of an event about `data`, as the stream handler stores one. */
async function plantDelivery(type: string, data: Record<string, unknown>): Promise<{ pk: string; sk: string }> {
  const id = randomUUID();
  const key = keys.delivery(ws(), id);
  await deps.db.send(
    new PutCommand({
      TableName: deps.tableName,
      Item: {
        ...key,
        type: 'delivery',
        id,
        event_type: type,
        payload: JSON.stringify({ type, timestamp: new Date().toISOString(), data }),
        status: 'pending',
      },
    }),
  );
  return key;
}

describe('POST /workspaces/{w}/prospects/{p}/erase', () => {
  const email = `Efface.Moi-${randomUUID()}@acme.test`;
  const phone = '06 12 34 56 78';
  let prospect: string;
  let other: string;
  /** A change under an Idempotency-Key: its answer is kept, and names the prospect. */
  const keyedPatch = () =>
    api.request('PATCH', `/prospects/${prospect}`, {
      headers: {
        Authorization: `Bearer ${people.seed.api_keys.admin?.secret}`,
        'Idempotency-Key': `erase-${prospect}`,
      },
      body: { setter_id: people.admin.memberId },
    });

  beforeAll(async () => {
    const lead = await api.request('POST', '/webhooks/ingest-lead', {
      ...webhook(),
      body: {
        email,
        phone,
        first_name: 'Élise',
        last_name: 'Effacée',
        social_url: `https://linkedin.com/in/${randomUUID()}`,
      },
    });
    expect(lead.status).toBe(200);
    prospect = (lead.body as { prospect_id: string }).prospect_id;
    const again = await api.request('POST', '/webhooks/ingest-lead', { ...webhook(), body: { email } });
    expect(again.status).toBe(200);
    const otherLead = await api.request('POST', '/webhooks/ingest-lead', {
      ...webhook(),
      body: { email: `autre-${randomUUID()}@acme.test` },
    });
    other = (otherLead.body as { prospect_id: string }).prospect_id;
    // A change-log entry (in the key's log too), a note, a tag, a follow-up (its schedule).
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    expect(
      (await withKey('PATCH', `/prospects/${prospect}`, { stage: 'Relance', follow_up_at: inAnHour })).status,
    ).toBe(200);
    expect((await keyedPatch()).status).toBe(200);
    expect(
      (await withKey('POST', `/prospects/${prospect}/notes`, { content: 'Appeler Élise au 06 12 34 56 78' })).status,
    ).toBe(201);
    // A failed call whose kept body carries the phone in another format, and one about nobody.
    const failed = await api.request('POST', '/webhooks/ingest-lead', {
      ...webhook(),
      body: '["Élise", "+33612345678"]',
      headers: { ...webhook().headers, 'content-type': 'application/json' },
    });
    expect(failed.status).toBeGreaterThanOrEqual(400);
  });

  it('refuses a member (403), then erases for an admin: 200 { id, erased_at }', async () => {
    const refused = await api.request('POST', `/workspaces/${ws()}/prospects/${prospect}/erase`, {
      headers: bearer(people.member),
    });
    expect(refused.status).toBe(403);
    const erased = await asAdmin('POST', `/prospects/${prospect}/erase`);
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ id: prospect, erased_at: expect.any(String) });
  });

  it('is not found anywhere from the answer on, and a second erasure is 404', async () => {
    expect((await withKey('GET', `/prospects/${prospect}`)).status).toBe(404);
    expect((await asAdmin('GET', `/prospects/${prospect}`)).status).toBe(404);
    expect((await withKey('GET', '/prospects', undefined)).body).not.toMatchObject({
      prospects: expect.arrayContaining([expect.objectContaining({ id: prospect })]),
    });
    const lookUp = await api.request('GET', '/prospects', {
      headers: { Authorization: `Bearer ${people.seed.api_keys.admin?.secret}` },
      query: { email },
    });
    expect(lookUp.body).toEqual({ prospects: [] });
    expect((await asAdmin('POST', `/prospects/${prospect}/erase`)).status).toBe(404);
    // The answer kept for its Idempotency-Key went with it: the same request is run again, and finds nothing.
    expect((await keyedPatch()).status).toBe(404);
  });

  it('frees the contact: the same lead sent again is a new prospect', async () => {
    const again = await api.request('POST', '/webhooks/ingest-lead', { ...webhook(), body: { email, phone } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'created' });
    expect((again.body as { prospect_id: string }).prospect_id).not.toBe(prospect);
  });

  it('leaves every copy deleted by the background run, read from the table itself', async () => {
    const about = await plantDelivery('prospect.updated', { prospect: { id: prospect, email } });
    const aboutOther = await plantDelivery('prospect.updated', { prospect: { id: other } });
    const told = await plantDelivery('prospect.erased', { prospect_id: prospect });
    // Too early for the deliveries (the stream may still be making some): the job waits.
    await runLater(0);
    expect(await item(about)).toBeDefined();
    expect((await partition(keys.prospectPk(ws(), prospect))).length).toBe(0);
    await runLater(erasureSettings.deliveriesAfterSeconds + 60);

    expect(await partition(keys.prospectPk(ws(), prospect))).toEqual([]);
    expect(await item(keys.followUpSchedule(ws(), prospect))).toBeUndefined();
    expect(await item(keys.erasure(ws(), 'prospect', prospect))).toBeUndefined();
    expect(await item(about)).toBeUndefined();
    expect(await item(aboutOther)).toBeDefined();
    expect(await item(told)).toBeDefined();
    const calls = await partition(keys.webhookCallsPk(ws()));
    expect(calls.filter((call) => call.record_id === prospect)).toEqual([]);
    expect(calls.filter((call) => typeof call.body === 'string' && call.body.includes('33612345678'))).toEqual([]);
    expect(calls.filter((call) => JSON.stringify(call).toLowerCase().includes(email.toLowerCase()))).toEqual([]);
    // The key's log: no entry of the prospect left.
    const keyLog = await withKey('GET', `/prospects/${prospect}/changes`);
    expect(keyLog.status).toBe(404);
  });

  it('keeps the audit entry prospect.erased: its id and member, nothing of the person', async () => {
    const audit = await asAdmin('GET', '/audit');
    const entry = (audit.body as { entries: Record<string, unknown>[] }).entries.find(
      (listed) => listed.action === 'prospect.erased',
    );
    expect(entry).toMatchObject({ target_id: prospect, member_id: people.admin.memberId });
    expect(JSON.stringify(entry)).not.toMatch(/Élise|Efface\.Moi|acme\.test|612345678/i);
  });
});

describe('POST /workspaces/{w}/candidates/{t}/erase', () => {
  it('erases a candidate, its notes and marker; the same e-mail applying again is a new candidate', async () => {
    const email = `candidat-${randomUUID()}@acme.test`;
    const applied = await api.request('POST', '/webhooks/recruitment', {
      ...webhook(),
      body: { email, name: 'Camille Candidat', motivation: 'Très motivée' },
    });
    expect(applied.status).toBe(200);
    const candidate = (applied.body as { talent_id: string }).talent_id;
    const erased = await asAdmin('POST', `/candidates/${candidate}/erase`);
    expect(erased.status).toBe(200);
    expect(await item(keys.candidate(ws(), candidate))).toBeUndefined();
    expect((await asAdmin('POST', `/candidates/${candidate}/erase`)).status).toBe(404);
    const again = await api.request('POST', '/webhooks/recruitment', {
      ...webhook(),
      body: { email, name: 'Camille Candidat' },
    });
    expect(again.body).toMatchObject({ action: 'created' });
    expect((again.body as { talent_id: string }).talent_id).not.toBe(candidate);
    await runLater(erasureSettings.deliveriesAfterSeconds + 60);
    expect(await partition(keys.candidatePk(ws(), candidate))).toEqual([]);
    expect((await partition(keys.webhookCallsPk(ws()))).filter((call) => call.record_id === candidate)).toEqual([]);
  });
});

describe('prospect erase, candidate erase (command line)', () => {
  it('erase as the routes do, by no member, print the same document; again: exit 2', async () => {
    const lead = await api.request('POST', '/webhooks/ingest-lead', {
      ...webhook(),
      body: { email: `cli-${randomUUID()}@acme.test` },
    });
    const prospect = (lead.body as { prospect_id: string }).prospect_id;
    const applied = await api.request('POST', '/webhooks/recruitment', {
      ...webhook(),
      body: { email: `cli-${randomUUID()}@acme.test`, name: 'Camille Candidat' },
    });
    const candidate = (applied.body as { talent_id: string }).talent_id;
    for (const [kind, id] of [
      ['prospect', prospect],
      ['candidate', candidate],
    ] as const) {
      const erased = await runAdminInProcess(deps, kind, 'erase', '--workspace', ws(), '--id', id, '--json');
      expect(erased.code).toBe(0);
      expect(JSON.parse(erased.stdout)).toEqual({ id, erased_at: expect.any(String) });
      const again = await runAdminInProcess(deps, kind, 'erase', '--workspace', ws(), '--id', id);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain(`inconnu dans cet espace : ${id}`);
    }
    expect(await item(keys.prospect(ws(), prospect))).toBeUndefined();
    expect(await item(keys.candidate(ws(), candidate))).toBeUndefined();
    const audit = (await asAdmin('GET', '/audit')).body as { entries: Record<string, unknown>[] };
    for (const [action, id] of [
      ['prospect.erased', prospect],
      ['candidate.erased', candidate],
    ])
      expect(audit.entries.find((entry) => entry.target_id === id)).toMatchObject({ action, member_id: null });
  });
});
