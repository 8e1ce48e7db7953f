import { randomUUID } from 'node:crypto';
import { InternalServerError } from '@aws-sdk/client-dynamodb';
import { jest } from '@jest/globals';
import { showProspect } from '../../lib/settings/prospects';
import type { SeedOutput } from '../../tools/seed/seed';
import { productionDeps } from '../../lib/storage/client';
import { startTestApi, type TestApi } from '../support/local-api';
import { seedTestWorkspace } from '../support/seed';

/**
 * The worst ambiguous failure: DynamoDB applied the transaction, but the function never learnt it
 * (every SDK attempt answered 500, or the Lambda timed out) and answered 5xx. The client retries.
 * The retry must find the write done rather than do it again.
 */

const deps = productionDeps();
let losingAnswers = 0;
deps.db.middlewareStack.add(
  (next, context) => async (args) => {
    const result = await next(args);
    if (context.commandName === 'TransactWriteItemsCommand' && losingAnswers > 0) {
      losingAnswers -= 1;
      throw new InternalServerError({ message: 'Internal server error', $metadata: {} });
    }
    return result;
  },
  { step: 'initialize', name: 'loseTheAnswerAfterTheWrite' },
);
const createdIds: string[] = [];
let api: TestApi;
let ws: SeedOutput;

beforeAll(async () => {
  ws = await seedTestWorkspace();
  api = await startTestApi({
    db: deps.db,
    newId: () => {
      const id = randomUUID();
      createdIds.push(id);
      return id;
    },
  });
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});
beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const lead = (body: object, headers: Record<string, string> = {}) =>
  api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: ws.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${ws.webhook?.token}`, ...headers },
    body,
  });
const apiCall = (method: string, path: string, body?: unknown) =>
  api.request(method, path, { headers: { Authorization: `Bearer ${ws.api_keys.admin?.secret}` }, body });
const show = (prospectId: string) => showProspect(deps, { workspaceId: ws.workspace_id, prospectId });
const isProspect = (id: string) =>
  show(id).then(
    () => true,
    () => false,
  );

describe('a write applied but answered 500, then retried by the client', () => {
  it('lead webhook without Idempotency-Key: the retry finds the prospect, never a second one', async () => {
    const email = `${randomUUID()}@ambigu.test`;
    createdIds.length = 0;
    losingAnswers = 1;
    const first = await lead({ email });
    expect(first.status).toBe(500);
    expect(first.body).toEqual({ error: 'ingest_failed', message: expect.any(String) });
    const retry = await lead({ email });
    expect(retry.body).toMatchObject({ status: 'existing' });
    const prospectId = (retry.body as { prospect_id: string }).prospect_id;
    const prospects = (await Promise.all(createdIds.map(async (id) => ((await isProspect(id)) ? id : null)))).filter(
      (id) => id !== null,
    );
    expect(prospects).toEqual([prospectId]);
  });

  it('lead webhook with Idempotency-Key: the retry repeats the first attempt and answers it', async () => {
    const email = `${randomUUID()}@ambigu.test`;
    const headers = { 'Idempotency-Key': randomUUID() };
    losingAnswers = 1;
    expect((await lead({ email }, headers)).status).toBe(500);
    const retry = await lead({ email }, headers);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ status: 'created', placement: 'defaut' });
    const prospectId = (retry.body as { prospect_id: string }).prospect_id;
    expect((await lead({ email })).body).toMatchObject({ status: 'existing', prospect_id: prospectId });
    expect(await lead({ email }, headers)).toMatchObject({ status: 200, body: retry.body });
  });

  it('note with Idempotency-Key: the retry answers the first note, never stores a second', async () => {
    const prospectId = ws.prospects.lead as string;
    const headers = { Authorization: `Bearer ${ws.api_keys.admin?.secret}`, 'Idempotency-Key': randomUUID() };
    const content = `Note ${randomUUID()}`;
    losingAnswers = 1;
    const first = await api.request('POST', `/prospects/${prospectId}/notes`, { headers, body: { content } });
    expect(first.status).toBe(500);
    const retry = await api.request('POST', `/prospects/${prospectId}/notes`, { headers, body: { content } });
    expect(retry.status).toBe(201);
    const { notes, changelog } = await show(prospectId);
    const stored = notes.filter((note) => note.content === content);
    expect(stored).toHaveLength(1);
    expect(retry.body).toEqual({ id: stored[0]?.id, created_at: stored[0]?.created_at, warnings: [] });
    expect(changelog.filter((entry) => entry.after === stored[0]?.id)).toHaveLength(1);
  });

  it('recruitment with Idempotency-Key: the retry answers created, with one candidate and one note', async () => {
    const headers = { Authorization: `Bearer ${ws.webhook?.token}`, 'Idempotency-Key': randomUUID() };
    const body = { email: `${randomUUID()}@ambigu.test`, name: 'Ana Lyse', answers: { Q: 'R' } };
    const apply = () =>
      api.request('POST', '/webhooks/recruitment', {
        query: { endpoint_id: ws.webhook?.endpoint_id as string },
        headers,
        body,
      });
    losingAnswers = 1;
    expect((await apply()).status).toBe(500);
    const retry = await apply();
    expect(retry.body).toMatchObject({ ok: true, action: 'created' });
    const talentId = (retry.body as { talent_id: string }).talent_id;
    const { showCandidate } = await import('../../tools/admin/use-cases/candidates');
    const { notes } = await showCandidate(deps, { workspaceId: ws.workspace_id, candidateId: talentId });
    expect(notes).toHaveLength(1);
  });

  it('PATCH: the retry sees the change made and logs nothing more', async () => {
    const prospectId = ws.prospects.lead as string;
    losingAnswers = 1;
    const first = await apiCall('PATCH', `/prospects/${prospectId}`, { setter_id: ws.members.bob });
    expect(first.status).toBe(500);
    const retry = await apiCall('PATCH', `/prospects/${prospectId}`, { setter_id: ws.members.bob });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ setter_id: ws.members.bob, changed: [] });
    const { changelog } = await show(prospectId);
    expect(changelog.filter((entry) => entry.field === 'setter')).toHaveLength(1);
  });

  it('POST tags: the retry finds the tag present and logs nothing more', async () => {
    const prospectId = ws.prospects.lead as string;
    losingAnswers = 1;
    const first = await apiCall('POST', `/prospects/${prospectId}/tags`, { tag: 'VIP' });
    expect(first.status).toBe(500);
    const retry = await apiCall('POST', `/prospects/${prospectId}/tags`, { tag: 'VIP' });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ outcome: 'already_present' });
    const { changelog } = await show(prospectId);
    expect(changelog.filter((entry) => entry.field === 'tags')).toHaveLength(1);
  });
});
