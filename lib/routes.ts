import type { MemberRole } from './domain/model';

/**
 * The one route list: what the functions read at run time (method, path, credential, scope, role, error shape).
 * What each route's function may do (its entry, table grants, identity actions…) is in infra/cdk/route-grants.ts,
 * keyed by route id, so that no function bundles it: adding a route is one line here, its grants there (the type
 * refuses a route without them) and its handler in functions/. The CDK stack creates one function per route and
 * the local server routes with the same list.
 */
/**
 * `member-token`: a member's Cognito access token (the settings API, docs/api.md#settings-api; docs/adr/0013-member-sign-in.md);
 * `none`: the sign-in routes themselves (`POST /session`, refresh, password reset), which carry their own proof.
 */
export type Credential = 'api-key' | 'webhook-token' | 'member-token' | 'none';
export type Scope = 'pipelines:read' | 'prospects:read' | 'prospects:write' | 'notes:write' | 'tags:write';
/** The two error body shapes: Prospect API and recruitment vs lead webhook (docs/api.md#error-bodies). */
export type ErrorShape = 'standard' | 'lead';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type Route = {
  id: string;
  method: HttpMethod;
  path: string;
  credential: Credential;
  scope?: Scope;
  errorShape: ErrorShape;
  /** Settings routes under /workspaces/{workspace_id}: the least role that may call it (docs/api.md#settings-api). */
  role?: MemberRole;
  /** PATCH /prospects/{id}: a body carrying `stage` also counts toward the stage-change limit. */
  countsStageChanges?: boolean;
};

/**
 * A route function's timeout (CDK): far above a normal call (tens of milliseconds) and under API
 * Gateway's 29 s integration limit. Past it, Lambda has ended the call, so an Idempotency-Key it
 * claimed and left "in flight" belongs to nobody (lib/http/middleware/idempotency.ts).
 */
export const functionTimeoutSeconds = 10;

/**
 * Bodies of the two webhooks over 256 KB are refused with the route's 400 (docs/api.md#webhook-bodies),
 * by the handler and, when declared larger, by the stack's web ACL (infra/cdk/waf-rules.ts).
 */
export const maxWebhookBodyBytes = 256 * 1024;

/**
 * On every answer of every route, success or error (lib/http/middleware/route.ts `responseHeadersAndErrors`), and on API
 * Gateway's own answers (infra/cdk/gateway-responses.ts): answers carry API keys, webhook tokens, signing secrets and
 * session tokens, so no cache (a browser's, a proxy's) may keep one (RFC 9111, section 5.2.2.5, `no-store`), and a
 * browser must read a body as the JSON it is typed as, never sniff it into HTML or a script (the Fetch standard,
 * `X-Content-Type-Options: nosniff`).
 */
export const noStoreHeaders = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const satisfies Record<string, string>;

/** Docs/api.md#scopes: a new key has all five unless told otherwise; `prospects:read` is for the read routes. */
export const allScopes: readonly Scope[] = [
  'pipelines:read',
  'prospects:read',
  'prospects:write',
  'notes:write',
  'tags:write',
];

/** Where the settings routes of one workspace live (docs/api.md#settings-api). */
export const workspaceRoutePrefix = '/workspaces/{workspace_id}';

export const isWorkspaceRoute = (route: Pick<Route, 'path'>): boolean =>
  route.path === workspaceRoutePrefix || route.path.startsWith(`${workspaceRoutePrefix}/`);

/**
 * A route list as the stack, the local server and the functions take it: refused, naming the culprits, when a route
 * under a workspace has no `role`. The authorizer admits any member of the workspace unless the route asks for
 * `admin` (lib/auth/authorize.ts), so a forgotten role would open an admin route to every member. The list below is
 * checked as it is built, and the stack checks the list it is given (infra/cdk/stack.ts), a test's included.
 */
export function checkedRoutes<R extends Route>(list: readonly R[]): readonly R[] {
  const roleless = list.filter((route) => isWorkspaceRoute(route) && route.role === undefined);
  if (roleless.length > 0) {
    const named = roleless.map((route) => `${route.id} (${route.method} ${route.path})`).join(', ');
    throw new Error(`Every route under ${workspaceRoutePrefix} names its least role (\`role\`); none for: ${named}`);
  }
  return list;
}
const routeTable = [
  {
    id: 'listPipelines',
    method: 'GET',
    path: '/pipelines',
    credential: 'api-key',
    scope: 'pipelines:read',
    errorShape: 'standard',
  },
  {
    id: 'listAssignableMembers',
    method: 'GET',
    path: '/members',
    credential: 'api-key',
    scope: 'pipelines:read',
    errorShape: 'standard',
  },
  {
    id: 'listCustomFields',
    method: 'GET',
    path: '/fields',
    credential: 'api-key',
    scope: 'pipelines:read',
    errorShape: 'standard',
  },
  {
    id: 'getProspect',
    method: 'GET',
    path: '/prospects/{prospect_id}',
    credential: 'api-key',
    scope: 'prospects:read',
    errorShape: 'standard',
  },
  {
    id: 'findProspects',
    method: 'GET',
    path: '/prospects',
    credential: 'api-key',
    scope: 'prospects:read',
    errorShape: 'standard',
  },
  {
    id: 'listNotes',
    method: 'GET',
    path: '/prospects/{prospect_id}/notes',
    credential: 'api-key',
    scope: 'prospects:read',
    errorShape: 'standard',
  },
  {
    id: 'listChanges',
    method: 'GET',
    path: '/prospects/{prospect_id}/changes',
    credential: 'api-key',
    scope: 'prospects:read',
    errorShape: 'standard',
  },
  {
    id: 'updateProspect',
    method: 'PATCH',
    path: '/prospects/{prospect_id}',
    credential: 'api-key',
    scope: 'prospects:write',
    errorShape: 'standard',
    countsStageChanges: true,
  },
  {
    id: 'addNote',
    method: 'POST',
    path: '/prospects/{prospect_id}/notes',
    credential: 'api-key',
    scope: 'notes:write',
    errorShape: 'standard',
  },
  {
    id: 'addTag',
    method: 'POST',
    path: '/prospects/{prospect_id}/tags',
    credential: 'api-key',
    scope: 'tags:write',
    errorShape: 'standard',
  },
  {
    id: 'removeTag',
    method: 'DELETE',
    path: '/prospects/{prospect_id}/tags/{tag}',
    credential: 'api-key',
    scope: 'tags:write',
    errorShape: 'standard',
  },
  {
    id: 'ingestLead',
    method: 'POST',
    path: '/webhooks/ingest-lead',
    credential: 'webhook-token',
    errorShape: 'lead',
  },
  {
    id: 'recruitment',
    method: 'POST',
    path: '/webhooks/recruitment',
    credential: 'webhook-token',
    errorShape: 'standard',
  },
  /*
   * The settings API's sign-in routes and the person's own (docs/api.md#sign-in, #settings-api;
   * docs/adr/0013-member-sign-in.md). The calls signed with the client secret need DescribeUserPoolClient only, to read
   * that secret once per cold start.
   */
  {
    id: 'signIn',
    method: 'POST',
    path: '/session',
    credential: 'none',
    errorShape: 'standard',
  },
  {
    id: 'refreshSession',
    method: 'POST',
    path: '/session/refresh',
    credential: 'none',
    errorShape: 'standard',
  },
  {
    id: 'signOut',
    method: 'DELETE',
    path: '/session',
    credential: 'member-token',
    errorShape: 'standard',
  },
  {
    id: 'changePassword',
    method: 'POST',
    path: '/session/password',
    credential: 'member-token',
    errorShape: 'standard',
  },
  {
    id: 'startPasswordReset',
    method: 'POST',
    path: '/password-reset',
    credential: 'none',
    errorShape: 'standard',
  },
  {
    id: 'confirmPasswordReset',
    method: 'POST',
    path: '/password-reset/confirm',
    credential: 'none',
    errorShape: 'standard',
  },
  {
    id: 'listMyWorkspaces',
    method: 'GET',
    path: '/workspaces',
    credential: 'member-token',
    errorShape: 'standard',
  },
  /*
   * The workspace and its settings, its tags, its custom fields, its API keys and its webhook (docs/api.md#settings-api). Each settings
   * route under a workspace counts its call on the member's rate-limit counter (RATE#, UpdateItem), after the authorizer's reads.
   */
  {
    id: 'getWorkspace',
    method: 'GET',
    path: '/workspaces/{workspace_id}',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
  },
  {
    id: 'changeWorkspace',
    method: 'PATCH',
    path: '/workspaces/{workspace_id}',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'listWorkspacePipelines',
    method: 'GET',
    path: '/workspaces/{workspace_id}/pipelines',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
  },
  {
    id: 'listTags',
    method: 'GET',
    path: '/workspaces/{workspace_id}/tags',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
  },
  {
    id: 'createTag',
    method: 'POST',
    path: '/workspaces/{workspace_id}/tags',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'renameTag',
    method: 'PATCH',
    path: '/workspaces/{workspace_id}/tags/{tag_id}',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'listFields',
    method: 'GET',
    path: '/workspaces/{workspace_id}/fields',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
  },
  {
    id: 'createField',
    method: 'POST',
    path: '/workspaces/{workspace_id}/fields',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'changeField',
    method: 'PATCH',
    path: '/workspaces/{workspace_id}/fields/{field_key}',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'deleteField',
    method: 'DELETE',
    path: '/workspaces/{workspace_id}/fields/{field_key}',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'listApiKeys',
    method: 'GET',
    path: '/workspaces/{workspace_id}/api-keys',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
  },
  {
    id: 'createApiKey',
    method: 'POST',
    path: '/workspaces/{workspace_id}/api-keys',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'revokeApiKey',
    method: 'DELETE',
    path: '/workspaces/{workspace_id}/api-keys/{key_id}',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'listApiKeyChanges',
    method: 'GET',
    path: '/workspaces/{workspace_id}/api-keys/{key_id}/changes',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
  },
  {
    id: 'getWebhook',
    method: 'GET',
    path: '/workspaces/{workspace_id}/webhook',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'generateWebhookToken',
    method: 'POST',
    path: '/workspaces/{workspace_id}/webhook/token',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'setWebhookActive',
    method: 'PATCH',
    path: '/workspaces/{workspace_id}/webhook',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  /*
   * The settings API's prospect routes (docs/api.md#settings-api, role member): the Prospect API's use cases for a
   * member of the workspace, and the change log's undo. UpdateItem on RATE#: the member's requests a minute
   * (memberGate).
   */
  {
    id: 'findWorkspaceProspects',
    method: 'GET',
    path: '/workspaces/{workspace_id}/prospects',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
  },
  {
    id: 'getWorkspaceProspect',
    method: 'GET',
    path: '/workspaces/{workspace_id}/prospects/{prospect_id}',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
  },
  {
    id: 'eraseWorkspaceProspect',
    method: 'POST',
    path: '/workspaces/{workspace_id}/prospects/{prospect_id}/erase',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'eraseWorkspaceCandidate',
    method: 'POST',
    path: '/workspaces/{workspace_id}/candidates/{candidate_id}/erase',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'exportWorkspaceProspect',
    method: 'GET',
    path: '/workspaces/{workspace_id}/prospects/{prospect_id}/export',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'exportWorkspaceCandidate',
    method: 'GET',
    path: '/workspaces/{workspace_id}/candidates/{candidate_id}/export',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'listWorkspaceProspectChanges',
    method: 'GET',
    path: '/workspaces/{workspace_id}/prospects/{prospect_id}/changes',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
  },
  {
    id: 'undoChange',
    method: 'POST',
    path: '/workspaces/{workspace_id}/changes/{entry_id}/undo',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
  },
  /*
   * A person's rights (docs/api.md#erasure-export-and-retention): their candidates found by e-mail, before their data
   * is erased or handed over.
   */
  {
    id: 'findWorkspaceCandidates',
    method: 'GET',
    path: '/workspaces/{workspace_id}/candidates',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
  },
  {
    id: 'listMembers',
    method: 'GET',
    path: '/workspaces/{workspace_id}/members',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
  },
  {
    id: 'addMember',
    method: 'POST',
    path: '/workspaces/{workspace_id}/members',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'inviteMember',
    method: 'POST',
    path: '/workspaces/{workspace_id}/members/{member_id}/invite',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'changeMemberRole',
    method: 'PATCH',
    path: '/workspaces/{workspace_id}/members/{member_id}',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'removeMember',
    method: 'DELETE',
    path: '/workspaces/{workspace_id}/members/{member_id}',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'listAudit',
    method: 'GET',
    path: '/workspaces/{workspace_id}/audit',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  /*
   * Webhook call journal and replay, subscriptions and deliveries (docs/api.md#outbound-events, #webhook-call-journal,
   * #settings-api): admin routes. Every one reads the workspace item (WS#) as its command does and counts the member's
   * requests (RATE#); a change writes its audit entry (AUDIT#).
   */
  {
    id: 'listWebhookCalls',
    method: 'GET',
    path: '/workspaces/{workspace_id}/webhook/calls',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'getWebhookCall',
    method: 'GET',
    path: '/workspaces/{workspace_id}/webhook/calls/{call_id}',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'replayWebhookCall',
    method: 'POST',
    path: '/workspaces/{workspace_id}/webhook/calls/{call_id}/replay',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'listSubscriptions',
    method: 'GET',
    path: '/workspaces/{workspace_id}/subscriptions',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'createSubscription',
    method: 'POST',
    path: '/workspaces/{workspace_id}/subscriptions',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'updateSubscription',
    method: 'PATCH',
    path: '/workspaces/{workspace_id}/subscriptions/{subscription_id}',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'deleteSubscription',
    method: 'DELETE',
    path: '/workspaces/{workspace_id}/subscriptions/{subscription_id}',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'rotateSubscriptionSecret',
    method: 'POST',
    path: '/workspaces/{workspace_id}/subscriptions/{subscription_id}/secret',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'listDeliveries',
    method: 'GET',
    path: '/workspaces/{workspace_id}/subscriptions/{subscription_id}/deliveries',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
  {
    id: 'redeliverDelivery',
    method: 'POST',
    path: '/workspaces/{workspace_id}/deliveries/{delivery_id}/redeliver',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
  },
] as const satisfies readonly Route[];

/** The id of a route of the list: the key of its grants (infra/cdk/route-grants.ts) and of its function's construct. */
export type RouteId = (typeof routeTable)[number]['id'];

export const routes: readonly (Route & { id: RouteId })[] = checkedRoutes(routeTable);

export function findRoute(method: string, resource: string): Route | undefined {
  return routes.find((route) => route.method === method && route.path === resource);
}

export function routeById(id: string): Route {
  const route = routes.find((candidate) => candidate.id === id);
  if (!route) throw new Error(`Unknown route ${id}`);
  return route;
}
