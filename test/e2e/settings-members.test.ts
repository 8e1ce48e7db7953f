import { randomUUID } from 'node:crypto';
import { listAudit } from '../../lib/settings/audit';
import { productionDeps } from '../../lib/storage/client';
import { runAdminWithLocalIdentity } from '../support/admin-cli';
import { startTestApi, type TestApi } from '../support/local-api';
import { bearer, signIn, workspaceWithPeople, type PeopleWorkspace, type Person } from '../support/people';
import { aWorkspace } from '../support/seed';

/*
 * The members routes of the settings API over HTTP (docs/api.md#sign-in, #settings-api, #members), with real
 * sign-in against the run's cognito-local: every rule, the invited person's first sign-in, removal and demotion on
 * that person's next call, and the command line's `member add` (its `main` in process, on the run's identity
 * provider found through the table). Every request the service accepts is checked against the OpenAPI document
 * (startTestApi).
 */

const deps = productionDeps();
let api: TestApi;
let people: PeopleWorkspace;
let other: PeopleWorkspace;
const seededEmail = `chloe-${randomUUID()}@acme.test`;

beforeAll(async () => {
  api = await startTestApi();
  people = await workspaceWithPeople(
    api,
    aWorkspace({
      members: [
        ...(aWorkspace().members ?? []),
        { key: 'seeded', name: 'Chloé Petit', email: seededEmail },
        { key: 'noEmail', name: 'Sans Adresse', email: null },
      ],
    }),
  );
  other = await workspaceWithPeople(api);
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const membersPath = (ws: PeopleWorkspace = people) => `/workspaces/${ws.seed.workspace_id}/members`;
const memberPath = (memberId: string, ws: PeopleWorkspace = people) => `${membersPath(ws)}/${memberId}`;
const as = (person: Person, body?: unknown) => ({ headers: bearer(person), ...(body === undefined ? {} : { body }) });
const errorBody = (code: string, details?: unknown) => ({
  error: { code, message: expect.any(String), ...(details === undefined ? {} : { details }) },
});
const fieldRefused = (field: string) => errorBody('bad_request', { field, message: expect.any(String) });
const uniqueEmail = (name: string) => `${name}-${randomUUID()}@acme.test`;
const newPassword = 'Nouveau-Mot-de-passe-9!';

async function auditEntries(ws: PeopleWorkspace) {
  return (await listAudit(deps, { workspaceId: ws.seed.workspace_id, limit: 100 })).entries;
}

/** A workspace of its own, for tests that change who is admin. */
const aFreshWorkspace = () => workspaceWithPeople(api);

describe('GET /workspaces/{w}/members', () => {
  it('lists every member to a member, with role and whether they can sign in', async () => {
    const response = await api.request('GET', membersPath(), as(people.member));
    expect(response.status).toBe(200);
    const { members } = response.body as { members: unknown[] };
    expect(members).toEqual(
      expect.arrayContaining([
        {
          id: people.admin.memberId,
          email: people.admin.email,
          name: 'Alice Martin',
          role: 'admin',
          can_sign_in: true,
        },
        {
          id: people.member.memberId,
          email: people.member.email,
          name: 'Bob Durand',
          role: 'member',
          can_sign_in: true,
        },
        { id: people.seed.members.seeded, email: seededEmail, name: 'Chloé Petit', role: 'member', can_sign_in: true },
        { id: people.seed.members.noEmail, email: null, name: 'Sans Adresse', role: 'member', can_sign_in: false },
      ]),
    );
  });

  it('answers 404 to a person of another workspace and 401 without a token', async () => {
    expect(await api.request('GET', membersPath(), as(other.admin))).toMatchObject({
      status: 404,
      body: errorBody('not_found'),
    });
    expect((await api.request('GET', membersPath())).status).toBe(401);
  });
});

describe('POST /workspaces/{w}/members', () => {
  it('adds and invites a member: 201, the temporary password (local run), the audit entry with the acting admin', async () => {
    const email = uniqueEmail('diane');
    const response = await api.request(
      'POST',
      membersPath(),
      as(people.admin, { email, name: 'Diane', role: 'member' }),
    );
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email,
      name: 'Diane',
      role: 'member',
      can_sign_in: true,
      invited: true,
      temporary_password: expect.any(String),
    });
    const { id, temporary_password: temporary } = response.body as { id: string; temporary_password: string };
    expect(await auditEntries(people)).toContainEqual(
      expect.objectContaining({ member_id: people.admin.memberId, action: 'member.invited', target_id: id }),
    );

    // The invited person's first sign-in: the temporary password asks for a new one, then opens the session.
    const first = await api.request('POST', '/session', { body: { email, password: temporary } });
    expect(first).toMatchObject({
      status: 409,
      body: errorBody('conflict', expect.objectContaining({ field: 'new_password' })),
    });
    const second = await api.request('POST', '/session', {
      body: { email, password: temporary, new_password: newPassword },
    });
    expect(second.status).toBe(200);
    expect((second.body as { workspaces: unknown[] }).workspaces).toEqual([
      { id: people.seed.workspace_id, name: 'Acme', role: 'member', member_id: id },
    ]);
  });

  it('answers 409 to an e-mail already a member, ignoring case', async () => {
    const response = await api.request(
      'POST',
      membersPath(),
      as(people.admin, { email: people.member.email.toUpperCase(), role: 'admin' }),
    );
    expect(response).toMatchObject({ status: 409, body: errorBody('conflict') });
  });

  it('refuses a member (403) and a person of another workspace (404)', async () => {
    const body = { email: uniqueEmail('refused'), role: 'member' };
    expect((await api.request('POST', membersPath(), as(people.member, body))).status).toBe(403);
    expect((await api.request('POST', membersPath(), as(other.admin, body))).status).toBe(404);
  });

  it.each([
    ['an unknown field', { email: 'x@acme.test', role: 'member', admin: true }, 'admin'],
    ['an unknown role', { email: 'x@acme.test', role: 'owner' }, 'role'],
    ['no role', { email: 'x@acme.test' }, 'role'],
    ['an e-mail of the wrong type', { email: 42, role: 'member' }, 'email'],
    ['a name of the wrong type', { email: 'x@acme.test', name: ['Diane'], role: 'member' }, 'name'],
  ])('answers 400 naming the field for %s', async (_case, body, field) => {
    const response = await api.request('POST', membersPath(), as(people.admin, body));
    expect(response).toMatchObject({ status: 400, body: fieldRefused(field) });
  });

  it('answers 400 to an address that is not one, and to a body that is not JSON', async () => {
    const invalid = await api.request('POST', membersPath(), as(people.admin, { email: 'diane', role: 'member' }));
    expect(invalid).toMatchObject({ status: 400, body: errorBody('bad_request', { field: 'email' }) });
    const notJson = await api.request('POST', membersPath(), as(people.admin, '{"email":'));
    expect(notJson).toMatchObject({ status: 400, body: errorBody('bad_request') });
  });
});

describe('POST /workspaces/{w}/members/{m}/invite', () => {
  it('invites a seeded member with an e-mail for the first time: 200, a temporary password that signs in', async () => {
    const memberId = people.seed.members.seeded as string;
    const response = await api.request('POST', `${memberPath(memberId)}/invite`, as(people.admin));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: memberId,
      email: seededEmail,
      name: 'Chloé Petit',
      role: 'member',
      can_sign_in: true,
      invited: true,
      temporary_password: expect.any(String),
    });
    const { temporary_password: temporary } = response.body as { temporary_password: string };
    const first = await api.request('POST', '/session', { body: { email: seededEmail, password: temporary } });
    expect(first).toMatchObject({
      status: 409,
      body: errorBody('conflict', expect.objectContaining({ field: 'new_password' })),
    });
    expect(await auditEntries(people)).toContainEqual(
      expect.objectContaining({ member_id: people.admin.memberId, action: 'member.invited', target_id: memberId }),
    );

    // Invited again: a new temporary password replaces the first.
    const again = await api.request('POST', `${memberPath(memberId)}/invite`, as(people.admin));
    expect(again.status).toBe(200);
    const { temporary_password: second } = again.body as { temporary_password: string };
    expect(second).not.toBe(temporary);
    const signedIn = await api.request('POST', '/session', {
      body: { email: seededEmail, password: second, new_password: newPassword },
    });
    expect(signedIn.status).toBe(200);
  });

  it('answers 422 for a member without e-mail', async () => {
    const response = await api.request(
      'POST',
      `${memberPath(people.seed.members.noEmail as string)}/invite`,
      as(people.admin),
    );
    expect(response).toMatchObject({ status: 422, body: errorBody('unprocessable') });
  });

  it.each([
    ['an unknown id', randomUUID()],
    ['a malformed id', 'pas-un-id'],
    ['an undecodable id', '%E0%A4%A'],
  ])('answers 404 for %s', async (_case, memberId) => {
    const response = await api.request('POST', `${memberPath(memberId)}/invite`, as(people.admin));
    expect(response).toMatchObject({ status: 404, body: errorBody('not_found') });
  });

  it('answers 404 for a member of another workspace, 403 to a member, 404 to another workspace', async () => {
    const path = `${memberPath(people.member.memberId)}/invite`;
    expect((await api.request('POST', `${memberPath(other.member.memberId)}/invite`, as(people.admin))).status).toBe(
      404,
    );
    expect((await api.request('POST', path, as(people.member))).status).toBe(403);
    expect((await api.request('POST', path, as(other.admin))).status).toBe(404);
  });
});

describe('PATCH /workspaces/{w}/members/{m}', () => {
  it('changes a role: the member, its audit entry; demotion takes effect on that person’s next call', async () => {
    const ws = await aFreshWorkspace();
    const auditPath = `/workspaces/${ws.seed.workspace_id}/audit`;
    expect((await api.request('GET', auditPath, as(ws.member))).status).toBe(403);

    const promoted = await api.request('PATCH', memberPath(ws.member.memberId, ws), as(ws.admin, { role: 'admin' }));
    expect(promoted).toMatchObject({
      status: 200,
      body: { id: ws.member.memberId, email: ws.member.email, name: 'Bob Durand', role: 'admin', can_sign_in: true },
    });
    // The same token, still valid: the role is read at each call.
    expect((await api.request('GET', auditPath, as(ws.member))).status).toBe(200);
    expect(await auditEntries(ws)).toContainEqual(
      expect.objectContaining({
        member_id: ws.admin.memberId,
        action: 'member.role_changed',
        target_id: ws.member.memberId,
      }),
    );

    const demoted = await api.request('PATCH', memberPath(ws.member.memberId, ws), as(ws.admin, { role: 'member' }));
    expect(demoted).toMatchObject({ status: 200, body: { role: 'member' } });
    expect(await api.request('GET', auditPath, as(ws.member))).toMatchObject({
      status: 403,
      body: errorBody('forbidden'),
    });
  });

  it('answers 409 to demoting the last admin', async () => {
    const response = await api.request(
      'PATCH',
      memberPath(people.admin.memberId),
      as(people.admin, { role: 'member' }),
    );
    expect(response).toMatchObject({ status: 409, body: errorBody('conflict') });
  });

  it.each([
    ['an unknown role', { role: 'owner' }, 'role'],
    ['an unknown field', { role: 'admin', name: 'Bob' }, 'name'],
    ['a role of the wrong type', { role: true }, 'role'],
    ['no role', {}, 'role'],
  ])('answers 400 naming the field for %s, before looking for the member', async (_case, body, field) => {
    const response = await api.request('PATCH', memberPath(randomUUID()), as(people.admin, body));
    expect(response).toMatchObject({ status: 400, body: fieldRefused(field) });
  });

  it('answers 404 for unknown and malformed ids, 403 to a member, 404 to another workspace', async () => {
    const body = { role: 'member' };
    expect((await api.request('PATCH', memberPath(randomUUID()), as(people.admin, body))).status).toBe(404);
    expect((await api.request('PATCH', memberPath('42'), as(people.admin, body))).status).toBe(404);
    expect((await api.request('PATCH', memberPath(people.member.memberId), as(people.member, body))).status).toBe(403);
    expect((await api.request('PATCH', memberPath(people.member.memberId), as(other.admin, body))).status).toBe(404);
  });
});

describe('DELETE /workspaces/{w}/members/{m}', () => {
  it('removes a member: { id, can_sign_in: false }, the audit entry; that person’s next call is a 404', async () => {
    const ws = await aFreshWorkspace();
    const response = await api.request('DELETE', memberPath(ws.member.memberId, ws), as(ws.admin));
    expect(response).toMatchObject({ status: 200, body: { id: ws.member.memberId, can_sign_in: false } });
    expect(response.body).toEqual({ id: ws.member.memberId, can_sign_in: false });
    expect(await auditEntries(ws)).toContainEqual(
      expect.objectContaining({
        member_id: ws.admin.memberId,
        action: 'member.removed',
        target_id: ws.member.memberId,
      }),
    );
    // The removed person's token is still valid: the workspace is no longer theirs.
    expect(await api.request('GET', membersPath(ws), as(ws.member))).toMatchObject({
      status: 404,
      body: errorBody('not_found'),
    });
    const listed = await api.request('GET', membersPath(ws), as(ws.admin));
    expect((listed.body as { members: unknown[] }).members).toContainEqual(
      expect.objectContaining({ id: ws.member.memberId, can_sign_in: false }),
    );
  });

  it('answers 409 to removing the last admin', async () => {
    const response = await api.request('DELETE', memberPath(people.admin.memberId), as(people.admin));
    expect(response).toMatchObject({ status: 409, body: errorBody('conflict') });
  });

  it('answers 404 for unknown and malformed ids, 403 to a member, 404 to another workspace', async () => {
    expect((await api.request('DELETE', memberPath(randomUUID()), as(people.admin))).status).toBe(404);
    expect((await api.request('DELETE', memberPath('x'), as(people.admin))).status).toBe(404);
    expect((await api.request('DELETE', memberPath(people.member.memberId), as(people.member))).status).toBe(403);
    expect((await api.request('DELETE', memberPath(people.member.memberId), as(other.admin))).status).toBe(404);
  });
});

describe('member add, the command line in process, on the run’s identity provider found through the table', () => {
  it('adds a member with a permanent password (--password): the person signs in with it', async () => {
    const email = uniqueEmail('cli');
    const password = 'Ligne-de-commande-7!';
    const run = await runAdminWithLocalIdentity(
      deps,
      'member',
      'add',
      '--workspace',
      people.seed.workspace_id,
      '--email',
      email,
      '--name',
      'Eve Ligne',
      '--role',
      'admin',
      '--password',
      password,
      '--json',
    );
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const added = JSON.parse(run.stdout) as { id: string };
    expect(added).toEqual({ id: expect.any(String), email, name: 'Eve Ligne', role: 'admin', invited: true });
    const session = await signIn(api, email, password);
    const mine = await api.request('GET', '/workspaces', { headers: bearer(session) });
    expect((mine.body as { workspaces: unknown[] }).workspaces).toEqual([
      { id: people.seed.workspace_id, name: 'Acme', role: 'admin', member_id: added.id },
    ]);
    expect(await auditEntries(people)).toContainEqual(
      expect.objectContaining({ member_id: null, action: 'member.invited', target_id: added.id }),
    );
  });
});

describe('a person of several workspaces: adding or inviting someone who chose a password never gives them another', () => {
  /** P: invited to workspace A by its admin, signed in once with the temporary password, chose a password. */
  let a: PeopleWorkspace;
  let b: PeopleWorkspace;
  const email = uniqueEmail('pauline');
  const chosen = 'Choisi-Par-Pauline-7!';
  let memberOfA: string;
  let memberOfB: string;

  const signsInWithTheirPassword = async () => {
    const session = await api.request('POST', '/session', { body: { email, password: chosen } });
    expect(session.status).toBe(200);
    return session.body as { access_token: string; workspaces: unknown[] };
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([aFreshWorkspace(), aFreshWorkspace()]);
    const invited = await api.request('POST', membersPath(a), as(a.admin, { email, name: 'Pauline', role: 'member' }));
    expect(invited).toMatchObject({ status: 201, body: { invited: true, temporary_password: expect.any(String) } });
    const { id, temporary_password: temporary } = invited.body as { id: string; temporary_password: string };
    memberOfA = id;
    const first = await api.request('POST', '/session', {
      body: { email, password: temporary, new_password: chosen },
    });
    expect(first.status).toBe(200);
  });

  it('the admin of B adds P: 201, invited false and no password; P signs in as before and sees both workspaces', async () => {
    const response = await api.request(
      'POST',
      membersPath(b),
      as(b.admin, { email: email.toUpperCase(), name: 'Pauline', role: 'admin' }),
    );
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: email.toUpperCase(),
      name: 'Pauline',
      role: 'admin',
      can_sign_in: true,
      invited: false,
    });
    memberOfB = (response.body as { id: string }).id;
    expect(await auditEntries(b)).toContainEqual(
      expect.objectContaining({
        member_id: b.admin.memberId,
        action: 'member.invited',
        target_id: memberOfB,
        summary: expect.stringContaining('ni invitation ni nouveau mot de passe'),
      }),
    );

    const session = await signsInWithTheirPassword();
    expect(session.workspaces).toEqual(
      expect.arrayContaining([
        { id: a.seed.workspace_id, name: 'Acme', role: 'member', member_id: memberOfA },
        { id: b.seed.workspace_id, name: 'Acme', role: 'admin', member_id: memberOfB },
      ]),
    );
    const mine = await api.request('GET', '/workspaces', { headers: bearer({ accessToken: session.access_token }) });
    expect((mine.body as { workspaces: unknown[] }).workspaces).toHaveLength(2);
  });

  it('the admin of B, then the admin of A, invite P again: 200, invited false, no password; P signs in as before', async () => {
    for (const [ws, memberId] of [
      [b, memberOfB],
      [a, memberOfA],
    ] as const) {
      const again = await api.request('POST', `${memberPath(memberId, ws)}/invite`, as(ws.admin));
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id: memberId, invited: false });
      expect(again.body).not.toHaveProperty('temporary_password');
      await signsInWithTheirPassword();
    }
  });

  it('a person invited to A who never signed in, added to B: invited again, a temporary password that signs in to both', async () => {
    const newcomer = uniqueEmail('quentin');
    const toA = await api.request('POST', membersPath(a), as(a.admin, { email: newcomer, role: 'member' }));
    expect(toA).toMatchObject({ status: 201, body: { invited: true } });
    const toB = await api.request('POST', membersPath(b), as(b.admin, { email: newcomer, role: 'member' }));
    expect(toB).toMatchObject({ status: 201, body: { invited: true, temporary_password: expect.any(String) } });
    const { temporary_password: temporary } = toB.body as { temporary_password: string };
    const first = await api.request('POST', '/session', {
      body: { email: newcomer, password: temporary, new_password: newPassword },
    });
    expect(first.status).toBe(200);
    expect((first.body as { workspaces: unknown[] }).workspaces).toHaveLength(2);
  });

  it('the command line adds P to a third workspace without inviting them, and refuses to give them a password', async () => {
    const c = await aFreshWorkspace();
    const added = await runAdminWithLocalIdentity(
      deps,
      'member',
      'add',
      '--workspace',
      c.seed.workspace_id,
      '--email',
      email,
      '--role',
      'member',
      '--json',
    );
    expect({ code: added.code, stderr: added.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(added.stdout)).toEqual({
      id: expect.any(String),
      email,
      name: email,
      role: 'member',
      invited: false,
    });
    await signsInWithTheirPassword();

    const refused = await runAdminWithLocalIdentity(
      deps,
      'member',
      'add',
      '--workspace',
      other.seed.workspace_id,
      '--email',
      email,
      '--role',
      'member',
      '--password',
      'Impose-Par-La-Ligne-1!',
      '--json',
    );
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain('--password ne le remplace pas');
    const listed = await api.request('GET', membersPath(other), as(other.admin));
    expect(
      (listed.body as { members: { email: string | null }[] }).members.map((member) => member.email),
    ).not.toContain(email);
    const session = await signsInWithTheirPassword();
    expect(session.workspaces).toHaveLength(3);
  });
});
