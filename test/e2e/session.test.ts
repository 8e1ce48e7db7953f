import { randomUUID } from 'node:crypto';
import type { SeedOutput } from '../../tools/seed/seed';
import { productionDeps } from '../../lib/storage/client';
import { poolIdentityProvider } from '../../lib/identity/cognito';
import { accessClaims, aSigningKey, localPoolSigningKey, signedToken } from '../support/access-tokens';
import { startTestApi, type TestApi } from '../support/local-api';
import { putMembershipDirectly } from '../support/memberships';
import { seedTestWorkspace } from '../support/seed';

/*
 * Sign-in and the person's own routes over HTTP through the local server, against the run's cognito-local
 * (docs/api.md#sign-in). Every request the service accepts is checked against the OpenAPI
 * document (test/support/local-api.ts).
 */

const deps = productionDeps();
const identity = poolIdentityProvider();
const issuer = process.env.USER_POOL_ISSUER as string;
const clientId = process.env.USER_POOL_CLIENT_ID as string;
const password = 'Mot-de-passe-1!';
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

/** A person of their own for each test (the pool is the run's): a member `alice` of the workspace, signed up. */
async function aPerson(options: { role?: 'admin' | 'member'; temporary?: boolean } = {}): Promise<string> {
  const email = `person-${randomUUID()}@acme.test`;
  await identity.invite(email, options.temporary ? 'Provisoire-Passw0rd!' : 'Invitation-Passw0rd!');
  if (!options.temporary) await identity.setPermanentPassword(email, password);
  await putMembershipDirectly(deps, {
    email,
    workspaceId: ws.workspace_id,
    memberId: ws.members.alice as string,
    role: options.role ?? 'admin',
  });
  return email;
}

type Session = { access_token: string; refresh_token: string; expires_in: number };
const signIn = (body: unknown) => api.request('POST', '/session', { body });
async function signedIn(email: string, secret = password): Promise<Session> {
  const response = await signIn({ email, password: secret });
  expect(response.status).toBe(200);
  return response.body as Session;
}
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const myWorkspaces = (token: string, query?: Record<string, string>) =>
  api.request('GET', '/workspaces', { headers: bearer(token), query });
const errorBody = (code: string, details?: unknown) => ({
  error: { code, message: expect.any(String), ...(details === undefined ? {} : { details }) },
});

describe('POST /session', () => {
  it('signs a member in: tokens, the person, and their workspaces with role and member id', async () => {
    const email = await aPerson();
    const response = await signIn({ email: email.toUpperCase(), password });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: expect.any(Number),
      member: { email, name: 'Alice Martin' },
      workspaces: [{ id: ws.workspace_id, name: 'Acme', role: 'admin', member_id: ws.members.alice }],
    });
    const { access_token } = response.body as Session;
    const mine = await myWorkspaces(access_token);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      workspaces: [{ id: ws.workspace_id, name: 'Acme', role: 'admin', member_id: ws.members.alice }],
    });
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const email = await aPerson();
    const wrong = await signIn({ email, password: 'Pas-le-bon-1!' });
    const unknown = await signIn({ email: `nobody-${randomUUID()}@acme.test`, password });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual(errorBody('unauthorized'));
  });

  it('asks for new_password at the first sign-in with a temporary password, then opens the session', async () => {
    const email = await aPerson({ temporary: true });
    const first = await signIn({ email, password: 'Provisoire-Passw0rd!' });
    expect(first.status).toBe(409);
    expect(first.body).toEqual(errorBody('conflict', { field: 'new_password', message: expect.any(String) }));
    const weak = await signIn({ email, password: 'Provisoire-Passw0rd!', new_password: 'court' });
    expect(weak.status).toBe(400);
    expect(weak.body).toEqual(errorBody('bad_request', { field: 'new_password', message: expect.any(String) }));
    const changed = await signIn({ email, password: 'Provisoire-Passw0rd!', new_password: password });
    expect(changed.status).toBe(200);
    expect((await signIn({ email, password })).status).toBe(200);
  });

  it('answers 429 with Retry-After after 10 failed sign-ins of one e-mail, whatever the password', async () => {
    const email = await aPerson();
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect((await signIn({ email, password: `Devine-${attempt}!` })).status).toBe(401);
    }
    const right = await signIn({ email, password });
    expect(right.status).toBe(429);
    expect(right.body).toEqual(errorBody('rate_limited'));
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another person is not held back.
    expect((await signIn({ email: await aPerson(), password })).status).toBe(200);
  });

  it.each([
    ['not JSON', '{"email":'],
    ['a JSON array', '[]'],
    ['no password', { email: 'a@acme.test' }],
    ['an unknown field', { email: 'a@acme.test', password, remember: true }],
    ['a number for the e-mail', { email: 42, password }],
    ['no address', { email: 'personne', password }],
  ])('answers %s with 400', async (_case, body) => {
    const response = await signIn(body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: 'bad_request', message: expect.any(String) } });
  });
});

describe('POST /session/refresh and DELETE /session', () => {
  it('refreshes an access token, which then works', async () => {
    const session = await signedIn(await aPerson());
    const response = await api.request('POST', '/session/refresh', { body: { refresh_token: session.refresh_token } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ access_token: expect.any(String), expires_in: expect.any(Number) });
    expect((await myWorkspaces((response.body as Session).access_token)).status).toBe(200);
  });

  it('refuses an unknown refresh token with 401', async () => {
    const response = await api.request('POST', '/session/refresh', { body: { refresh_token: 'pas-un-jeton' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(errorBody('unauthorized'));
  });

  it('signs out: the same access token and its refresh token fail from the next call; a new sign-in works', async () => {
    const email = await aPerson();
    const session = await signedIn(email);
    const out = await api.request('DELETE', '/session', { headers: bearer(session.access_token) });
    expect(out.status).toBe(204);
    expect(out.text).toBe('');
    expect((await myWorkspaces(session.access_token)).status).toBe(401);
    const refresh = await api.request('POST', '/session/refresh', { body: { refresh_token: session.refresh_token } });
    expect(refresh.status).toBe(401);
    const again = await signedIn(email);
    expect((await myWorkspaces(again.access_token)).status).toBe(200);
  });
});

describe('POST /session/password', () => {
  it('changes the password with the current one; a wrong current password is 401', async () => {
    const email = await aPerson();
    const { access_token } = await signedIn(email);
    const change = (body: unknown) => api.request('POST', '/session/password', { headers: bearer(access_token), body });
    const wrong = await change({ password: 'Pas-le-bon-1!', new_password: 'Nouveau-Passw0rd!' });
    expect(wrong.status).toBe(401);
    expect((await change({ password, new_password: 'faible' })).status).toBe(400);
    expect((await change({ password, new_password: 'Nouveau-Passw0rd!' })).status).toBe(204);
    expect((await signIn({ email, password })).status).toBe(401);
    expect((await signIn({ email, password: 'Nouveau-Passw0rd!' })).status).toBe(200);
  });
});

describe('a password change or reset ends the other sessions', () => {
  const refresh = (refreshToken: string) =>
    api.request('POST', '/session/refresh', { body: { refresh_token: refreshToken } });
  const theWorkspace = (token: string) =>
    api.request('GET', `/workspaces/${ws.workspace_id}`, { headers: bearer(token) });
  /** The statuses of an access token on a settings route without a workspace, and on one of the workspace. */
  const statusesOf = async (token: string) => [(await myWorkspaces(token)).status, (await theWorkspace(token)).status];

  it('after a change from session 1, session 2 fails on its next call and refresh; session 1 keeps working', async () => {
    const email = await aPerson();
    const one = await signedIn(email);
    const two = await signedIn(email);
    const change = await api.request('POST', '/session/password', {
      headers: bearer(one.access_token),
      body: { password, new_password: 'Nouveau-Passw0rd!' },
    });
    expect(change.status).toBe(204);
    expect(await statusesOf(two.access_token)).toEqual([401, 401]);
    const refusedRefresh = await refresh(two.refresh_token);
    expect(refusedRefresh.status).toBe(401);
    expect(refusedRefresh.body).toEqual(errorBody('unauthorized'));

    expect(await statusesOf(one.access_token)).toEqual([200, 200]);
    const refreshed = await refresh(one.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(await statusesOf((refreshed.body as Session).access_token)).toEqual([200, 200]);
    // The session stays, past the change: it refreshes again, and the token it had still works.
    const again = await refresh(one.refresh_token);
    expect(again.status).toBe(200);
    expect(await statusesOf((again.body as Session).access_token)).toEqual([200, 200]);
    expect(await statusesOf(one.access_token)).toEqual([200, 200]);
    // A sign-in right after the change, within its second as likely as not, opens a session that works.
    const three = await signedIn(email, 'Nouveau-Passw0rd!');
    expect(await statusesOf(three.access_token)).toEqual([200, 200]);
    expect((await refresh(three.refresh_token)).status).toBe(200);
  });

  it('after a reset, every session fails; a sign-in with the new password works', async () => {
    const email = await aPerson();
    const one = await signedIn(email);
    const two = await signedIn(email);
    const started = await api.request('POST', '/password-reset', { body: { email } });
    const { code } = started.body as { code: string };
    const confirmed = await api.request('POST', '/password-reset/confirm', {
      body: { email, code, new_password: 'Oublie-Passw0rd!' },
    });
    expect(confirmed.status).toBe(204);
    for (const session of [one, two]) {
      expect(await statusesOf(session.access_token)).toEqual([401, 401]);
      expect((await refresh(session.refresh_token)).status).toBe(401);
    }
    const after = await signedIn(email, 'Oublie-Passw0rd!');
    expect(await statusesOf(after.access_token)).toEqual([200, 200]);
    expect((await refresh(after.refresh_token)).status).toBe(200);
  });

  it('a wrong current password ends nothing', async () => {
    const email = await aPerson();
    const one = await signedIn(email);
    const two = await signedIn(email);
    const wrong = await api.request('POST', '/session/password', {
      headers: bearer(one.access_token),
      body: { password: 'Pas-le-bon-1!', new_password: 'Nouveau-Passw0rd!' },
    });
    expect(wrong.status).toBe(401);
    expect(await statusesOf(two.access_token)).toEqual([200, 200]);
    expect((await refresh(two.refresh_token)).status).toBe(200);
  });
});

describe('POST /password-reset and /password-reset/confirm', () => {
  it('sends a code (answered locally for a known e-mail), refuses another code, and resets with it', async () => {
    const email = await aPerson();
    const started = await api.request('POST', '/password-reset', { body: { email } });
    expect(started.status).toBe(202);
    const { code } = started.body as { code: string };
    expect(code).toEqual(expect.any(String));
    const confirm = (body: object) =>
      api.request('POST', '/password-reset/confirm', { body: { email, new_password: 'Oublie-Passw0rd!', ...body } });
    const wrong = await confirm({ code: code === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(errorBody('bad_request', { field: 'code', message: expect.any(String) }));
    expect((await confirm({ code })).status).toBe(204);
    expect((await signIn({ email, password: 'Oublie-Passw0rd!' })).status).toBe(200);
  });

  it('answers 202 without a code for an unknown e-mail', async () => {
    const started = await api.request('POST', '/password-reset', {
      body: { email: `nobody-${randomUUID()}@acme.test` },
    });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({});
  });

  it('answers a bad body with 400', async () => {
    expect((await api.request('POST', '/password-reset', { body: { mail: 'a@acme.test' } })).status).toBe(400);
    expect((await api.request('POST', '/password-reset/confirm', { body: '{' })).status).toBe(400);
  });
});

describe('the access token and nothing else, only on the settings routes', () => {
  const poolKey = localPoolSigningKey();
  const claimsOf = (email: string, extra: Record<string, unknown> = {}) => ({
    ...accessClaims({ issuer, clientId, email }),
    ...extra,
  });

  it('the local pool key signs tokens the service accepts: the cases below fail for their claim alone', async () => {
    const email = await aPerson();
    expect((await myWorkspaces(signedToken(poolKey, claimsOf(email)))).status).toBe(200);
  });

  it.each([
    ['of another user pool', { iss: `${issuer}-other` }],
    ['expired', { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }],
    ['an id token', { token_use: 'id', aud: clientId }],
    ['of another app client', { client_id: 'another-client' }],
  ])('refuses a token %s with 401', async (_case, extra) => {
    const email = await aPerson();
    const response = await myWorkspaces(signedToken(poolKey, claimsOf(email, extra)));
    expect(response.status).toBe(401);
    expect(response.body).toEqual(errorBody('unauthorized'));
  });

  it('refuses a token signed by another key, an altered token and an unsigned one (alg none)', async () => {
    const email = await aPerson();
    const { access_token } = await signedIn(email);
    const [header, , signature] = access_token.split('.');
    const altered = Buffer.from(JSON.stringify(claimsOf(`other-${email}`))).toString('base64url');
    const unsigned = signedToken(poolKey, claimsOf(email), { alg: 'none', typ: 'JWT', kid: 'CognitoLocal' });
    for (const token of [
      signedToken(aSigningKey('CognitoLocal'), claimsOf(email)),
      `${header}.${altered}.${signature}`,
      unsigned,
    ]) {
      expect((await myWorkspaces(token)).status).toBe(401);
    }
  });

  it.each(['access_token', 'token', 'api_key', 'apikey', 'key'])(
    'refuses a valid token when the query also carries %s',
    async (name) => {
      const { access_token } = await signedIn(await aPerson());
      expect((await myWorkspaces(access_token, { [name]: access_token })).status).toBe(401);
    },
  );

  it('refuses the API key and the webhook token on a settings route', async () => {
    for (const secret of [ws.api_keys.admin?.secret, ws.webhook?.token]) {
      const response = await myWorkspaces(secret as string);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(errorBody('unauthorized'));
    }
  });

  it('refuses the access token on the Prospect API and on the webhooks', async () => {
    const { access_token } = await signedIn(await aPerson());
    expect((await api.request('GET', '/pipelines', { headers: bearer(access_token) })).status).toBe(401);
    const webhook = (path: string) =>
      api.request('POST', path, {
        query: { endpoint_id: ws.webhook?.endpoint_id as string },
        headers: bearer(access_token),
        body: { email: `${randomUUID()}@test.fr`, name: 'Zoé', position: 'Dev' },
      });
    expect((await webhook('/webhooks/ingest-lead')).status).toBe(401);
    expect((await webhook('/webhooks/recruitment')).status).toBe(401);
  });
});
