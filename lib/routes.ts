import type { MemberRole } from './domain/model';

/**
 * How a route's caller proves who they are. `api-key`: the Prospect API's keys; `webhook-token`: a webhook's token;
 * `member-token`: a member's Cognito access token (the settings API, docs/api.md#settings-api;
 * docs/adr/0013-member-sign-in.md);
 * `none`: the sign-in routes themselves (`POST /session`, refresh, password reset), which carry their own proof.
 */
export type Credential = 'api-key' | 'webhook-token' | 'member-token' | 'none';
/**
 * The user-pool actions a function calls (IAM on the pool's ARN, granted from this list like table actions).
 * The public calls signed with the client secret (InitiateAuth, RespondToAuthChallenge, ChangePassword,
 * ForgotPassword, ConfirmForgotPassword) need no IAM permission.
 */
export type IdentityAction = 'DescribeUserPoolClient' | 'AdminCreateUser' | 'AdminSetUserPassword' | 'AdminGetUser';
export type Scope = 'pipelines:read' | 'prospects:read' | 'prospects:write' | 'notes:write' | 'tags:write';
/** The two error body shapes: Prospect API and recruitment vs lead webhook (docs/api.md#error-bodies). */
export type ErrorShape = 'standard' | 'lead';
/**
 * The table actions a function performs; the stack grants exactly these, each confined to the
 * partition-key prefixes of the route's `tableKeys` (infra/cdk/table-access.ts).
 */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem'
  | 'TransactWriteItems';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The partition-key prefixes of docs/data-model.md: all IAM can tell items apart by (`dynamodb:LeadingKeys`). */
export type KeyPrefix =
  | 'WS#'
  | 'APIKEY#'
  | 'ENDPOINT#'
  | 'PROSPECT#'
  | 'CANDIDATE#'
  | 'UNIQ#'
  | 'RATE#'
  | 'IDEM#'
  | 'CALL#'
  | 'DELIVERY#'
  | 'PERSON#'
  | 'SESSION#'
  | 'AUDIT#'
  | 'IDP#';

/**
 * The table's indexes, named here so that the route list reads no table definition: the stack
 * refuses an index that infra/cdk/table-definition.ts does not define (infra/cdk/table-access.ts).
 */
export type IndexName = 'gsi1' | 'gsi2' | 'gsi3' | 'gsi4';

/** What IAM evaluates: a transaction's items count as the PutItem, UpdateItem, DeleteItem or ConditionCheckItem they are. */
export type ItemAction = Exclude<TableAction, 'TransactWriteItems'>;

/**
 * Which partitions a function touches, per action it is granted: the stack turns each list into a
 * `ForAllValues:StringLike` condition on `dynamodb:LeadingKeys` (guarded against an absent key),
 * so a function reaches no partition it does not list for that action (infra/cdk/table-access.ts).
 * Every item action of `tableActions` needs its list, and only those (but Query, which may read
 * indexes only); synthesis fails otherwise.
 * IAM tells items apart by partition key only: PutItem on `PROSPECT#` (a note, a log entry) could
 * also replace the prospect itself, which only the code's `attribute_not_exists` conditions prevent.
 */
export type TableKeys = { [action in ItemAction]?: readonly KeyPrefix[] } & {
  /** Query on these indexes, named one by one (none: no index at all); Query without prefixes: these only. */
  indexes?: readonly IndexName[];
};

export type Route = {
  id: string;
  method: HttpMethod;
  path: string;
  entry: string;
  credential: Credential;
  scope?: Scope;
  errorShape: ErrorShape;
  tableActions: readonly TableAction[];
  /** The partitions of those actions (required by the stack for any route with table actions). */
  tableKeys?: TableKeys;
  /** Settings routes under /workspaces/{workspace_id}: the least role that may call it (docs/api.md#settings-api). */
  role?: MemberRole;
  /** The user-pool actions of the function (none: no permission on the pool). */
  identityActions?: readonly IdentityAction[];
  /** PATCH /prospects/{id}: a body carrying `stage` also counts toward the stage-change limit. */
  countsStageChanges?: boolean;
  /**
   * The signing-secrets table, for the settings routes that create, rotate or delete a secret: writes only, by
   * type (`SecretsTableWrite`), so no route function can read a secret; the table's name in SECRETS_TABLE_NAME.
   */
  secretsTableActions?: readonly SecretsTableWrite[];
  /** The function queues deliveries (DELIVERY_QUEUE_URL, sqs:SendMessage on the delivery queue alone). */
  queuesDeliveries?: true;
  /**
   * The function invokes the two webhooks' own functions (lambda:InvokeFunction on those two alone, their names in
   * INGEST_LEAD_FUNCTION_NAME and RECRUITMENT_FUNCTION_NAME): the replay of a journaled call.
   */
  invokesWebhooks?: true;
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
export function checkedRoutes(list: readonly Route[]): readonly Route[] {
  const roleless = list.filter((route) => isWorkspaceRoute(route) && route.role === undefined);
  if (roleless.length > 0) {
    const named = roleless.map((route) => `${route.id} (${route.method} ${route.path})`).join(', ');
    throw new Error(`Every route under ${workspaceRoutePrefix} names its least role (\`role\`); none for: ${named}`);
  }
  return list;
}

/**
 * The one route list. The CDK stack creates one function per line and the local server routes
 * with the same lines, so adding a route is one line here plus its handler in its wing of functions/.
 */
export const routes: readonly Route[] = checkedRoutes([
  {
    id: 'listPipelines',
    method: 'GET',
    path: '/pipelines',
    entry: 'functions/prospect-api/list-pipelines.ts',
    credential: 'api-key',
    scope: 'pipelines:read',
    errorShape: 'standard',
    /** GetItem: the configuration item; UpdateItem: the rate-limit counter. A GET has no idempotency record. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'getProspect',
    method: 'GET',
    path: '/prospects/{prospect_id}',
    entry: 'functions/prospect-api/get-prospect.ts',
    credential: 'api-key',
    scope: 'prospects:read',
    errorShape: 'standard',
    /** Read only, but for the rate-limit counter: the prospect with the configuration (tag names). */
    tableActions: ['BatchGetItem', 'UpdateItem'],
    tableKeys: { BatchGetItem: ['WS#', 'PROSPECT#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'findProspects',
    method: 'GET',
    path: '/prospects',
    entry: 'functions/prospect-api/find-prospects.ts',
    credential: 'api-key',
    scope: 'prospects:read',
    errorShape: 'standard',
    /** The lead webhook's matching: configuration and markers in one BatchGetItem, then the prospect. */
    tableActions: ['BatchGetItem', 'GetItem', 'UpdateItem'],
    tableKeys: { BatchGetItem: ['WS#', 'UNIQ#'], GetItem: ['PROSPECT#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'listNotes',
    method: 'GET',
    path: '/prospects/{prospect_id}/notes',
    entry: 'functions/prospect-api/list-notes.ts',
    credential: 'api-key',
    scope: 'prospects:read',
    errorShape: 'standard',
    /** One Query on the prospect's partition reads the prospect and a page of its notes. */
    tableActions: ['Query', 'UpdateItem'],
    tableKeys: { Query: ['PROSPECT#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'listChanges',
    method: 'GET',
    path: '/prospects/{prospect_id}/changes',
    entry: 'functions/prospect-api/list-changes.ts',
    credential: 'api-key',
    scope: 'prospects:read',
    errorShape: 'standard',
    /** One Query on the prospect's partition reads the prospect and a page of its change log. */
    tableActions: ['Query', 'UpdateItem'],
    tableKeys: { Query: ['PROSPECT#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'updateProspect',
    method: 'PATCH',
    path: '/prospects/{prospect_id}',
    entry: 'functions/prospect-api/update-prospect.ts',
    credential: 'api-key',
    scope: 'prospects:write',
    errorShape: 'standard',
    /**
     * The prospect and configuration in one BatchGetItem (a later round: the prospect alone, by
     * BatchGetItem too, so no GetItem grant);
     * rate counter, idempotency record, prospect and its log entries.
     */
    tableActions: ['BatchGetItem', 'UpdateItem', 'PutItem'],
    tableKeys: {
      BatchGetItem: ['WS#', 'PROSPECT#'],
      PutItem: ['IDEM#', 'PROSPECT#'],
      UpdateItem: ['RATE#', 'IDEM#', 'PROSPECT#'],
    },
    countsStageChanges: true,
  },
  {
    id: 'addNote',
    method: 'POST',
    path: '/prospects/{prospect_id}/notes',
    entry: 'functions/prospect-api/add-note.ts',
    credential: 'api-key',
    scope: 'notes:write',
    errorShape: 'standard',
    /** No read: the transaction's condition finds the prospect; its note and log entry are in its partition. */
    tableActions: ['UpdateItem', 'PutItem'],
    tableKeys: { PutItem: ['IDEM#', 'PROSPECT#'], UpdateItem: ['RATE#', 'IDEM#', 'PROSPECT#'] },
  },
  {
    id: 'addTag',
    method: 'POST',
    path: '/prospects/{prospect_id}/tags',
    entry: 'functions/prospect-api/add-tag.ts',
    credential: 'api-key',
    scope: 'tags:write',
    errorShape: 'standard',
    tableActions: ['BatchGetItem', 'UpdateItem', 'PutItem'],
    tableKeys: {
      BatchGetItem: ['WS#', 'PROSPECT#'],
      PutItem: ['IDEM#', 'PROSPECT#'],
      UpdateItem: ['RATE#', 'IDEM#', 'PROSPECT#'],
    },
  },
  {
    id: 'removeTag',
    method: 'DELETE',
    path: '/prospects/{prospect_id}/tags/{tag}',
    entry: 'functions/prospect-api/remove-tag.ts',
    credential: 'api-key',
    scope: 'tags:write',
    errorShape: 'standard',
    tableActions: ['BatchGetItem', 'UpdateItem', 'PutItem'],
    tableKeys: {
      BatchGetItem: ['WS#', 'PROSPECT#'],
      PutItem: ['IDEM#', 'PROSPECT#'],
      UpdateItem: ['RATE#', 'IDEM#', 'PROSPECT#'],
    },
  },
  {
    id: 'ingestLead',
    method: 'POST',
    path: '/webhooks/ingest-lead',
    entry: 'functions/webhooks/ingest-lead.ts',
    credential: 'webhook-token',
    errorShape: 'lead',
    /**
     * Reads: configuration and contact markers in one BatchGetItem (a later round: the markers only),
     * the matched prospect. DeleteItem releases a uniqueness
     * marker (UNIQ#) when a known contact changes e-mail or phone; UpdateItem on UNIQ# refreshes a
     * marker's placement hint. Every call is journaled (CALL#); UpdateItem on CALL# counts the
     * calls refused for their token, per minute. No rate counter on webhooks.
     */
    tableActions: ['BatchGetItem', 'GetItem', 'UpdateItem', 'PutItem', 'DeleteItem'],
    tableKeys: {
      BatchGetItem: ['WS#', 'UNIQ#'],
      GetItem: ['PROSPECT#'],
      PutItem: ['IDEM#', 'PROSPECT#', 'UNIQ#', 'CALL#'],
      UpdateItem: ['IDEM#', 'PROSPECT#', 'UNIQ#', 'CALL#'],
      DeleteItem: ['UNIQ#'],
    },
  },
  {
    id: 'recruitment',
    method: 'POST',
    path: '/webhooks/recruitment',
    entry: 'functions/webhooks/recruitment.ts',
    credential: 'webhook-token',
    errorShape: 'standard',
    /**
     * The known candidate comes back with the refused transaction: no read but the configuration.
     * UpdateItem on CALL# counts the calls refused for their token, per minute.
     */
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    tableKeys: {
      GetItem: ['WS#'],
      PutItem: ['IDEM#', 'CANDIDATE#', 'UNIQ#', 'CALL#'],
      UpdateItem: ['IDEM#', 'CALL#'],
    },
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
    entry: 'functions/settings/sign-in.ts',
    credential: 'none',
    errorShape: 'standard',
    /**
     * The e-mail's attempt counted first, and taken back after a right password (RATE#); the session (SESSION#); the
     * person's workspaces and cut-off by one Query of their partition (PERSON#), a token of the cut-off's second
     * kept in it (PERSON#), and the names by one BatchGetItem of those workspaces (WS#).
     */
    tableActions: ['UpdateItem', 'PutItem', 'Query', 'BatchGetItem'],
    tableKeys: {
      UpdateItem: ['RATE#', 'PERSON#'],
      PutItem: ['SESSION#'],
      Query: ['PERSON#'],
      BatchGetItem: ['WS#'],
    },
    identityActions: ['DescribeUserPoolClient'],
  },
  {
    id: 'refreshSession',
    method: 'POST',
    path: '/session/refresh',
    entry: 'functions/settings/refresh-session.ts',
    credential: 'none',
    errorShape: 'standard',
    /**
     * The session of the refresh token, then the person's cut-off: two consistent GetItems; then the session's new
     * access token recorded (SESSION#), and a token of the cut-off's second kept in it (PERSON#).
     */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['SESSION#', 'PERSON#'], UpdateItem: ['SESSION#', 'PERSON#'] },
    identityActions: ['DescribeUserPoolClient'],
  },
  {
    id: 'signOut',
    method: 'DELETE',
    path: '/session',
    entry: 'functions/settings/sign-out.ts',
    credential: 'member-token',
    errorShape: 'standard',
    /** The person's cut-off (PERSON# / SIGNOUT); GlobalSignOut is authorized by the access token itself. */
    tableActions: ['PutItem'],
    tableKeys: { PutItem: ['PERSON#'] },
  },
  {
    id: 'changePassword',
    method: 'POST',
    path: '/session/password',
    entry: 'functions/settings/change-password.ts',
    credential: 'member-token',
    errorShape: 'standard',
    /** ChangePassword is authorized by the access token itself; then the person's cut-off (PERSON# / SIGNOUT). */
    tableActions: ['PutItem'],
    tableKeys: { PutItem: ['PERSON#'] },
  },
  {
    id: 'startPasswordReset',
    method: 'POST',
    path: '/password-reset',
    entry: 'functions/settings/start-password-reset.ts',
    credential: 'none',
    errorShape: 'standard',
    tableActions: [],
    identityActions: ['DescribeUserPoolClient'],
  },
  {
    id: 'confirmPasswordReset',
    method: 'POST',
    path: '/password-reset/confirm',
    entry: 'functions/settings/confirm-password-reset.ts',
    credential: 'none',
    errorShape: 'standard',
    /** Once the provider has set the new password, the person's cut-off (PERSON# / SIGNOUT). */
    tableActions: ['PutItem'],
    tableKeys: { PutItem: ['PERSON#'] },
    identityActions: ['DescribeUserPoolClient'],
  },
  {
    id: 'listMyWorkspaces',
    method: 'GET',
    path: '/workspaces',
    entry: 'functions/settings/list-my-workspaces.ts',
    credential: 'member-token',
    errorShape: 'standard',
    /** One Query of the person's partition, one BatchGetItem of their workspaces' configuration items. */
    tableActions: ['Query', 'BatchGetItem'],
    tableKeys: { Query: ['PERSON#'], BatchGetItem: ['WS#'] },
  },
  /*
   * The workspace, its tags, its API keys and its webhook (docs/api.md#settings-api). Each settings route under a
   * workspace counts its call on the member's rate-limit counter (RATE#, UpdateItem), after the authorizer's reads.
   */
  {
    id: 'getWorkspace',
    method: 'GET',
    path: '/workspaces/{workspace_id}',
    entry: 'functions/settings/get-workspace.ts',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
    /** `workspace show`'s one GetItem of the configuration item. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'listWorkspacePipelines',
    method: 'GET',
    path: '/workspaces/{workspace_id}/pipelines',
    entry: 'functions/settings/list-workspace-pipelines.ts',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
    /**
     * As listPipelines, for the settings page, which names stages with it (a prospect and its change log carry stage
     * ids): the configuration item, one GetItem. A member has no other way (docs/api.md#settings-api) to
     * read the stage names the Prospect API's keys move prospects between.
     */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'listTags',
    method: 'GET',
    path: '/workspaces/{workspace_id}/tags',
    entry: 'functions/settings/list-tags.ts',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
    /** The tags are in the configuration item: one GetItem. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'createTag',
    method: 'POST',
    path: '/workspaces/{workspace_id}/tags',
    entry: 'functions/settings/create-tag.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** `tag add`: the configuration item read, then updated in one transaction with the audit entry. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['WS#', 'RATE#'], PutItem: ['AUDIT#'] },
  },
  {
    id: 'renameTag',
    method: 'PATCH',
    path: '/workspaces/{workspace_id}/tags/{tag_id}',
    entry: 'functions/settings/rename-tag.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** As `createTag`: the configuration item read, then updated with the audit entry in one transaction. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['WS#', 'RATE#'], PutItem: ['AUDIT#'] },
  },
  {
    id: 'listApiKeys',
    method: 'GET',
    path: '/workspaces/{workspace_id}/api-keys',
    entry: 'functions/settings/list-api-keys.ts',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
    /** `apikey list`: the workspace item, and its keys by gsi1 (keys are stored under their fingerprints). */
    tableActions: ['GetItem', 'Query', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'], indexes: ['gsi1'] },
  },
  {
    id: 'createApiKey',
    method: 'POST',
    path: '/workspaces/{workspace_id}/api-keys',
    entry: 'functions/settings/create-api-key.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** `apikey create`: the workspace read, then one transaction: its check, the new key, the audit entry. */
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'TransactWriteItems'],
    tableKeys: {
      GetItem: ['WS#'],
      ConditionCheckItem: ['WS#'],
      PutItem: ['APIKEY#', 'AUDIT#'],
      UpdateItem: ['RATE#'],
    },
  },
  {
    id: 'revokeApiKey',
    method: 'DELETE',
    path: '/workspaces/{workspace_id}/api-keys/{key_id}',
    entry: 'functions/settings/revoke-api-key.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** `apikey revoke`: the workspace read, its keys by gsi1, then the key's update and the audit entry in one transaction. */
    tableActions: ['GetItem', 'Query', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['APIKEY#', 'RATE#'], PutItem: ['AUDIT#'], indexes: ['gsi1'] },
  },
  {
    id: 'listApiKeyChanges',
    method: 'GET',
    path: '/workspaces/{workspace_id}/api-keys/{key_id}/changes',
    entry: 'functions/settings/list-api-key-changes.ts',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
    /** The workspace's keys (to find this one) and a page of the key's change log, both on gsi1. */
    tableActions: ['Query', 'UpdateItem'],
    tableKeys: { UpdateItem: ['RATE#'], indexes: ['gsi1'] },
  },
  {
    id: 'getWebhook',
    method: 'GET',
    path: '/workspaces/{workspace_id}/webhook',
    entry: 'functions/settings/get-webhook.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** `webhook status`: the workspace item (its endpoint id), then the endpoint item. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#', 'ENDPOINT#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'generateWebhookToken',
    method: 'POST',
    path: '/workspaces/{workspace_id}/webhook/token',
    entry: 'functions/settings/generate-webhook-token.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /**
     * `webhook generate`: the workspace read; the first time, one transaction creates the endpoint, records it on
     * the workspace item and writes the audit entry; later, one transaction replaces the endpoint's token with it.
     */
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], PutItem: ['ENDPOINT#', 'AUDIT#'], UpdateItem: ['WS#', 'ENDPOINT#', 'RATE#'] },
  },
  {
    id: 'setWebhookActive',
    method: 'PATCH',
    path: '/workspaces/{workspace_id}/webhook',
    entry: 'functions/settings/set-webhook-active.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** `webhook enable` / `disable`: the workspace read, the endpoint's update with the audit entry, the endpoint read. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#', 'ENDPOINT#'], UpdateItem: ['ENDPOINT#', 'RATE#'], PutItem: ['AUDIT#'] },
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
    entry: 'functions/settings/find-workspace-prospects.ts',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
    /** As findProspects: configuration and markers in one BatchGetItem, then the prospect. */
    tableActions: ['BatchGetItem', 'GetItem', 'UpdateItem'],
    tableKeys: { BatchGetItem: ['WS#', 'UNIQ#'], GetItem: ['PROSPECT#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'getWorkspaceProspect',
    method: 'GET',
    path: '/workspaces/{workspace_id}/prospects/{prospect_id}',
    entry: 'functions/settings/get-workspace-prospect.ts',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
    /** As getProspect: the prospect with the configuration (tag names) in one BatchGetItem. */
    tableActions: ['BatchGetItem', 'UpdateItem'],
    tableKeys: { BatchGetItem: ['WS#', 'PROSPECT#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'listWorkspaceProspectChanges',
    method: 'GET',
    path: '/workspaces/{workspace_id}/prospects/{prospect_id}/changes',
    entry: 'functions/settings/list-workspace-prospect-changes.ts',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
    /** As listChanges: one Query on the prospect's partition reads the prospect and a page of its change log. */
    tableActions: ['Query', 'UpdateItem'],
    tableKeys: { Query: ['PROSPECT#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'undoChange',
    method: 'POST',
    path: '/workspaces/{workspace_id}/changes/{entry_id}/undo',
    entry: 'functions/settings/undo-change.ts',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
    /**
     * The `changelog undo` use case: the workspace (GetItem WS#), the entry by its reference (index gsi2), the
     * prospect (GetItem PROSPECT#), then one transaction: the prospect and the entry marked undone (UpdateItem
     * PROSPECT#) with the audit entry (PutItem AUDIT#).
     */
    tableActions: ['GetItem', 'Query', 'TransactWriteItems', 'UpdateItem', 'PutItem'],
    tableKeys: {
      GetItem: ['WS#', 'PROSPECT#'],
      indexes: ['gsi2'],
      UpdateItem: ['RATE#', 'PROSPECT#'],
      PutItem: ['AUDIT#'],
    },
  },
  {
    id: 'listMembers',
    method: 'GET',
    path: '/workspaces/{workspace_id}/members',
    entry: 'functions/settings/list-members.ts',
    credential: 'member-token',
    role: 'member',
    errorShape: 'standard',
    /** The configuration item (its members), one consistent GetItem; UpdateItem: the member's rate-limit counter. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'addMember',
    method: 'POST',
    path: '/workspaces/{workspace_id}/members',
    entry: 'functions/settings/add-member.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /**
     * The configuration read, then one transaction: the configuration updated on its version, the person's
     * membership and the audit entry put (lib/settings/members.ts addMember); the rate-limit counter.
     */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['PERSON#', 'AUDIT#'] },
    /**
     * The invitation: AdminGetUser first, for the person's status (a person who already chose a password is added
     * without a new one, lib/identity/cognito.ts), then AdminCreateUser, or AdminCreateUser with `MessageAction:
     * RESEND` for a person invited who never signed in ("Set to RESEND to resend the invitation message to a user
     * that already exists", Amazon Cognito API reference, AdminCreateUser:
     * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminCreateUser.html).
     * AdminSetUserPassword replaces RESEND on cognito-local only, which lacks it, so the deployed function is not
     * granted it.
     */
    identityActions: ['AdminGetUser', 'AdminCreateUser'],
  },
  {
    id: 'inviteMember',
    method: 'POST',
    path: '/workspaces/{workspace_id}/members/{member_id}/invite',
    entry: 'functions/settings/invite-member.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** As addMember: the membership written again with the audit entry, in one transaction on the version read. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['PERSON#', 'AUDIT#'] },
    identityActions: ['AdminGetUser', 'AdminCreateUser'],
  },
  {
    id: 'changeMemberRole',
    method: 'PATCH',
    path: '/workspaces/{workspace_id}/members/{member_id}',
    entry: 'functions/settings/change-member-role.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** The configuration read, then one transaction: configuration, membership (its new role), audit entry. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['PERSON#', 'AUDIT#'] },
  },
  {
    id: 'removeMember',
    method: 'DELETE',
    path: '/workspaces/{workspace_id}/members/{member_id}',
    entry: 'functions/settings/remove-member.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** The configuration read, then one transaction: configuration, the membership deleted, the audit entry put. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['AUDIT#'], DeleteItem: ['PERSON#'] },
  },
  {
    id: 'listAudit',
    method: 'GET',
    path: '/workspaces/{workspace_id}/audit',
    entry: 'functions/settings/list-audit.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** One consistent Query of the workspace's audit partition per page; the rate-limit counter. */
    tableActions: ['Query', 'UpdateItem'],
    tableKeys: { Query: ['AUDIT#'], UpdateItem: ['RATE#'] },
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
    entry: 'functions/settings/list-webhook-calls.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** The workspace, then one Query of its journal partition (more pages when `failed` filters). */
    tableActions: ['GetItem', 'Query', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], Query: ['CALL#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'getWebhookCall',
    method: 'GET',
    path: '/workspaces/{workspace_id}/webhook/calls/{call_id}',
    entry: 'functions/settings/get-webhook-call.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** The workspace and the call in one BatchGetItem. */
    tableActions: ['BatchGetItem', 'UpdateItem'],
    tableKeys: { BatchGetItem: ['WS#', 'CALL#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'replayWebhookCall',
    method: 'POST',
    path: '/workspaces/{workspace_id}/webhook/calls/{call_id}/replay',
    entry: 'functions/settings/replay-webhook-call.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /**
     * The workspace and the call in one BatchGetItem; then the webhook's own function, invoked, writes what the
     * call writes and journals it; the audit entry, while one Query of the journal finds the replay's entry.
     */
    tableActions: ['BatchGetItem', 'Query', 'UpdateItem', 'PutItem'],
    tableKeys: { BatchGetItem: ['WS#', 'CALL#'], Query: ['CALL#'], PutItem: ['AUDIT#'], UpdateItem: ['RATE#'] },
    invokesWebhooks: true,
  },
  {
    id: 'listSubscriptions',
    method: 'GET',
    path: '/workspaces/{workspace_id}/subscriptions',
    entry: 'functions/settings/list-subscriptions.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** The workspace, then one Query of its configuration partition on `SUB#`. */
    tableActions: ['GetItem', 'Query', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], Query: ['WS#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'createSubscription',
    method: 'POST',
    path: '/workspaces/{workspace_id}/subscriptions',
    entry: 'functions/settings/create-subscription.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /**
     * The workspace; one transaction: the subscription (WS#, by an UpdateItem that creates it: no PutItem could then
     * replace the workspace's configuration), its secret (the secrets table), the audit entry.
     */
    tableActions: ['GetItem', 'UpdateItem', 'TransactWriteItems', 'PutItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['AUDIT#'] },
    secretsTableActions: ['PutItem'],
  },
  {
    id: 'updateSubscription',
    method: 'PATCH',
    path: '/workspaces/{workspace_id}/subscriptions/{subscription_id}',
    entry: 'functions/settings/update-subscription.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** The workspace; one transaction: the conditional update of the subscription and the audit entry. */
    tableActions: ['GetItem', 'UpdateItem', 'TransactWriteItems', 'PutItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['AUDIT#'] },
  },
  {
    id: 'deleteSubscription',
    method: 'DELETE',
    path: '/workspaces/{workspace_id}/subscriptions/{subscription_id}',
    entry: 'functions/settings/delete-subscription.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /**
     * The workspace; one transaction: the subscription marked deleted and expiring (an update: no function may
     * delete from WS#), its secret deleted from the secrets table, the audit entry. Deleting the secret is a
     * write: no secret is read, and none outlives its subscription.
     */
    tableActions: ['GetItem', 'UpdateItem', 'TransactWriteItems', 'PutItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['AUDIT#'] },
    secretsTableActions: ['DeleteItem'],
  },
  {
    id: 'rotateSubscriptionSecret',
    method: 'POST',
    path: '/workspaces/{workspace_id}/subscriptions/{subscription_id}/secret',
    entry: 'functions/settings/rotate-subscription-secret.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /**
     * The workspace; one transaction: the secrets item updated from itself (no read) and the audit entry; when
     * it finds no secrets item, the subscription read (WS#) to tell an unknown one from one not yet migrated.
     */
    tableActions: ['GetItem', 'UpdateItem', 'TransactWriteItems', 'PutItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'], PutItem: ['AUDIT#'] },
    secretsTableActions: ['UpdateItem'],
  },
  {
    id: 'listDeliveries',
    method: 'GET',
    path: '/workspaces/{workspace_id}/subscriptions/{subscription_id}/deliveries',
    entry: 'functions/settings/list-deliveries.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /** The workspace and the subscription, then the Query of the workspace's delivery partition. */
    tableActions: ['GetItem', 'Query', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], Query: ['DELIVERY#'], UpdateItem: ['RATE#'] },
  },
  {
    id: 'redeliverDelivery',
    method: 'POST',
    path: '/workspaces/{workspace_id}/deliveries/{delivery_id}/redeliver',
    entry: 'functions/settings/redeliver-delivery.ts',
    credential: 'member-token',
    role: 'admin',
    errorShape: 'standard',
    /**
     * The workspace, the delivery and its subscription (no signing secret: the delivery function signs); the
     * attempt queued on the delivery queue; the audit entry.
     */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem'],
    tableKeys: { GetItem: ['WS#', 'DELIVERY#'], UpdateItem: ['RATE#'], PutItem: ['AUDIT#'] },
    queuesDeliveries: true,
  },
]);

/**
 * The functions of outbound events (docs/events.md), outside the API: the stream handler turns the
 * table's change stream into deliveries and queues them; the delivery function POSTs them. Their
 * table access is declared like a route's and granted the same way.
 */
export type EventFunction = {
  id: 'streamHandler' | 'deliverEvent' | 'sweepDeliveries';
  entry: string;
  description: string;
  tableActions: readonly TableAction[];
  tableKeys: TableKeys;
  /**
   * Lambda event filtering of the stream (AWS docs, "Lambda event filtering", DynamoDB): only
   * records matching one of these patterns invoke the function; the local poller applies the same.
   */
  streamFilters?: readonly Record<string, unknown>[];
  /**
   * The functions that sign read the signing-secrets table (docs/adr/0012-signing-secrets-table.md):
   * these actions on its ARN, and its name in SECRETS_TABLE_NAME. Reads only, by type: the admin
   * command line and the settings routes that create, rotate or delete a secret (`Route.secretsTableActions`,
   * writes only) write them. A function without it has no action on that table at all.
   */
  secretsTableActions?: readonly SecretsTableAction[];
};

/** What a function that signs may do on the signing-secrets table. */
export type SecretsTableAction = 'GetItem' | 'BatchGetItem';
/** What a settings route may do there: write a secret it was given or made, never read one. */
export type SecretsTableWrite = 'PutItem' | 'UpdateItem' | 'DeleteItem';

export const eventFunctions: readonly EventFunction[] = [
  {
    id: 'streamHandler',
    entry: 'functions/events/stream-handler.ts',
    description: 'Outbound events: change stream to deliveries',
    /**
     * One Query of a workspace's configuration partition (configuration item and subscriptions);
     * the prospects and candidates a note event shows; one conditional put per delivery.
     */
    tableActions: ['Query', 'BatchGetItem', 'PutItem'],
    tableKeys: { Query: ['WS#'], BatchGetItem: ['PROSPECT#', 'CANDIDATE#'], PutItem: ['DELIVERY#'] },
    /** Writes of prospects, candidates and their notes: never the journal, counters or deliveries. */
    streamFilters: [
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { pk: { S: [{ prefix: 'PROSPECT#' }] } } } },
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { pk: { S: [{ prefix: 'CANDIDATE#' }] } } } },
    ],
  },
  {
    id: 'deliverEvent',
    entry: 'functions/events/deliver-event.ts',
    description: 'Outbound events: signed POST of one delivery',
    /**
     * The delivery, its subscription and the subscription's signing secrets in one BatchGetItem
     * across the two tables; the attempt claimed, then recorded. The one function that signs, so the
     * one that reads the signing-secrets table.
     */
    tableActions: ['BatchGetItem', 'UpdateItem'],
    tableKeys: { BatchGetItem: ['DELIVERY#', 'WS#'], UpdateItem: ['DELIVERY#'] },
    secretsTableActions: ['BatchGetItem'],
  },
  {
    id: 'sweepDeliveries',
    entry: 'functions/events/sweep-deliveries.ts',
    description: 'Outbound events: pending deliveries queued again',
    /** The due deliveries from index gsi4 (never the table itself), each marked by a conditional update. */
    tableActions: ['Query', 'UpdateItem'],
    tableKeys: { UpdateItem: ['DELIVERY#'], indexes: ['gsi4'] },
  },
];

export const authorizerEntry = 'functions/authorizer.ts';

/**
 * The authorizer reads API keys by GetItem (never the gsi1 index of API-key fingerprints); a webhook
 * call is one conditional UpdateItem on its endpoint (check and "last call received" at once); a settings
 * call reads the person's membership and sign-out (PERSON#) by one BatchGetItem, or the sign-out by GetItem.
 */
export const authorizerTableKeys: TableKeys = {
  GetItem: ['APIKEY#', 'PERSON#'],
  UpdateItem: ['ENDPOINT#'],
  BatchGetItem: ['PERSON#'],
};

/** The partitions of the function built from `entry`: a route's, or the authorizer's. */
export function tableKeysOfEntry(entry: string): TableKeys | undefined {
  if (entry === authorizerEntry) return authorizerTableKeys;
  const eventFunction = eventFunctions.find((candidate) => candidate.entry === entry);
  if (eventFunction) return eventFunction.tableKeys;
  return routes.find((route) => route.entry === entry)?.tableKeys;
}

export function findRoute(method: string, resource: string): Route | undefined {
  return routes.find((route) => route.method === method && route.path === resource);
}

export function routeById(id: string): Route {
  const route = routes.find((candidate) => candidate.id === id);
  if (!route) throw new Error(`Unknown route ${id}`);
  return route;
}
