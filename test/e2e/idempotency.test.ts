import { randomUUID } from 'node:crypto';
import { showProspect } from '../../lib/settings/prospects';
import type { SeedOutput } from '../../tools/seed/seed';
import { productionDeps } from '../../lib/storage/client';
import { startTestApi, type TestApi } from '../support/local-api';
import { seedTestWorkspace } from '../support/seed';

const deps = productionDeps();
let api: TestApi;
let ws: SeedOutput;

beforeAll(async () => {
  ws = await seedTestWorkspace();
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const apiCall = (method: string, path: string, body: unknown, idempotencyKey: string, key = 'admin') =>
  api.request(method, path, {
    headers: { Authorization: `Bearer ${ws.api_keys[key]?.secret}`, 'Idempotency-Key': idempotencyKey },
    body,
  });
const webhook = (path: string, body: unknown, idempotencyKey?: string) =>
  api.request('POST', path, {
    query: { endpoint_id: ws.webhook?.endpoint_id as string },
    headers: {
      Authorization: `Bearer ${ws.webhook?.token}`,
      ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
    },
    body,
  });

describe('Idempotency-Key', () => {
  it('replays the first answer of a note for the same key and body, writing nothing again', async () => {
    const prospect = ws.prospects.lead as string;
    const key = randomUUID();
    const first = await apiCall('POST', `/prospects/${prospect}/notes`, { content: 'Une seule fois' }, key);
    const again = await apiCall('POST', `/prospects/${prospect}/notes`, { content: 'Une seule fois' }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const notes = (await showProspect(deps, { workspaceId: ws.workspace_id, prospectId: prospect })).notes;
    expect(notes.filter((note) => note.content === 'Une seule fois')).toHaveLength(1);
  });

  it('refuses the same key with another body: 422 on the API, 400 on the webhooks, naming the header', async () => {
    const key = randomUUID();
    const prospect = ws.prospects.lead as string;
    await apiCall('POST', `/prospects/${prospect}/notes`, { content: 'A' }, key);
    const other = await apiCall('POST', `/prospects/${prospect}/notes`, { content: 'B' }, key);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      error: {
        code: 'unprocessable',
        message: expect.any(String),
        details: { field: 'Idempotency-Key', message: expect.any(String) },
      },
    });

    await webhook('/webhooks/ingest-lead', { email: 'idem@test.fr' }, key);
    const lead = await webhook('/webhooks/ingest-lead', { email: 'idem2@test.fr' }, key);
    expect(lead.status).toBe(400);
    expect(lead.body).toEqual({ error: 'invalid_payload', message: expect.any(String) });

    await webhook('/webhooks/recruitment', { email: 'idem@test.fr', name: 'A' }, key);
    const application = await webhook('/webhooks/recruitment', { email: 'idem@test.fr', name: 'B' }, key);
    expect(application.status).toBe(400);
    expect(application.body).toMatchObject({ error: { code: 'bad_request', details: { field: 'Idempotency-Key' } } });
  });

  it("refuses a key reused on another route, prospect or tag, never replaying another resource's answer", async () => {
    const key = randomUUID();
    const prospect = ws.prospects.lead as string;
    const other = ws.prospects.social as string;
    const first = await apiCall('POST', `/prospects/${prospect}/tags`, { tag: 'Chaud' }, key);
    expect(first.body).toMatchObject({ outcome: 'added' });
    const reuses = [
      apiCall('DELETE', `/prospects/${prospect}/tags/Chaud`, undefined, key),
      apiCall('POST', `/prospects/${other}/tags`, { tag: 'Chaud' }, key),
      apiCall('POST', `/prospects/${prospect}/notes`, { tag: 'Chaud' }, key),
    ];
    for (const reuse of await Promise.all(reuses)) {
      expect(reuse.status).toBe(422);
      expect(reuse.body).toMatchObject({ error: { code: 'unprocessable', details: { field: 'Idempotency-Key' } } });
    }
    const { prospect: untouched } = await showProspect(deps, { workspaceId: ws.workspace_id, prospectId: other });
    expect(untouched.version).toBe(1);
    const replay = await apiCall('POST', `/prospects/${prospect}/tags`, { tag: 'Chaud' }, key);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
  });

  it('refuses a DELETE key reused on another tag: Froid is not answered "removed VIP"', async () => {
    const key = randomUUID();
    const prospect = ws.prospects.social as string;
    const removed = await apiCall('DELETE', `/prospects/${prospect}/tags/VIP`, undefined, key);
    expect(removed.body).toMatchObject({ outcome: 'removed', tag: { name: 'VIP' } });
    const otherTag = await apiCall('DELETE', `/prospects/${prospect}/tags/Chaud`, undefined, key);
    expect(otherTag.status).toBe(422);
    const otherProspect = await apiCall('POST', `/prospects/${randomUUID()}/notes`, { content: 'x' }, key);
    expect(otherProspect.status).toBe(422);
  });

  it("refuses a webhook key reused on the other webhook, in that webhook's shape", async () => {
    const key = randomUUID();
    const lead = await webhook('/webhooks/ingest-lead', { email: `${key}@test.fr` }, key);
    expect(lead.status).toBe(200);
    const application = await webhook('/webhooks/recruitment', { email: `${key}@test.fr`, name: 'A' }, key);
    expect(application.status).toBe(400);
    expect(application.body).toMatchObject({ error: { code: 'bad_request', details: { field: 'Idempotency-Key' } } });
  });

  it('replays a webhook answer, and refuses a key over 255 characters', async () => {
    const key = randomUUID();
    const first = await webhook('/webhooks/ingest-lead', { email: 'replay@test.fr' }, key);
    const again = await webhook('/webhooks/ingest-lead', { email: 'replay@test.fr' }, key);
    expect(first.body).toMatchObject({ status: 'created' });
    expect(again.body).toEqual(first.body);
    const tooLong = await webhook('/webhooks/ingest-lead', { email: 'long@test.fr' }, 'k'.repeat(256));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ error: 'invalid_payload', message: expect.any(String) });
    const longest = await webhook('/webhooks/ingest-lead', { email: 'long@test.fr' }, 'k'.repeat(255));
    expect(longest.status).toBe(200);
    const apiTooLong = await apiCall(
      'POST',
      `/prospects/${ws.prospects.lead}/notes`,
      { content: 'x' },
      'k'.repeat(256),
    );
    expect(apiTooLong.status).toBe(400);
    expect(apiTooLong.body).toMatchObject({ error: { code: 'bad_request', details: { field: 'Idempotency-Key' } } });
  });

  it('answers the in-flight case: 409 on the API, with Retry-After: 1', async () => {
    const key = randomUUID();
    const prospect = ws.prospects.lead as string;
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => apiCall('PATCH', `/prospects/${prospect}`, { setter_id: ws.members.alice }, key)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    for (const response of responses.filter((candidate) => candidate.status === 409)) {
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.body).toMatchObject({ error: { code: 'conflict' } });
    }
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
  });
});
