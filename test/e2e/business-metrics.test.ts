import { randomUUID } from 'node:crypto';
import type { SeedOutput } from '../../tools/seed/seed';
import { undoChangeLogEntry } from '../../lib/settings/changelog-undo';
import { showProspect } from '../../lib/settings/prospects';
import { productionDeps } from '../../lib/storage/client';
import { startTestApi, type TestApi } from '../support/local-api';
import { recordingMetrics } from '../support/recording-metrics';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/**
 * Every business metric (lib/observability.ts) over the local API, counted into a recorder in
 * its Deps: each as often as it happened, with its dimension, and nothing else. Rate limits and
 * idempotency keys are per minute and per key: the clock is injected, and the limits get keys of their own.
 */

const deps = productionDeps();
const metrics = recordingMetrics();
let now = new Date('2026-11-23T08:00:05.000Z');
let api: TestApi;
let ws: SeedOutput & { webhook: { endpoint_id: string; token: string } };

beforeAll(async () => {
  ws = (await seedTestWorkspace(
    aWorkspace({
      api_keys: [
        { key: 'admin', name: 'Zapier', scopes: ['*'] },
        { key: 'busy', name: 'Robot', scopes: ['*'] },
        { key: 'mover', name: 'Déplaceur', scopes: ['*'] },
      ],
    }),
  )) as typeof ws;
  api = await startTestApi({ metrics, clock: () => now });
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});
beforeEach(() => metrics.clear());

/** What was counted: `Metric` or `Metric{dimension=value}` → total. */
function counted(): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const { metric, dimensions, value } of metrics.counts) {
    const named = Object.entries(dimensions).map(([name, dimension]) => `${name}=${dimension}`);
    const key = named.length === 0 ? metric : `${metric}{${named.join(',')}}`;
    totals[key] = (totals[key] ?? 0) + value;
  }
  return totals;
}

const auth = (key = 'admin') => ({ Authorization: `Bearer ${ws.api_keys[key]?.secret}` });
const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, key = 'admin') =>
  api.request(method, path, { headers: { ...auth(key), ...headers }, body });

const lead = (body: unknown, options: { token?: string; endpointId?: string; headers?: Record<string, string> } = {}) =>
  api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: options.endpointId ?? ws.webhook.endpoint_id },
    headers: { Authorization: `Bearer ${options.token ?? ws.webhook.token}`, ...options.headers },
    body,
  });
const apply = (body: unknown, options: { token?: string; endpointId?: string } = {}) =>
  api.request('POST', '/webhooks/recruitment', {
    query: { endpoint_id: options.endpointId ?? ws.webhook.endpoint_id },
    headers: { 'x-webhook-token': options.token ?? ws.webhook.token },
    body,
  });

const newEmail = () => `${randomUUID()}@metrics.test`;
const warningsOf = (response: { body: unknown }) => (response.body as { warnings: string[] }).warnings;

async function aProspect(): Promise<string> {
  const response = await lead({ email: newEmail() });
  expect(response.status).toBe(200);
  metrics.clear();
  return (response.body as { prospect_id: string }).prospect_id;
}

describe('lead webhook', () => {
  it('counts created and existing leads, their placements, and one LeadWarnings per warning', async () => {
    const plain = await lead({ email: newEmail() });
    const asked = await lead({ email: newEmail(), pipeline: 'Partenaires', stage: 'Premier contact' });
    const withIgnored = await lead({ email: newEmail(), couleur: 'bleu', taille: 'XL', tag_ids: ['inconnu'] });
    const known = await lead({ email: 'LEA.PETIT@acme.test', first_name: 'Léa 👩‍💻' });
    expect([plain, asked, withIgnored, known].map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(known.body).toMatchObject({ status: 'existing', placement: 'existant' });
    expect(warningsOf(plain)).toEqual([]);
    expect(warningsOf(withIgnored).length).toBeGreaterThanOrEqual(2);
    expect(counted()).toEqual({
      LeadsCreated: 3,
      LeadsExisting: 1,
      'LeadPlacements{placement=defaut}': 2,
      'LeadPlacements{placement=demande}': 1,
      'LeadPlacements{placement=existant}': 1,
      LeadWarnings: warningsOf(withIgnored).length + warningsOf(known).length,
    });
  });

  it('counts refusals by the code answered, unknown, missing and malformed endpoints included', async () => {
    const answers = [
      await lead({ email: newEmail() }, { token: 'faux' }),
      await lead('pas du JSON'),
      await lead({ first_name: 'Sans contact' }),
      await lead({ email: newEmail() }, { endpointId: randomUUID() }),
      await lead({ email: newEmail() }, { endpointId: 'pas-un-uuid' }),
      await api.request('POST', '/webhooks/ingest-lead', { body: { email: newEmail() } }),
    ];
    expect(answers.map((response) => response.status)).toEqual([401, 400, 400, 401, 400, 404]);
    expect(counted()).toEqual({
      'LeadsRefused{code=unauthorized}': 2,
      'LeadsRefused{code=invalid_payload}': 2,
      'LeadsRefused{code=invalid_endpoint_id}': 1,
      'LeadsRefused{code=not_found}': 1,
    });
  });
});

describe('recruitment webhook', () => {
  it('counts candidates created and existing, and refusals by code', async () => {
    const email = newEmail();
    expect((await apply({ email, name: 'Camille Dupont' })).body).toMatchObject({ action: 'created' });
    expect((await apply({ email: email.toUpperCase(), name: 'Camille Dupont' })).body).toMatchObject({
      action: 'existing',
    });
    const refusals = [
      await apply({ email: newEmail(), name: 'A' }, { token: 'faux' }),
      await apply({ name: 'Sans e-mail' }),
      await apply({ email: newEmail(), name: 'A' }, { endpointId: randomUUID() }),
      await apply({ email: newEmail(), name: 'A' }, { endpointId: 'pas-un-uuid' }),
    ];
    expect(refusals.map((response) => response.status)).toEqual([401, 400, 404, 400]);
    expect(counted()).toEqual({
      CandidatesCreated: 1,
      CandidatesExisting: 1,
      'CandidatesRefused{code=unauthorized}': 1,
      'CandidatesRefused{code=bad_request}': 2,
      'CandidatesRefused{code=not_found}': 1,
    });
  });
});

describe('Prospect API changes', () => {
  it('counts each field written, and nothing for a change that changes nothing or is refused', async () => {
    const id = await aProspect();
    const patch = { stage: 'Relance', setter_id: ws.members.alice, follow_up_at: '2026-12-01T10:00:00Z' };
    expect((await call('PATCH', `/prospects/${id}`, patch)).status).toBe(200);
    expect(counted()).toEqual({
      'ProspectChanges{field=stage}': 1,
      'ProspectChanges{field=setter}': 1,
      'ProspectChanges{field=follow_up}': 1,
    });

    metrics.clear();
    expect((await call('PATCH', `/prospects/${id}`, patch)).status).toBe(200);
    expect((await call('PATCH', `/prospects/${id}`, { stage: 'Relance', closer_id: ws.members.bob })).status).toBe(200);
    expect(counted()).toEqual({ 'ProspectChanges{field=closer}': 1 });

    metrics.clear();
    expect((await call('POST', `/prospects/${id}/tags`, { tag: 'VIP' })).status).toBe(201);
    expect((await call('POST', `/prospects/${id}/tags`, { tag: ws.tags.vip })).status).toBe(200);
    expect((await call('DELETE', `/prospects/${id}/tags/${ws.tags.vip}`)).status).toBe(200);
    expect((await call('DELETE', `/prospects/${id}/tags/${ws.tags.vip}`)).status).toBe(200);
    expect((await call('POST', `/prospects/${id}/notes`, { content: 'Rappeler 📞 lundi' })).status).toBe(201);
    expect((await call('POST', `/prospects/${id}/notes`, { content: '   ' })).status).toBe(400);
    expect((await call('PATCH', `/prospects/${id}`, { stage: 'Inconnue' })).status).toBe(422);
    expect((await call('PATCH', `/prospects/${randomUUID()}`, { stage: 'Relance' })).status).toBe(404);
    expect(counted()).toEqual({ 'ProspectChanges{field=tags}': 2, 'ProspectChanges{field=note}': 1 });
  });

  it('does not count an undo from the admin tool, even with the same metrics', async () => {
    const id = await aProspect();
    expect((await call('PATCH', `/prospects/${id}`, { stage: 'Relance' })).status).toBe(200);
    metrics.clear();
    const entryId = (await showProspect(deps, { workspaceId: ws.workspace_id, prospectId: id })).changelog[0]?.id;
    await undoChangeLogEntry({ ...deps, metrics }, { workspaceId: ws.workspace_id, entryId: entryId as string });
    expect((await showProspect(deps, { workspaceId: ws.workspace_id, prospectId: id })).prospect).toMatchObject({
      stage_id: ws.pipelines.sales?.stages.new,
    });
    expect(metrics.counts).toEqual([]);
  });
});

describe('rate limits', () => {
  it('counts a 429 of the request limit once per refusal', async () => {
    now = new Date('2026-11-23T08:10:05.000Z');
    const served = await Promise.all(
      Array.from({ length: 120 }, () => call('GET', '/pipelines', undefined, {}, 'busy')),
    );
    expect(served.every((response) => response.status === 200)).toBe(true);
    expect((await call('GET', '/pipelines', undefined, {}, 'busy')).status).toBe(429);
    expect((await call('PATCH', `/prospects/${ws.prospects.lead}`, { stage: 'Nouveau' }, {}, 'busy')).status).toBe(429);
    expect(counted()).toEqual({ 'RateLimited{limit=requests}': 2 });
  });

  it('counts a 429 of the stage-change limit by its limit; the no-op PATCHes before count no change', async () => {
    now = new Date('2026-11-23T08:20:05.000Z');
    const patch = () => call('PATCH', `/prospects/${ws.prospects.lead}`, { stage: 'Nouveau' }, {}, 'mover');
    const served = await Promise.all(Array.from({ length: 30 }, patch));
    expect(served.every((response) => response.status === 200)).toBe(true);
    const refused = await patch();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-limit')).toBe('30');
    expect((await call('GET', '/pipelines', undefined, {}, 'mover')).status).toBe(200);
    expect(counted()).toEqual({ 'RateLimited{limit=stage_changes}': 1 });
  });
});

describe('idempotent replays', () => {
  it('counts a replayed answer, not a second change, lead or refusal of its use case', async () => {
    const id = await aProspect();
    const noteKey = { 'Idempotency-Key': randomUUID() };
    const note = () => call('POST', `/prospects/${id}/notes`, { content: 'Une seule fois' }, noteKey);
    const first = await note();
    const again = await note();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(counted()).toEqual({ 'ProspectChanges{field=note}': 1, IdempotentReplays: 1 });

    metrics.clear();
    const key = { 'Idempotency-Key': randomUUID() };
    const body = { email: newEmail() };
    const created = await lead(body, { headers: key });
    expect((await lead(body, { headers: key })).body).toEqual(created.body);
    expect(counted()).toEqual({ LeadsCreated: 1, 'LeadPlacements{placement=defaut}': 1, IdempotentReplays: 1 });

    // A refusal replayed is answered again, so counted again (and as a replay).
    metrics.clear();
    const refusedKey = { 'Idempotency-Key': randomUUID() };
    expect((await lead({ first_name: 'Sans contact' }, { headers: refusedKey })).status).toBe(400);
    expect((await lead({ first_name: 'Sans contact' }, { headers: refusedKey })).status).toBe(400);
    expect(counted()).toEqual({ 'LeadsRefused{code=invalid_payload}': 2, IdempotentReplays: 1 });
  });
});
