import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi } from '../support/local-api';
import { bearer, workspaceWithPeople, type PeopleWorkspace } from '../support/people';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { auditItem, newAuditEntry, type FormerAuditAction } from '../../lib/storage/audit-log';
import { productionDeps } from '../../lib/storage/client';
import { runAdminInProcess } from '../support/admin-cli';

/*
 * GET /workspaces/{w}/audit over HTTP with real sign-in (docs/api.md#settings-api, #audit-log): the entries of the
 * settings API's changes and of the command line's, newest first, in pages; admins only. Every request the service
 * accepts is checked against the OpenAPI document (startTestApi).
 */

let api: TestApi;
/** The command line's table client. */
const cli = productionDeps();
let people: PeopleWorkspace;
let other: PeopleWorkspace;
let invitee: string;
let temporaryPassword: string;
type Entry = {
  id: string;
  at: string;
  member_id: string | null;
  action: string;
  target_id: string | null;
  summary: string;
};
type Page = { entries: Entry[]; next_cursor: string | null };

const auditPath = (ws: PeopleWorkspace = people) => `/workspaces/${ws.seed.workspace_id}/audit`;
const errorBody = (code: string, details?: unknown) => ({
  error: { code, message: expect.any(String), ...(details === undefined ? {} : { details }) },
});

beforeAll(async () => {
  api = await startTestApi();
  [people, other] = [await workspaceWithPeople(api), await workspaceWithPeople(api)];
  // Three changes in order: two through the settings API by the admin, one through the command line.
  const members = `/workspaces/${people.seed.workspace_id}/members`;
  const promoted = await api.request('PATCH', `${members}/${people.member.memberId}`, {
    headers: bearer(people.admin),
    body: { role: 'admin' },
  });
  expect(promoted.status).toBe(200);
  // A person the pool does not know yet: invited with a temporary password, which no entry may hold.
  const invited = await api.request('POST', members, {
    headers: bearer(people.admin),
    body: { email: `invitee-${randomUUID()}@acme.test`, role: 'member' },
  });
  expect(invited).toMatchObject({ status: 201, body: { invited: true, temporary_password: expect.any(String) } });
  ({ id: invitee, temporary_password: temporaryPassword } = invited.body as { id: string; temporary_password: string });
  // The command line's `main` in this process: what is checked is its entry, not its process (admin-cli*.test.ts).
  const tag = await runAdminInProcess(
    cli,
    'tag',
    'add',
    '--workspace',
    people.seed.workspace_id,
    '--name',
    'Partenaire',
    '--json',
  );
  expect(tag.code).toBe(0);
});
afterAll(async () => {
  cli.db.destroy();
  await api.close();
});

const listed = (query?: Record<string, string>, person = people.admin) =>
  api.request('GET', auditPath(), { headers: bearer(person), ...(query ? { query } : {}) });

describe('GET /workspaces/{w}/audit', () => {
  it('answers the entries newest first, with the acting member (null for the command line), no secret', async () => {
    const response = await listed();
    expect(response.status).toBe(200);
    const page = response.body as Page;
    expect(page.next_cursor).toBeNull();
    expect(
      page.entries.map(({ action, member_id: memberId, target_id: targetId }) => [action, memberId, targetId]),
    ).toEqual([
      ['tag.created', null, expect.any(String)],
      ['member.invited', people.admin.memberId, invitee],
      ['member.role_changed', people.admin.memberId, people.member.memberId],
    ]);
    for (const entry of page.entries) {
      expect(Object.keys(entry).sort()).toEqual(['action', 'at', 'id', 'member_id', 'summary', 'target_id']);
      expect(entry.summary).toEqual(expect.any(String));
    }
    const at = page.entries.map((entry) => entry.at);
    expect([...at].sort().reverse()).toEqual(at);
    // The invitation's temporary password is in no entry.
    expect(JSON.stringify(page)).not.toContain(temporaryPassword);
    expect(JSON.stringify(page)).not.toMatch(/temporary|password|mot de passe/i);
  });

  it('pages with limit and cursor, each entry once', async () => {
    const all = (await listed()).body as Page;
    const first = (await listed({ limit: '2' })).body as Page;
    expect(first.entries).toEqual(all.entries.slice(0, 2));
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = (await listed({ limit: '2', cursor: first.next_cursor as string })).body as Page;
    expect(second).toEqual({ entries: all.entries.slice(2), next_cursor: null });
  });

  it.each([
    ['a limit of 0', { limit: '0' }, 'limit'],
    ['a limit over 100', { limit: '101' }, 'limit'],
    ['a limit that is no number', { limit: 'dix' }, 'limit'],
    ['a cursor that is no cursor', { cursor: 'pas-un-curseur' }, 'cursor'],
  ])('answers 400 naming the parameter for %s', async (_case, query, field) => {
    const response = await listed(query);
    expect(response).toMatchObject({ status: 400, body: errorBody('bad_request', expect.objectContaining({ field })) });
  });

  it("answers 400 to another workspace's cursor", async () => {
    await api.request('PATCH', `/workspaces/${other.seed.workspace_id}/members/${other.member.memberId}`, {
      headers: bearer(other.admin),
      body: { role: 'admin' },
    });
    await api.request('PATCH', `/workspaces/${other.seed.workspace_id}/members/${other.member.memberId}`, {
      headers: bearer(other.admin),
      body: { role: 'member' },
    });
    const theirs = await api.request('GET', auditPath(other), { headers: bearer(other.admin), query: { limit: '1' } });
    const cursor = (theirs.body as Page).next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    expect((await listed({ cursor })).status).toBe(400);
  });

  it('answers 403 to a member, 404 to a person of another workspace, 401 without a token', async () => {
    const fresh = await workspaceWithPeople(api);
    const path = auditPath(fresh);
    expect(await api.request('GET', path, { headers: bearer(fresh.member) })).toMatchObject({
      status: 403,
      body: errorBody('forbidden'),
    });
    expect(await api.request('GET', path, { headers: bearer(other.admin) })).toMatchObject({
      status: 404,
      body: errorBody('not_found'),
    });
    expect((await api.request('GET', path)).status).toBe(401);
    expect(
      (await api.request('GET', `/workspaces/${randomUUID()}/audit`, { headers: bearer(fresh.admin) })).status,
    ).toBe(404);
  });

  it('lists the entries stored under former names under today’s, the names the document lists', async () => {
    const fresh = await workspaceWithPeople(api);
    const workspaceId = fresh.seed.workspace_id;
    const subscriptionId = randomUUID();
    // As a version before one action per change wrote them (FormerAuditAction), oldest first.
    const former: [FormerAuditAction, string | null, string][] = [
      ['subscription.changed', subscriptionId, "Événements envoyés par l'abonnement remplacés : prospect.created."],
      ['workspace.changed', workspaceId, "Réglages de l'espace modifiés : fuseau horaire Europe/Paris → Asia/Tokyo."],
      [
        'workspace.changed',
        workspaceId,
        "Réglages de l'espace modifiés : conservation des données jusqu'à effacement → 24 mois.",
      ],
      [
        'workspace.changed',
        workspaceId,
        "Réglages de l'espace modifiés : fuseau horaire Asia/Tokyo → Europe/Paris, conservation des données 24 mois → 36 mois.",
      ],
    ];
    for (const [index, [action, targetId, summary]] of former.entries()) {
      const entry = newAuditEntry(new Date(Date.now() - (former.length - index) * 1000), {
        workspaceId,
        memberId: null,
        action: 'tag.created',
        targetId,
        summary,
      });
      await cli.db.send(new PutCommand({ TableName: cli.tableName, Item: { ...auditItem(entry), action } }));
    }
    const listed = await api.request('GET', auditPath(fresh), { headers: bearer(fresh.admin) });
    expect(listed.status).toBe(200);
    expect((listed.body as Page).entries.map(({ action, target_id, summary }) => [action, target_id, summary])).toEqual(
      [
        ['workspace.time_zone_changed', workspaceId, former[3]?.[2]],
        ['workspace.retention_changed', workspaceId, former[2]?.[2]],
        ['workspace.time_zone_changed', workspaceId, former[1]?.[2]],
        ['subscription.events_changed', subscriptionId, former[0]?.[2]],
      ],
    );
  });
});
