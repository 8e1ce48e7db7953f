import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createApiKey } from '../../lib/settings/api-keys';
import { showProspect } from '../../lib/settings/prospects';
import type { SeedOutput } from '../../tools/seed/seed';
import { productionDeps } from '../../lib/storage/client';
import { keys } from '../../lib/storage/table-items';
import { startTestApi, type TestApi } from '../support/local-api';
import { seedTestWorkspace } from '../support/seed';

/**
 * Idempotency keys (docs/api.md#idempotency-keys), the cases test/e2e/idempotency.test.ts leaves
 * out: PATCH and DELETE, credentials, 24 hours.
 */

const deps = productionDeps();
const start = new Date('2026-11-22T10:00:00.000Z');
let now = start;
let api: TestApi;
let ws: SeedOutput;

beforeAll(async () => {
  ws = await seedTestWorkspace();
  api = await startTestApi({ clock: () => now });
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});
beforeEach(() => {
  now = start;
});

const call = (
  method: string,
  path: string,
  body: unknown,
  idempotencyKey: string,
  secret = ws.api_keys.admin?.secret,
) =>
  api.request(method, path, {
    headers: { Authorization: `Bearer ${secret}`, 'Idempotency-Key': idempotencyKey },
    body,
  });
const show = (prospectId: string) => showProspect(deps, { workspaceId: ws.workspace_id, prospectId });
const later = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describe('Idempotency-Key replays', () => {
  it('replays a PATCH: same answer, one change, one log entry', async () => {
    const prospectId = ws.prospects.lead as string;
    const key = randomUUID();
    const first = await call('PATCH', `/prospects/${prospectId}`, { closer_id: ws.members.alice }, key);
    const again = await call('PATCH', `/prospects/${prospectId}`, { closer_id: ws.members.alice }, key);
    expect(first.body).toMatchObject({ changed: ['closer'] });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    const { changelog } = await show(prospectId);
    expect(changelog.filter((entry) => entry.field === 'closer')).toHaveLength(1);
  });

  it('replays a DELETE, which has no body: "removed" again, one log entry', async () => {
    const prospectId = ws.prospects.social as string;
    const key = randomUUID();
    const first = await call('DELETE', `/prospects/${prospectId}/tags/VIP`, undefined, key);
    const again = await call('DELETE', `/prospects/${prospectId}/tags/VIP`, undefined, key);
    expect(first.body).toMatchObject({ outcome: 'removed' });
    expect(again.body).toEqual(first.body);
    const { changelog } = await show(prospectId);
    expect(changelog.filter((entry) => entry.field === 'tags')).toHaveLength(1);
  });

  it('replays a refusal too (a 404 is an answer), while the same key with another credential runs anew', async () => {
    const key = randomUUID();
    const missing = `/prospects/${randomUUID()}/notes`;
    const first = await call('POST', missing, { content: 'x' }, key);
    expect(first.status).toBe(404);
    expect((await call('POST', missing, { content: 'x' }, key)).body).toEqual(first.body);

    const other = await createApiKey(deps, { workspaceId: ws.workspace_id, name: 'Autre outil' });
    const prospectId = ws.prospects.lead as string;
    const mine = await call('POST', `/prospects/${prospectId}/notes`, { content: 'Clé partagée' }, key);
    const theirs = await call('POST', `/prospects/${prospectId}/notes`, { content: 'Clé partagée' }, key, other.secret);
    expect(mine.status).toBe(422);
    expect(theirs.status).toBe(201);
  });

  it('keeps a record 24 hours: replayed just before, run anew just after, with a TTL that only cleans up', async () => {
    const prospectId = ws.prospects.lead as string;
    const key = randomUUID();
    const first = await call('POST', `/prospects/${prospectId}/notes`, { content: 'Un jour' }, key);
    now = later(24 * 3600 - 1);
    const replay = await call('POST', `/prospects/${prospectId}/notes`, { content: 'Un jour' }, key);
    expect(replay.body).toEqual(first.body);
    now = later(24 * 3600 + 1);
    const anew = await call('POST', `/prospects/${prospectId}/notes`, { content: 'Un jour' }, key);
    expect(anew.status).toBe(201);
    expect(anew.body).not.toEqual(first.body);
    const { notes } = await show(prospectId);
    expect(notes.filter((note) => note.content === 'Un jour')).toHaveLength(2);

    const scope = `${ws.workspace_id}\n${ws.api_keys.admin?.id}`;
    const { Item } = await deps.db.send(
      new GetCommand({ TableName: deps.tableName, Key: keys.idempotency(scope, key), ConsistentRead: true }),
    );
    expect(Item?.expires_at).toBe(Math.floor(later(24 * 3600 + 1).getTime() / 1000) + 24 * 3600);
  });
});
