import { randomUUID } from 'node:crypto';
import { setWebhookActive } from '../../lib/settings/webhooks';
import { listWebhookCalls } from '../../lib/storage/webhook-call-list';
import type { WebhookCallItem } from '../../lib/storage/table-items';
import { aWorkspace } from '../support/seed';
import { useSeededApi } from '../support/seeded-api';

/**
 * docs/api.md#webhook-call-journal: every call of either webhook naming a known endpoint is journaled, failed ones
 * included.
 */
const world = useSeededApi();

const endpoint = () => world.ws.webhook?.endpoint_id as string;
const token = () => world.ws.webhook?.token as string;

const send = (path: string, body: unknown, headers: Record<string, string> = {}, query: Record<string, string> = {}) =>
  world.api.request('POST', path, {
    query: { endpoint_id: endpoint(), ...query },
    headers: { Authorization: `Bearer ${token()}`, ...headers },
    body,
  });

/** The journal's newest entries, strongly consistent (the call's own write, or its one write, has landed). */
const latest = async (count = 1): Promise<WebhookCallItem[]> =>
  listWebhookCalls(world.deps, world.ws.workspace_id, { failed: false, limit: count, now: new Date() });

describe('the webhook call journal', () => {
  it('journals a new lead with its outcome, in the transaction that creates it: no body kept', async () => {
    const response = await send('/webhooks/ingest-lead', { email: `${randomUUID()}@journal.test`, couleur: 'bleu' });
    expect(response.status).toBe(200);
    const answer = response.body as {
      prospect_id: string;
      placement: string;
      pipeline_id: string;
      stage_id: string;
      warnings: string[];
    };
    const [entry] = await latest();
    expect(entry).toMatchObject({
      route: 'ingest-lead',
      status: 200,
      outcome: 'created',
      record_id: answer.prospect_id,
      placement: answer.placement,
      pipeline_id: answer.pipeline_id,
      stage_id: answer.stage_id,
      warnings: answer.warnings,
      endpoint_id: endpoint(),
    });
    expect(entry?.message).toBeUndefined();
    expect(entry?.body).toBeUndefined();
    expect(entry?.request_id).toEqual(expect.any(String));
    expect(entry?.request_id).toBe(response.headers.get('x-request-id'));
    // Kept 30 days: DynamoDB's TTL removes it then.
    expect((entry?.expires_at ?? 0) - Math.floor(Date.parse(entry?.at ?? '') / 1000)).toBe(30 * 24 * 3600);
  });

  it('journals a known lead as existing, also when its placement changed since its marker was written', async () => {
    const email = `${randomUUID()}@journal.test`;
    const id = await world.aProspect({ email });
    const moved = await world.call('PATCH', `/prospects/${id}`, { stage: 'Relance' });
    const stageId = (moved.body as { stage_id: string }).stage_id;
    for (let time = 0; time < 2; time += 1) {
      const response = await send('/webhooks/ingest-lead', { email, first_name: 'Léa' });
      expect(response.body).toMatchObject({ status: 'existing', prospect_id: id, stage_id: stageId });
      const [entry] = await latest();
      expect(entry).toMatchObject({ status: 200, outcome: 'existing', record_id: id, placement: 'existant' });
    }
  });

  it('journals a known lead of a workspace without a sales pipeline (a placement of nulls)', async () => {
    const bare = await (
      await import('../support/seed')
    ).seedTestWorkspace({
      ...aWorkspace(),
      pipelines: [],
      prospects: [],
    });
    const call = (body: object) =>
      world.api.request('POST', '/webhooks/ingest-lead', {
        query: { endpoint_id: bare.webhook?.endpoint_id as string },
        headers: { Authorization: `Bearer ${bare.webhook?.token}` },
        body,
      });
    const email = `${randomUUID()}@journal.test`;
    expect((await call({ email })).body).toMatchObject({ status: 'created', pipeline_id: null, stage_id: null });
    expect((await call({ email })).body).toMatchObject({ status: 'existing', pipeline_id: null, stage_id: null });
    const calls = await listWebhookCalls(world.deps, bare.workspace_id, { failed: false, limit: 5, now: new Date() });
    expect(calls.map((entry) => entry.outcome)).toEqual(['existing', 'created']);
  });

  it('keeps the body of an authenticated call that failed, as received (form-encoded too)', async () => {
    const json = await send('/webhooks/ingest-lead', { first_name: 'Sans contact' });
    expect(json.status).toBe(400);
    const [jsonEntry] = await latest();
    expect(jsonEntry).toMatchObject({ status: 400, outcome: 'invalid_payload', record_id: null, warnings: [] });
    expect(JSON.parse(jsonEntry?.body ?? '')).toEqual({ first_name: 'Sans contact' });

    const form = await world.api.request('POST', '/webhooks/recruitment', {
      query: { endpoint_id: endpoint() },
      headers: { Authorization: `Bearer ${token()}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'email=pas-une-adresse&name=Camille',
    });
    expect(form.status).toBe(400);
    const [formEntry] = await latest();
    expect(formEntry).toMatchObject({
      route: 'recruitment',
      status: 400,
      outcome: 'bad_request',
      body: 'email=pas-une-adresse&name=Camille',
      content_type: 'application/x-www-form-urlencoded',
    });
  });

  it('journals a refused token and a disabled webhook without storing anything the caller sent', async () => {
    const secret = `secret-${randomUUID()}`;
    const refused = await world.api.request('POST', '/webhooks/ingest-lead', {
      query: { endpoint_id: endpoint() },
      headers: { Authorization: 'Bearer not-the-token' },
      body: { email: `${secret}@journal.test`, first_name: secret },
    });
    expect(refused.status).toBe(401);
    const [entry] = await latest();
    expect(entry).toMatchObject({
      status: 401,
      outcome: 'unauthorized',
      record_id: null,
      placement: null,
      warnings: [],
      // The refusal as its sender read it, which names nothing the call sent.
      message: (refused.body as { message: string }).message,
    });
    expect(entry?.message).toEqual(expect.stringMatching(/\S/));
    expect(entry?.body).toBeUndefined();
    expect(JSON.stringify(entry)).not.toContain(secret);

    await setWebhookActive(world.deps, world.ws.workspace_id, false, 'http://crm.test');
    try {
      const disabled = await send('/webhooks/recruitment', { email: `${secret}@journal.test`, name: secret });
      expect(disabled.status).toBe(401);
      const [disabledEntry] = await latest();
      expect(disabledEntry).toMatchObject({ route: 'recruitment', status: 401, outcome: 'unauthorized' });
      expect(JSON.stringify(disabledEntry)).not.toContain(secret);
    } finally {
      await setWebhookActive(world.deps, world.ws.workspace_id, true, 'http://crm.test');
    }
  });

  it('journals nothing for an endpoint that designates nobody (there is no workspace to journal it in)', async () => {
    const before = await latest(1);
    const response = await world.api.request('POST', '/webhooks/ingest-lead', {
      query: { endpoint_id: randomUUID() },
      headers: { Authorization: `Bearer ${token()}` },
      body: { email: 'x@journal.test' },
    });
    expect(response.status).toBe(401);
    expect(await latest(1)).toEqual(before);
  });

  it('journals candidates, new and known, and a replayed answer as a call of its own', async () => {
    const email = `${randomUUID()}@journal.test`;
    const created = await send('/webhooks/recruitment', { email, name: 'Camille Martin', answers: { Q: 'R' } });
    const talent = (created.body as { talent_id: string }).talent_id;
    await send('/webhooks/recruitment', { email, name: 'Camille Martin' });
    const key = randomUUID();
    const first = await send('/webhooks/ingest-lead', { email }, { 'Idempotency-Key': key });
    const replay = await send('/webhooks/ingest-lead', { email }, { 'Idempotency-Key': key });
    expect(replay.body).toEqual(first.body);
    const entries = await latest(4);
    expect(entries.map((entry) => [entry.route, entry.outcome, entry.status])).toEqual([
      ['ingest-lead', 'created', 200],
      ['ingest-lead', 'created', 200],
      ['recruitment', 'existing', 200],
      ['recruitment', 'created', 200],
    ]);
    expect(entries[3]?.record_id).toBe(talent);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(4);
    // The replay says what the first call's entry said, kept with the answer it replays.
    const said = (entry: WebhookCallItem | undefined) => entry && [entry.record_id, entry.placement, entry.warnings];
    expect(said(entries[0])).toEqual(said(entries[1]));
    expect(entries[0]?.record_id).toBe((first.body as { prospect_id: string }).prospect_id);
  });

  it('journals a replayed refusal with its code and the body it was sent again', async () => {
    const key = randomUUID();
    const first = await send('/webhooks/recruitment', { name: 'Sans e-mail' }, { 'Idempotency-Key': key });
    const replay = await send('/webhooks/recruitment', { name: 'Sans e-mail' }, { 'Idempotency-Key': key });
    expect([first.status, replay.status]).toEqual([400, 400]);
    expect(replay.body).toEqual(first.body);
    const entries = await latest(2);
    for (const entry of entries) {
      expect(entry).toMatchObject({ route: 'recruitment', status: 400, outcome: 'bad_request', record_id: null });
      expect(JSON.parse(entry.body ?? '')).toEqual({ name: 'Sans e-mail' });
    }
  });

  it('lists newest first, and only the failed ones when asked', async () => {
    await send('/webhooks/ingest-lead', { email: `${randomUUID()}@journal.test` });
    await send('/webhooks/ingest-lead', { nothing: true });
    const entries = await latest(10);
    const times = entries.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
    const failed = await listWebhookCalls(world.deps, world.ws.workspace_id, {
      failed: true,
      limit: 3,
      now: new Date(),
    });
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((entry) => entry.status >= 400)).toBe(true);
    expect(failed[0]?.outcome).toBe('invalid_payload');
  });
});
