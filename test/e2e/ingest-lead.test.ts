import { productionDeps } from '../../lib/storage/client';
import { webhookStatus } from '../../lib/settings/webhook-status';
import { regenerateWebhook, setWebhookActive } from '../../lib/settings/webhooks';
import { seedWorkspace, type SeedOutput } from '../../tools/seed/seed';
import { showProspect } from '../../lib/settings/prospects';
import { startTestApi, type TestApi } from '../support/local-api';
import { aSalesPipeline } from '../support/seed';

const deps = productionDeps();
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const salesWorkspace = {
  workspace: { name: 'Leads' },
  tags: [
    { key: 'vip', name: 'VIP' },
    { key: 'hot', name: 'Chaud' },
  ],
  pipelines: [
    aSalesPipeline(),
    {
      key: 'coaching',
      name: 'Coaching',
      active: true,
      stages: [
        { key: 'disc', name: 'Découverte', type: 'Appointment Setting' },
        { key: 'call', name: 'Appel', type: 'Follow up' },
      ],
    },
  ],
  api_keys: [{ key: 'zapier', name: 'Zapier', scopes: ['*'] }],
  webhook: { active: true },
};

async function seeded(
  description: object = salesWorkspace,
): Promise<SeedOutput & { webhook: { endpoint_id: string; token: string } }> {
  const output = await seedWorkspace(deps, description);
  if (!output.webhook) throw new Error('seed without webhook');
  return output as SeedOutput & { webhook: { endpoint_id: string; token: string } };
}

const ingest = (
  endpointId: string | undefined,
  options: { token?: string; headers?: Record<string, string>; body?: unknown; query?: Record<string, string> } = {},
) =>
  api.request('POST', '/webhooks/ingest-lead', {
    query: { ...(endpointId === undefined ? {} : { endpoint_id: endpointId }), ...options.query },
    headers: { ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}), ...options.headers },
    body: options.body ?? {},
  });

const leadOf = (ws: { webhook: { endpoint_id: string; token: string } }, body: unknown) =>
  ingest(ws.webhook.endpoint_id, { token: ws.webhook.token, body });

describe('POST /webhooks/ingest-lead: errors in check order', () => {
  let ws: Awaited<ReturnType<typeof seeded>>;
  beforeAll(async () => {
    ws = await seeded();
  });

  it('answers 404 not_found without endpoint_id, before anything else', async () => {
    const response = await ingest(undefined, { body: 'not json' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'not_found', message: expect.any(String) });
  });

  it('answers 400 invalid_endpoint_id for an endpoint_id that is not a UUID', async () => {
    const response = await ingest('abc', { token: ws.webhook.token });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_endpoint_id', message: expect.any(String) });
  });

  it('answers 401 unauthorized for an unknown endpoint, a missing or a wrong token', async () => {
    for (const response of [
      await ingest('6b1f7a52-33a4-4a8e-8a7e-0d4f3b6c9e10', { token: ws.webhook.token, body: { email: 'a@b.fr' } }),
      await ingest(ws.webhook.endpoint_id, { body: { email: 'a@b.fr' } }),
      await ingest(ws.webhook.endpoint_id, { token: 'wrong', body: { email: 'a@b.fr' } }),
    ]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
    }
  });

  it('answers 400 invalid_payload for a body that is not an object or has no contact', async () => {
    for (const body of ['not json', '[1,2]', '', 'null', { first_name: 'Léa' }, { email: 'pas-une-adresse' }]) {
      const response = await leadOf(ws, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_payload', message: expect.any(String) });
    }
  });
});

describe('webhook token places and lifecycle', () => {
  const body = { email: 'token@test.fr' };

  it('accepts the token in Authorization: Bearer, x-webhook-token or ?token=', async () => {
    const ws = await seeded();
    const id = ws.webhook.endpoint_id;
    const token = ws.webhook.token;
    expect((await ingest(id, { token, body })).status).toBe(200);
    expect((await ingest(id, { headers: { 'X-Webhook-Token': token }, body })).status).toBe(200);
    expect((await ingest(id, { query: { token }, body })).status).toBe(200);
    expect((await ingest(id, { headers: { Authorization: 'Basic dTpw' }, query: { token }, body })).status).toBe(200);
  });

  it('does not read ?token= once a header carries a token, even a wrong one', async () => {
    const ws = await seeded();
    const id = ws.webhook.endpoint_id;
    const right = ws.webhook.token;
    expect((await ingest(id, { token: 'wrong', query: { token: right }, body })).status).toBe(401);
    expect((await ingest(id, { headers: { 'x-webhook-token': 'wrong' }, query: { token: right }, body })).status).toBe(
      401,
    );
    expect((await ingest(id, { token: 'wrong', headers: { 'x-webhook-token': right }, body })).status).toBe(401);
  });

  it('refuses the old token on the very next call after a regeneration, and a disabled webhook', async () => {
    const ws = await seeded();
    const id = ws.webhook.endpoint_id;
    const fresh = await regenerateWebhook(deps, ws.workspace_id, 'http://x');
    expect((await ingest(id, { token: ws.webhook.token, body })).status).toBe(401);
    expect((await ingest(id, { token: fresh.token, body })).status).toBe(200);
    await setWebhookActive(deps, ws.workspace_id, false, 'http://x');
    expect((await ingest(id, { token: fresh.token, body })).status).toBe(401);
    await setWebhookActive(deps, ws.workspace_id, true, 'http://x');
    expect((await ingest(id, { token: fresh.token, body })).status).toBe(200);
  });

  it('opens no Prospect API route with a webhook token', async () => {
    const ws = await seeded();
    const response = await api.request('GET', '/pipelines', {
      headers: { Authorization: `Bearer ${ws.webhook.token}` },
    });
    expect(response.status).toBe(401);
  });

  it('records the last call received on every authenticated call, even a refused body', async () => {
    const ws = await seeded();
    expect((await webhookStatus(deps, ws.workspace_id, 'http://x')).last_call_at).toBeNull();
    await ingest(ws.webhook.endpoint_id, { token: 'wrong', body });
    expect((await webhookStatus(deps, ws.workspace_id, 'http://x')).last_call_at).toBeNull();
    expect((await leadOf(ws, 'not json')).status).toBe(400);
    expect((await webhookStatus(deps, ws.workspace_id, 'http://x')).last_call_at).toEqual(expect.any(String));
  });
});

describe('bodies read by the service', () => {
  let ws: Awaited<ReturnType<typeof seeded>>;
  beforeAll(async () => {
    ws = await seeded();
  });

  it('reads JSON whatever the Content-Type says', async () => {
    const response = await ingest(ws.webhook.endpoint_id, {
      token: ws.webhook.token,
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ email: 'plain@test.fr' }),
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'created' });
  });

  it('reads a form-encoded body as a flat object, tag_ids repeated or comma-separated', async () => {
    const vip = ws.tags.vip as string;
    const hot = ws.tags.hot as string;
    const form = new URLSearchParams([
      ['email', 'form@test.fr'],
      ['first_name', 'Zoé'],
      ['tag_ids', vip],
      ['tag_ids', `${hot},${vip}`],
    ]).toString();
    const response = await ingest(ws.webhook.endpoint_id, {
      token: ws.webhook.token,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'created',
      tags_applied: [
        { id: vip, name: 'VIP' },
        { id: hot, name: 'Chaud' },
      ],
      warnings: [],
    });
  });

  it('refuses a body over 256 KB with invalid_payload', async () => {
    const response = await leadOf(ws, { email: 'big@test.fr', first_name: 'x'.repeat(300 * 1024) });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_payload' });
  });
});

describe('new contacts: placements', () => {
  it('answers demande, defaut and warnings as the placement rules say', async () => {
    const ws = await seeded();
    const sales = ws.pipelines.sales as { id: string; stages: Record<string, string> };
    const coaching = ws.pipelines.coaching as { id: string; stages: Record<string, string> };

    const asked = await leadOf(ws, { email: 'p1@test.fr', pipeline: 'coaching', stage: 'APPEL' });
    expect(asked.body).toEqual({
      status: 'created',
      prospect_id: expect.any(String),
      pipeline_id: coaching.id,
      stage_id: coaching.stages.call,
      placement: 'demande',
      tags_applied: [],
      warnings: [],
    });

    const byDefault = await leadOf(ws, { email: 'p2@test.fr' });
    expect(byDefault.body).toMatchObject({ placement: 'defaut', pipeline_id: sales.id, stage_id: sales.stages.new });

    const misspelt = await leadOf(ws, { email: 'p3@test.fr', pipeline: 'Coaching', stage: 'Apel' });
    expect(misspelt.body).toMatchObject({ placement: 'defaut', pipeline_id: sales.id, stage_id: sales.stages.new });
    expect((misspelt.body as { warnings: string[] }).warnings).toEqual([
      expect.stringContaining('« Apel » introuvable'),
    ]);

    const byId = await leadOf(ws, { email: 'p4@test.fr', pipeline: coaching.id });
    expect(byId.body).toMatchObject({ placement: 'demande', stage_id: coaching.stages.disc });
  });

  it('answers aucun in a workspace without pipeline', async () => {
    const ws = await seeded({ workspace: { name: 'Vide' }, webhook: { active: true } });
    const response = await leadOf(ws, { email: 'alone@test.fr' });
    expect(response.body).toMatchObject({ status: 'created', placement: 'aucun', pipeline_id: null, stage_id: null });
  });
});

describe('known contacts', () => {
  it('finds a contact by e-mail ignoring case: names replaced, source kept, not moved', async () => {
    const ws = await seeded();
    const first = await leadOf(ws, { email: 'Marie@Test.fr', first_name: 'Marie', source: 'Typeform' });
    const again = await leadOf(ws, {
      email: 'marie@test.FR',
      first_name: 'Marie-Anne',
      last_name: 'Durand',
      source: 'Zapier',
      pipeline: 'Coaching',
      tag_ids: [ws.tags.vip],
    });
    const created = first.body as { prospect_id: string; pipeline_id: string; stage_id: string };
    expect(again.body).toEqual({
      status: 'existing',
      prospect_id: created.prospect_id,
      pipeline_id: created.pipeline_id,
      stage_id: created.stage_id,
      placement: 'existant',
      tags_applied: [{ id: ws.tags.vip, name: 'VIP' }],
      warnings: ["Contact déjà connu : le prospect n'a pas été déplacé dans le pipeline."],
    });
    const { prospect, tags } = await showProspect(deps, {
      workspaceId: ws.workspace_id,
      prospectId: created.prospect_id,
    });
    expect(prospect).toMatchObject({
      first_name: 'Marie-Anne',
      last_name: 'Durand',
      email: 'marie@test.FR',
      source: 'Typeform',
      version: 2,
    });
    expect(tags).toEqual([{ id: ws.tags.vip, name: 'VIP' }]);
  });

  it('finds a contact by exact phone and takes over its new e-mail', async () => {
    const ws = await seeded();
    const first = (await leadOf(ws, { phone: '+33612345678', email: 'old@test.fr' })).body as { prospect_id: string };
    const again = await leadOf(ws, { phone: '+33612345678', email: 'new@test.fr' });
    expect(again.body).toMatchObject({ status: 'existing', prospect_id: first.prospect_id });
    const byNewEmail = await leadOf(ws, { email: 'NEW@test.fr' });
    expect(byNewEmail.body).toMatchObject({ status: 'existing', prospect_id: first.prospect_id });
    const byOldEmail = await leadOf(ws, { email: 'old@test.fr' });
    expect(byOldEmail.body).toMatchObject({ status: 'created' });
  });

  it('does not resend a social-only lead as a duplicate', async () => {
    const ws = await seeded();
    const first = (await leadOf(ws, { social_url: 'https://linkedin.com/in/lea' })).body as { prospect_id: string };
    expect((await leadOf(ws, { social_url: 'https://linkedin.com/in/lea' })).body).toMatchObject({
      status: 'existing',
      prospect_id: first.prospect_id,
    });
  });

  it('leaves both records intact when the sent phone belongs to another prospect', async () => {
    const ws = await seeded();
    const a = (await leadOf(ws, { email: 'a@test.fr', phone: '111' })).body as { prospect_id: string };
    const b = (await leadOf(ws, { email: 'b@test.fr', phone: '222' })).body as { prospect_id: string };
    const response = await leadOf(ws, { email: 'a@test.fr', phone: '222' });
    expect(response.body).toMatchObject({ status: 'existing', prospect_id: a.prospect_id });
    expect((response.body as { warnings: string[] }).warnings).toContain(
      "Le numéro de téléphone envoyé appartient déjà à un autre prospect : il n'a pas été appliqué.",
    );
    const shownA = await showProspect(deps, { workspaceId: ws.workspace_id, prospectId: a.prospect_id });
    const shownB = await showProspect(deps, { workspaceId: ws.workspace_id, prospectId: b.prospect_id });
    expect(shownA.prospect.phone).toBe('111');
    expect(shownB.prospect.phone).toBe('222');
  });
});

describe('tags and ignored fields', () => {
  it('applies known tag ids, names unknown ones and every ignored field in warnings', async () => {
    const ws = await seeded();
    const unknownTag = '0b0e3f36-9a51-4bd0-9c43-6f1c55f6f0aa';
    const response = await leadOf(ws, {
      email: 'tags@test.fr',
      tag_ids: [ws.tags.vip, unknownTag, ws.tags.vip],
      tags: ['VIP'],
      company: 'Acme',
      phone: 33612,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ tags_applied: [{ id: ws.tags.vip, name: 'VIP' }] });
    const warnings = (response.body as { warnings: string[] }).warnings;
    expect(warnings).toEqual(
      expect.arrayContaining([
        `Tag introuvable ignoré : « ${unknownTag} ».`,
        'Le champ « tags » est ignoré : utilisez « tag_ids » avec les identifiants des tags.',
        'Champ inconnu ignoré : « company ».',
        'Champ « phone » ignoré : une chaîne de caractères est attendue.',
      ]),
    );
    expect(warnings).toHaveLength(4);
  });
});

describe('no duplicate under concurrency', () => {
  it('creates one record for 50 identical calls at once', async () => {
    const ws = await seeded();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => leadOf(ws, { email: 'rush@test.fr', phone: '+33700000000' })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    const bodies = responses.map((response) => response.body as { status: string; prospect_id: string });
    expect(bodies.filter((body) => body.status === 'created')).toHaveLength(1);
    expect(new Set(bodies.map((body) => body.prospect_id)).size).toBe(1);
  });

  it.each([
    ['an e-mail', { email: 'shared@test.fr', phone: '+331' }, { email: 'SHARED@test.fr', phone: '+332' }],
    ['a phone', { email: 'one@test.fr', phone: '+339' }, { email: 'two@test.fr', phone: '+339' }],
  ])('creates one record for calls sharing %s', async (_label, first, second) => {
    const ws = await seeded();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => leadOf(ws, index % 2 === 0 ? first : second)),
    );
    const bodies = responses.map((response) => response.body as { status: string; prospect_id: string });
    expect(bodies.filter((body) => body.status === 'created')).toHaveLength(1);
    expect(new Set(bodies.map((body) => body.prospect_id)).size).toBe(1);
  });
});
