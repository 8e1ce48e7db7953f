import { isUuid } from '../ids';
import { findRoute, type Route } from '../routes';
import {
  fingerprint,
  getApiKeyByFingerprint,
  checkTokenAndStampLastCall,
  type EndpointItem,
} from '../storage/credentials';
import type { Store } from '../storage/client';
import { phoneSettingsOf } from '../domain/model';
import { grants, type AuthDecision } from './context';

/** What the authorizer reads and writes with: it counts no business metric. */
export type AuthorizerDeps = Store & { clock: () => Date };

export type AuthRequest = {
  method: string;
  /** The route's path template, e.g. /prospects/{prospect_id}. */
  resource: string;
  headers: Record<string, string | undefined> | null;
  query: Record<string, string | undefined> | null;
};

/** A Prospect API credential in the URL ends up in logs and browser histories: refused outright. */
const credentialQueryParameters = new Set(['api_key', 'apikey', 'key', 'token', 'access_token']);

export async function authorize(deps: AuthorizerDeps, request: AuthRequest): Promise<AuthDecision> {
  const route = findRoute(request.method, request.resource);
  if (!route) return { outcome: 'unauthorized' };
  return route.credential === 'api-key' ? authorizeApiKey(deps, route, request) : authorizeWebhook(deps, request);
}

async function authorizeApiKey(deps: Store, route: Route, request: AuthRequest): Promise<AuthDecision> {
  const queryNames = Object.keys(request.query ?? {}).map((name) => name.toLowerCase());
  if (queryNames.some((name) => credentialQueryParameters.has(name))) return { outcome: 'unauthorized' };
  const secret = bearerToken(header(request.headers, 'authorization'));
  if (secret === undefined) return { outcome: 'unauthorized' };
  const key = await getApiKeyByFingerprint(deps, fingerprint(secret));
  if (!key || key.revoked_at) return { outcome: 'unauthorized' };
  const principal = { kind: 'api-key', workspaceId: key.workspace_id, keyId: key.id, scopes: key.scopes } as const;
  return { outcome: grants(key.scopes, route.scope) ? 'allowed' : 'forbidden', principal };
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
 * What a webhook handler is given for a call of `endpoint` that is let in: its workspace, the
 * endpoint, and the workspace's settings the endpoint carries (phone matching, ADR 0009). The one
 * builder, for the calls this authorizer admits and for the admin's replays
 * (lib/admin/webhook-calls.ts), so that a replay runs as a live call of that endpoint would.
 */
export function admittedWebhookCall(endpoint: EndpointItem): AuthDecision {
  return {
    outcome: 'allowed',
    principal: {
      kind: 'webhook',
      workspaceId: endpoint.workspace_id,
      endpointId: endpoint.id,
      phone: phoneSettingsOf(endpoint),
    },
  };
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
