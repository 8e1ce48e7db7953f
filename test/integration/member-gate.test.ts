import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { AuthDecision } from '../../lib/auth/context';
import { productionDeps } from '../../lib/storage/client';
import type { MemberPrincipal } from '../../lib/domain/model';
import { settingsRoute } from '../../lib/http/middleware/member-gate';
import { json } from '../../lib/http/middleware/route';
import type { Route } from '../../lib/routes';
import { requestLimit } from '../../lib/storage/rate-limit';
import { aLambdaContext, aProxyEvent } from '../support/events';

const deps = productionDeps();
afterAll(() => deps.db.destroy());

const route: Route = {
  id: 'test',
  method: 'GET',
  path: '/workspaces/{workspace_id}/test',
  credential: 'member-token',
  errorShape: 'standard',
  role: 'admin',
};

/** A settings route composed as functions/*.ts compose theirs; its handler answers who it was given. */
const handler = settingsRoute(route, deps, async (_event, { principal }) =>
  json(200, { memberId: principal.membership?.memberId ?? null }),
);

const aMember = (memberId = randomUUID()): MemberPrincipal => ({
  kind: 'member',
  email: 'alice@acme.test',
  tokenId: randomUUID(),
  issuedAt: 1,
  membership: { workspaceId: randomUUID(), memberId, role: 'admin' },
});
const call = (decision: AuthDecision) => handler(aProxyEvent({ decision }), aLambdaContext());
const codeOf = (response: APIGatewayProxyResult) =>
  (JSON.parse(response.body) as { error: { code: string } }).error.code;

describe('the member gate (docs/api.md#settings-api: 401, 404, 403, then 429)', () => {
  it('lets a member in with the rate-limit headers', async () => {
    const response = await call({ outcome: 'allowed', principal: aMember() });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'RateLimit-Limit': String(requestLimit), 'RateLimit-Remaining': '119' });
  });

  it.each([
    ['unauthorized', { outcome: 'unauthorized' }, 401, 'unauthorized'],
    [
      'an API key',
      { outcome: 'allowed', principal: { kind: 'api-key', workspaceId: 'w', keyId: 'k', scopes: ['*'] } },
      401,
      'unauthorized',
    ],
    ['anonymous', { outcome: 'anonymous' }, 401, 'unauthorized'],
    ['not a member of the workspace', { outcome: 'not_found' }, 404, 'not_found'],
    ['a role below the route', { outcome: 'forbidden', principal: aMember() }, 403, 'forbidden'],
  ] as const)('answers %s with its status', async (_case, decision, status, code) => {
    const response = await call(decision as AuthDecision);
    expect(response.statusCode).toBe(status);
    expect(codeOf(response)).toBe(code);
  });

  it('answers 429 with Retry-After past 120 requests a minute of one member, and lets another member in', async () => {
    const member = aMember();
    const answers = await Promise.all(
      Array.from({ length: requestLimit + 1 }, () => call({ outcome: 'allowed', principal: member })),
    );
    const refused = answers.filter((response) => response.statusCode === 429);
    expect(refused).toHaveLength(1);
    expect(codeOf(refused[0] as APIGatewayProxyResult)).toBe('rate_limited');
    expect(refused[0]?.headers).toMatchObject({ 'Retry-After': expect.any(String), 'RateLimit-Remaining': '0' });
    expect((await call({ outcome: 'allowed', principal: aMember() })).statusCode).toBe(200);
  });
});
