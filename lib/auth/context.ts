import type { PolicyDocument } from 'aws-lambda';
import {
  phoneSettingsOf,
  type ApiKeyPrincipal,
  type MemberPrincipal,
  type MemberRole,
  type PhoneSettings,
  type WebhookPrincipal,
} from '../domain/model';
import { allScopes, type Scope } from '../routes';

/**
 * The authorizer ↔ handler contract (docs/architecture.md).
 *
 * The authorizer always answers Allow with one of these outcomes in its context, never Deny or
 * "Unauthorized": API Gateway would then answer with one status per gateway-response type,
 * while the API answers 400, 401, 403 or 404 depending on the case, with two different error
 * bodies (docs/api.md#webhook-endpoint-checks, docs/api.md#error-bodies). Every handler goes
 * through the gate of its credential (in lib/http/middleware/: api-key-gate.ts for the Prospect API, webhook.ts for
 * the webhooks, member-gate.ts for the settings API), which turns any outcome other than `allowed` (or `anonymous`,
 * on a sign-in route) into the route's exact error before business code runs.
 *
 * `not_found`: a signed-in person on a workspace they are not (or no longer) a member of (docs/api.md#sign-in: 404, as
 * another workspace's prospect); `anonymous`: a sign-in route, which carries its own proof (nothing read).
 */
export type AuthOutcome =
  | 'allowed'
  | 'forbidden'
  | 'unauthorized'
  | 'not_found'
  | 'anonymous'
  | 'endpoint_missing'
  | 'endpoint_malformed'
  | 'endpoint_unknown'
  | 'failed';

export type AuthDecision =
  | { outcome: 'allowed' | 'forbidden'; principal: ApiKeyPrincipal }
  | { outcome: 'allowed'; principal: WebhookPrincipal }
  | { outcome: 'allowed' | 'forbidden'; principal: MemberPrincipal }
  /**
   * A known webhook endpoint that refused the call (wrong token, disabled): the handler journals
   * the call for that endpoint's workspace, storing none of its values (docs/api.md#webhook-call-journal).
   */
  | { outcome: 'unauthorized'; refusedEndpoint: Omit<WebhookPrincipal, 'kind' | 'phone'> }
  | { outcome: Exclude<AuthOutcome, 'allowed' | 'forbidden'> };

/** What a webhook call is admitted by: its endpoint, and the workspace's phone settings the endpoint carries. */
export type AdmittedEndpoint = { id: string; workspace_id: string } & Partial<PhoneSettings>;

/**
 * What a webhook handler is given for a call of `endpoint` that is let in: its workspace, the
 * endpoint, and the workspace's settings the endpoint carries (phone matching, ADR 0009). The one
 * builder, for the calls the authorizer admits (lib/auth/authorize.ts) and for the admin's replays
 * (lib/settings/webhook-call-replay.ts), so that a replay runs as a live call of that endpoint would.
 */
export function admittedWebhookCall(endpoint: AdmittedEndpoint): AuthDecision {
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

/** API Gateway passes only flat string, number and boolean values; this contract uses strings. */
export type AuthorizerContext = Record<string, string>;

export function encodeDecision(decision: AuthDecision): AuthorizerContext {
  if ('refusedEndpoint' in decision) {
    const { workspaceId, endpointId } = decision.refusedEndpoint;
    return { outcome: decision.outcome, kind: 'webhook', workspaceId, endpointId };
  }
  if (!('principal' in decision)) return { outcome: decision.outcome };
  const { principal } = decision;
  if (principal.kind === 'member') return encodeMember(decision.outcome, principal);
  return principal.kind === 'api-key'
    ? {
        outcome: decision.outcome,
        kind: principal.kind,
        workspaceId: principal.workspaceId,
        keyId: principal.keyId,
        scopes: principal.scopes.join(' '),
      }
    : {
        outcome: decision.outcome,
        kind: principal.kind,
        workspaceId: principal.workspaceId,
        endpointId: principal.endpointId,
        ...(principal.phone === undefined
          ? {}
          : { phoneMatching: principal.phone.phone_matching, phoneRegion: principal.phone.phone_region }),
      };
}

/** The e-mail travels to the route's function only, in this context: never logged (lib/observability.ts). */
function encodeMember(outcome: AuthOutcome, principal: MemberPrincipal): AuthorizerContext {
  const { membership } = principal;
  return {
    outcome,
    kind: principal.kind,
    email: principal.email,
    tokenId: principal.tokenId,
    issuedAt: String(principal.issuedAt),
    ...(membership === undefined
      ? {}
      : { workspaceId: membership.workspaceId, memberId: membership.memberId, role: membership.role }),
  };
}

const roles: readonly MemberRole[] = ['admin', 'member'];

function decodeMember(outcome: 'allowed' | 'forbidden', text: (name: string) => string | undefined): AuthDecision {
  const [email, tokenId, issuedAt] = [text('email'), text('tokenId'), Number(text('issuedAt'))];
  if (email === undefined || tokenId === undefined || !Number.isInteger(issuedAt)) return { outcome: 'unauthorized' };
  const [workspaceId, memberId] = [text('workspaceId'), text('memberId')];
  const role = roles.find((candidate) => candidate === text('role'));
  const membership =
    workspaceId !== undefined && memberId !== undefined && role !== undefined
      ? { workspaceId, memberId, role }
      : undefined;
  return { outcome, principal: { kind: 'member', email, tokenId, issuedAt, ...(membership ? { membership } : {}) } };
}

const outcomes: readonly AuthOutcome[] = [
  'allowed',
  'forbidden',
  'unauthorized',
  'not_found',
  'anonymous',
  'endpoint_missing',
  'endpoint_malformed',
  'endpoint_unknown',
  'failed',
];

/** Anything unexpected (no authorizer context at all, a missing field) reads as `unauthorized`. */
export function decodeDecision(context: Record<string, unknown> | null | undefined): AuthDecision {
  const text = (name: string): string | undefined => {
    const value = context?.[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const outcome = outcomes.find((candidate) => candidate === text('outcome'));
  if (outcome === undefined) return { outcome: 'unauthorized' };
  const workspaceId = text('workspaceId');
  const endpointId = text('endpointId');
  if (outcome === 'unauthorized' && text('kind') === 'webhook' && workspaceId && endpointId) {
    return { outcome, refusedEndpoint: { workspaceId, endpointId } };
  }
  if (outcome !== 'allowed' && outcome !== 'forbidden') return { outcome };
  const kind = text('kind');
  if (kind === 'member') return decodeMember(outcome, text);
  if (workspaceId === undefined) return { outcome: 'unauthorized' };
  const keyId = text('keyId');
  if (kind === 'api-key' && keyId !== undefined) {
    return { outcome, principal: { kind, workspaceId, keyId, scopes: (text('scopes') ?? '').split(' ') } };
  }
  if (kind === 'webhook' && endpointId !== undefined && outcome === 'allowed') {
    // Absent or unreadable phone settings read as the defaults (exact matching, region FR).
    const phone = phoneSettingsOf({ phone_matching: text('phoneMatching'), phone_region: text('phoneRegion') });
    return { outcome, principal: { kind, workspaceId, endpointId, phone } };
  }
  return { outcome: 'unauthorized' };
}

export function grants(scopes: readonly string[], needed: Scope | undefined): boolean {
  return needed === undefined || scopes.includes('*') || scopes.includes(needed);
}

export const isScope = (value: string): value is Scope => (allScopes as readonly string[]).includes(value);

/**
 * The resource the authorizer's policy allows: every method and path of the stage it was called
 * for, `arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/*\/*`, built from the first parts of
 * the method ARN, so the answer's size no longer grows with the request path.
 *
 * The method ARN is `arn:aws:execute-api:{region}:{account}:{api-id}/{stage}/{method}/{resource path}`
 * ("Amazon API Gateway quotas", https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html;
 * "Control access to an API with IAM permissions",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/permissions.html). Results are never cached
 * (`resultsCacheTtl: 0`, docs/architecture.md), so this policy serves this one request only: the
 * wildcard does not widen access across requests, and the decision stays in the context.
 *
 * An ARN of another form (never sent by API Gateway) is allowed as is, as before.
 */
export function stageWideResource(methodArn: string): string {
  const match = /^(arn:[^:]+:execute-api:[^:]+:[^:]+:[^/]+\/[^/]+)\/[^/]+\//.exec(methodArn);
  return match ? `${match[1]}/*/*` : methodArn;
}

/** Always Allow (docs/architecture.md, "Authorizer contract"): the decision travels in the context. */
export function allowStagePolicy(methodArn: string): PolicyDocument {
  return {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: stageWideResource(methodArn) }],
  };
}
