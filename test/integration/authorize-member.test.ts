import { randomUUID } from 'node:crypto';
import { createAuthorizer } from '../../functions/authorizer';
import { authorize, type AuthorizerDeps } from '../../lib/auth/authorize';
import { decodeDecision } from '../../lib/auth/context';
import { productionDeps } from '../../lib/storage/client';
import { createMemberTokenVerifier } from '../../lib/identity/member-token';
import { routes, type Route } from '../../lib/routes';
import { recordSignOut } from '../../lib/storage/people';
import { accessClaims, aSigningKey, signedToken } from '../support/access-tokens';
import { putMembershipDirectly } from '../support/memberships';
import { countRoundTrips } from '../support/round-trips';

const production = productionDeps();
const roundTrips = countRoundTrips(production.db);
/** What each call asked for: the authorizer's reads must be strongly consistent. */
const sent: unknown[] = [];
production.db.middlewareStack.add(
  (next) => async (args) => {
    sent.push(args.input);
    return next(args);
  },
  { step: 'initialize', name: 'sentInputs' },
);
const issuer = 'http://127.0.0.1:1/local_test';
const clientId = 'service-client';
const key = aSigningKey();
const deps: AuthorizerDeps = {
  db: production.db,
  tableName: production.tableName,
  clock: () => new Date(),
  memberTokens: createMemberTokenVerifier({ issuer, clientId, jwks: key.jwks }),
};
afterAll(() => production.db.destroy());

/** A settings route under a workspace, for the tests (the list of 7.2 lands with the members' routes). */
const workspaceRoute = (role: 'admin' | 'member'): Route => ({
  id: `test-${role}`,
  method: 'GET',
  path: '/workspaces/{workspace_id}/test',
  credential: 'member-token',
  errorShape: 'standard',
  role,
});

const anEmail = () => `person-${randomUUID()}@acme.test`;
const tokenOf = (email: string, extra: Record<string, unknown> = {}) =>
  signedToken(key, { ...accessClaims({ issuer, clientId, email }), ...extra });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The decision for one request, as authorize() decides it for a route not in the list (the route given). */
async function decideFor(
  route: Route,
  request: { headers?: Record<string, string>; workspaceId?: string; query?: Record<string, string> },
) {
  const list = routes as Route[];
  list.push(route);
  try {
    return await authorize(deps, {
      method: route.method,
      resource: route.path,
      pathParameters: request.workspaceId === undefined ? null : { workspace_id: request.workspaceId },
      headers: request.headers ?? null,
      query: request.query ?? null,
    });
  } finally {
    list.splice(list.indexOf(route), 1);
  }
}

describe('the authorizer on a settings route under a workspace', () => {
  const workspaceId = randomUUID();

  it('lets a member in with their membership, in one strongly consistent BatchGetItem', async () => {
    const email = anEmail();
    const memberId = randomUUID();
    await putMembershipDirectly(deps, { email, workspaceId, memberId, role: 'member' });
    roundTrips.reset();
    const decision = await decideFor(workspaceRoute('member'), { headers: bearer(tokenOf(email)), workspaceId });
    expect(decision).toMatchObject({
      outcome: 'allowed',
      principal: { kind: 'member', email, membership: { workspaceId, memberId, role: 'member' } },
    });
    expect(roundTrips.calls).toEqual(['BatchGetItem']);
    expect(sent.at(-1)).toMatchObject({ RequestItems: { [deps.tableName]: { ConsistentRead: true } } });
  });

  it('reads the workspace id decoded and lower-cased', async () => {
    const email = anEmail();
    await putMembershipDirectly(deps, { email, workspaceId, memberId: randomUUID(), role: 'admin' });
    const upper = encodeURIComponent(workspaceId.toUpperCase());
    const decision = await decideFor(workspaceRoute('admin'), { headers: bearer(tokenOf(email)), workspaceId: upper });
    expect(decision).toMatchObject({ outcome: 'allowed', principal: { membership: { workspaceId } } });
  });

  it('answers not_found for a workspace the person is not a member of, or an id that is no workspace id', async () => {
    const email = anEmail();
    await putMembershipDirectly(deps, { email, workspaceId, memberId: randomUUID(), role: 'admin' });
    const headers = bearer(tokenOf(email));
    await expect(decideFor(workspaceRoute('member'), { headers, workspaceId: randomUUID() })).resolves.toEqual({
      outcome: 'not_found',
    });
    await expect(decideFor(workspaceRoute('member'), { headers, workspaceId: 'not-a-uuid' })).resolves.toEqual({
      outcome: 'not_found',
    });
  });

  it('answers forbidden to a member on an admin route', async () => {
    const email = anEmail();
    await putMembershipDirectly(deps, { email, workspaceId, memberId: randomUUID(), role: 'member' });
    const decision = await decideFor(workspaceRoute('admin'), { headers: bearer(tokenOf(email)), workspaceId });
    expect(decision.outcome).toBe('forbidden');
  });

  it('refuses a token issued up to the second of the cut-off but a kept one, and the token that signed out', async () => {
    const email = anEmail();
    await putMembershipDirectly(deps, { email, workspaceId, memberId: randomUUID(), role: 'member' });
    const now = Math.floor(Date.now() / 1000);
    await recordSignOut(deps, email, {
      signed_out_at: now,
      signed_out_at_ms: now * 1000 + 500,
      token_id: 'signing-out',
      kept_token_ids: ['kept'],
    });
    const route = workspaceRoute('member');
    const decide = (token: string) => decideFor(route, { headers: bearer(token), workspaceId });
    await expect(decide(tokenOf(email, { iat: now - 1 }))).resolves.toEqual({ outcome: 'unauthorized' });
    // Issued in the second of the cut-off: before or after it, its `iat` cannot tell.
    await expect(decide(tokenOf(email, { iat: now }))).resolves.toEqual({ outcome: 'unauthorized' });
    await expect(decide(tokenOf(email, { iat: now + 1, jti: 'signing-out' }))).resolves.toEqual({
      outcome: 'unauthorized',
    });
    await expect(decide(tokenOf(email, { iat: now, jti: 'kept' }))).resolves.toMatchObject({ outcome: 'allowed' });
    await expect(decide(tokenOf(email, { iat: now + 1 }))).resolves.toMatchObject({ outcome: 'allowed' });
  });

  it.each([
    ['no Authorization header', {}],
    ['an API key', bearer('crm_key_abc')],
    ['a webhook token', bearer('crm_whk_abc')],
    [
      'a token of another pool',
      bearer(signedToken(key, accessClaims({ issuer: 'http://x/other', clientId, email: 'a@b.fr' }))),
    ],
    [
      'a token signed with alg none',
      bearer(signedToken(key, accessClaims({ issuer, clientId, email: 'a@b.fr' }), { alg: 'none' })),
    ],
  ])('refuses %s as unauthorized, without reading the table', async (_case, headers) => {
    roundTrips.reset();
    await expect(decideFor(workspaceRoute('member'), { headers, workspaceId })).resolves.toEqual({
      outcome: 'unauthorized',
    });
    expect(roundTrips.calls).toEqual([]);
  });

  it.each(['access_token', 'token', 'api_key', 'apikey', 'key', 'ACCESS_TOKEN'])(
    'refuses a credential in the query parameter %s, even with a valid header',
    async (name) => {
      const email = anEmail();
      await putMembershipDirectly(deps, { email, workspaceId, memberId: randomUUID(), role: 'admin' });
      const headers = bearer(tokenOf(email));
      const decision = await decideFor(workspaceRoute('member'), { headers, workspaceId, query: { [name]: 'x' } });
      expect(decision).toEqual({ outcome: 'unauthorized' });
    },
  );
});

describe('the authorizer on a signed-in route without a workspace', () => {
  const listMine = routes.find((route) => route.id === 'listMyWorkspaces') as Route;

  it('reads the sign-out alone, with one GetItem', async () => {
    const email = anEmail();
    roundTrips.reset();
    const decision = await decideFor(listMine, { headers: bearer(tokenOf(email)) });
    expect(decision).toMatchObject({ outcome: 'allowed', principal: { kind: 'member', email } });
    expect(roundTrips.calls).toEqual(['GetItem']);
    expect(sent.at(-1)).toMatchObject({ ConsistentRead: true });
  });

  it('carries the member through the context to the route, e-mail and token id included', async () => {
    const email = anEmail();
    const authorizer = createAuthorizer(deps);
    const result = await authorizer({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:eu-west-3:123456789012:api/local/GET/workspaces',
      resource: listMine.path,
      path: listMine.path,
      httpMethod: listMine.method,
      headers: bearer(tokenOf(email, { jti: 'token-1' })),
      multiValueHeaders: {},
      pathParameters: null,
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      stageVariables: null,
      requestContext: {} as never,
    });
    expect(result.principalId).toBe('member');
    expect(decodeDecision(result.context)).toMatchObject({
      outcome: 'allowed',
      principal: { kind: 'member', email, tokenId: 'token-1' },
    });
  });
});
