import { isUuid, type MemberPrincipal } from '../domain/model';
import { findRoute, type Route } from '../routes';
import { fingerprint, getApiKeyByFingerprint, checkTokenAndStampLastCall } from '../storage/credentials';
import type { Store } from '../storage/client';
import { readMembershipAndSignOut, readSignOut, tokenSignedOut } from '../storage/people';
import type { MemberTokenVerifier } from '../identity/member-token';
import { admittedWebhookCall, grants, type AuthDecision } from './context';

/**
 * What the authorizer reads and writes with: it counts no business metric. `memberTokens`: absent where no user
 * pool is configured, and then no settings call is let in.
 */
export type AuthorizerDeps = Store & { clock: () => Date; memberTokens?: MemberTokenVerifier | undefined };

export type AuthRequest = {
  method: string;
  /** The route's path template, e.g. /prospects/{prospect_id}. */
  resource: string;
  /** As API Gateway passes them: still percent-encoded. */
  pathParameters?: Record<string, string | undefined> | null;
  headers: Record<string, string | undefined> | null;
  query: Record<string, string | undefined> | null;
};

/** A credential in the URL ends up in logs and browser histories: refused outright (API key and settings routes). */
const credentialQueryParameters = new Set(['api_key', 'apikey', 'key', 'token', 'access_token']);

export async function authorize(deps: AuthorizerDeps, request: AuthRequest): Promise<AuthDecision> {
  const route = findRoute(request.method, request.resource);
  if (!route) return { outcome: 'unauthorized' };
  switch (route.credential) {
    case 'api-key':
      return authorizeApiKey(deps, route, request);
    case 'webhook-token':
      return authorizeWebhook(deps, request);
    case 'member-token':
      return authorizeMember(deps, route, request);
    case 'none':
      return { outcome: 'anonymous' };
  }
}

const credentialInQuery = (request: AuthRequest): boolean =>
  Object.keys(request.query ?? {}).some((name) => credentialQueryParameters.has(name.toLowerCase()));

async function authorizeApiKey(deps: Store, route: Route, request: AuthRequest): Promise<AuthDecision> {
  if (credentialInQuery(request)) return { outcome: 'unauthorized' };
  const secret = bearerToken(header(request.headers, 'authorization'));
  if (secret === undefined) return { outcome: 'unauthorized' };
  const key = await getApiKeyByFingerprint(deps, fingerprint(secret));
  if (!key || key.revoked_at) return { outcome: 'unauthorized' };
  const principal = { kind: 'api-key', workspaceId: key.workspace_id, keyId: key.id, scopes: key.scopes } as const;
  return { outcome: grants(key.scopes, route.scope) ? 'allowed' : 'forbidden', principal };
}

/**
 * A settings call (docs/api.md#sign-in, #settings-api; docs/adr/0013-member-sign-in.md): a member's access token,
 * verified offline, then the person's rights read strongly consistent in one round trip, never cached: under
 * /workspaces/{workspace_id}, one BatchGetItem of their membership and their last sign-out; elsewhere, one GetItem of
 * the sign-out.
 */
async function authorizeMember(deps: AuthorizerDeps, route: Route, request: AuthRequest): Promise<AuthDecision> {
  if (credentialInQuery(request)) return { outcome: 'unauthorized' };
  if (deps.memberTokens === undefined) throw new Error('No user pool configured for a settings route');
  const token = bearerToken(header(request.headers, 'authorization'));
  const claims = token === undefined ? undefined : await deps.memberTokens.verify(token);
  if (claims === undefined) return { outcome: 'unauthorized' };
  const principal: MemberPrincipal = { kind: 'member', ...claims };
  if (!route.path.includes('{workspace_id}')) {
    return tokenSignedOut(await readSignOut(deps, claims.email), claims)
      ? { outcome: 'unauthorized' }
      : { outcome: 'allowed', principal };
  }
  const workspaceId = workspaceIdOf(request);
  // A workspace id that cannot be one is a workspace this person is not a member of.
  if (workspaceId === undefined) return { outcome: 'not_found' };
  const { membership, signOut } = await readMembershipAndSignOut(deps, claims.email, workspaceId);
  if (tokenSignedOut(signOut, claims)) return { outcome: 'unauthorized' };
  if (membership === undefined) return { outcome: 'not_found' };
  const member = {
    ...principal,
    membership: { workspaceId, memberId: membership.member_id, role: membership.role },
  };
  const allowed = route.role !== 'admin' || membership.role === 'admin';
  return { outcome: allowed ? 'allowed' : 'forbidden', principal: member };
}

function workspaceIdOf(request: AuthRequest): string | undefined {
  try {
    const value = decodeURIComponent(request.pathParameters?.workspace_id ?? '');
    return isUuid(value) ? value.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

async function authorizeWebhook(deps: AuthorizerDeps, request: AuthRequest): Promise<AuthDecision> {
  const endpointId = request.query?.endpoint_id;
  if (endpointId === undefined || endpointId === '') return { outcome: 'endpoint_missing' };
  if (!isUuid(endpointId)) return { outcome: 'endpoint_malformed' };
  const token = webhookToken(request);
  const call = await checkTokenAndStampLastCall(
    deps,
    endpointId.toLowerCase(),
    token === undefined ? undefined : fingerprint(token),
    deps.clock(),
  );
  if (call.kind === 'unknown_endpoint') return { outcome: 'endpoint_unknown' };
  if (call.kind === 'refused') {
    return {
      outcome: 'unauthorized',
      refusedEndpoint: { workspaceId: call.endpoint.workspace_id, endpointId: call.endpoint.id },
    };
  }
  return admittedWebhookCall(call.endpoint);
}

/**
 * Authorization: Bearer, then x-webhook-token, then ?token= (docs/api.md#token-places). A header counts only
 * when it carries a non-empty token; once one counts, the later places are not read, even when
 * its token is wrong.
 */
export function webhookToken(request: Pick<AuthRequest, 'headers' | 'query'>): string | undefined {
  const fromAuthorization = bearerToken(header(request.headers, 'authorization'));
  if (fromAuthorization !== undefined) return fromAuthorization;
  const fromHeader = header(request.headers, 'x-webhook-token')?.trim();
  if (fromHeader) return fromHeader;
  const fromQuery = request.query?.token?.trim();
  return fromQuery ? fromQuery : undefined;
}

function bearerToken(value: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S.*)$/i.exec(value?.trim() ?? '');
  return match?.[1]?.trim() || undefined;
}

/** API Gateway keeps header names as the client sent them: look them up case-insensitively. */
function header(headers: AuthRequest['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  const found = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return found === undefined ? undefined : headers[found];
}
