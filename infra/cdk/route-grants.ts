import { routes, type Route, type RouteId } from '../../lib/routes';

/**
 * The user-pool actions a function calls (IAM on the pool's ARN, granted from this list like table actions).
 * The public calls signed with the client secret (InitiateAuth, RespondToAuthChallenge, ChangePassword,
 * ForgotPassword, ConfirmForgotPassword) need no IAM permission.
 */
export type IdentityAction = 'DescribeUserPoolClient' | 'AdminCreateUser' | 'AdminSetUserPassword' | 'AdminGetUser';
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
  | 'IDP#'
  | 'FOLLOWUP#'
  | 'ERASURE#';

/**
 * The table's indexes, named here so that the route list reads no table definition: the stack
 * refuses an index that infra/cdk/table-definition.ts does not define (infra/cdk/table-access.ts).
 */
export type IndexName = 'gsi1' | 'gsi2' | 'gsi3' | 'gsi4' | 'gsi5' | 'gsi6';

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
  /**
   * The one exception to the deletion policy (`purgedPrefixes`, lib/storage/table-items.ts;
   * docs/adr/0016-custom-fields-storage.md): the purge of a deleted custom field deletes that field's change-log
   * entries, so its `DeleteItem` may name `PROSPECT#`. Every other function's deletions stay within the deletable
   * prefixes.
   */
  purgesDeletedFields?: true;
  /**
   * The other exception (`erasedPrefixes`, lib/storage/table-items.ts; docs/adr/0019-erasure-in-the-background.md):
   * the erasure of a prospect or a candidate deletes the record and its copies, so its `DeleteItem` may name those
   * prefixes.
   */
  erasesRecords?: true;
};

export type RouteGrants = {
  entry: string;
  tableActions: readonly TableAction[];
  /** The partitions of those actions (required by the stack for any route with table actions). */
  tableKeys?: TableKeys;
  /** The user-pool actions of the function (none: no permission on the pool). */
  identityActions?: readonly IdentityAction[];
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
  /**
   * The function keeps exports too large to answer in the export bucket and signs their links (EXPORT_BUCKET_NAME;
   * s3:PutObject and s3:GetObject on that bucket's objects alone, infra/cdk/constructs/export-bucket.ts); locally, the
   * local server keeps and serves them itself (tools/local/export-downloads.ts).
   */
  keepsExports?: true;
};

/** A route as the stack, the local server and the IAM tests take it: its line of the route list with its grants. */
export type DeployedRoute = Route & RouteGrants;

/**
 * What each route's function may do, keyed by route id: the type refuses a route of the list without its entry here,
 * and an entry for no route.
 */
export const routeGrants = {
  listPipelines: {
    entry: 'functions/prospect-api/list-pipelines.ts',
    /** GetItem: the configuration item; UpdateItem: the rate-limit counter. A GET has no idempotency record. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  listAssignableMembers: {
    entry: 'functions/prospect-api/list-assignable-members.ts',
    /** As listPipelines: the configuration item, which embeds the members, and the rate-limit counter. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  listCustomFields: {
    entry: 'functions/prospect-api/list-custom-fields.ts',
    /** As listPipelines: the configuration item, which embeds the custom fields, and the rate-limit counter. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  getProspect: {
    entry: 'functions/prospect-api/get-prospect.ts',
    /** Read only, but for the rate-limit counter: the prospect with the configuration (tag names). */
    tableActions: ['BatchGetItem', 'UpdateItem'],
    tableKeys: { BatchGetItem: ['WS#', 'PROSPECT#'], UpdateItem: ['RATE#'] },
  },
  findProspects: {
    entry: 'functions/prospect-api/find-prospects.ts',
    /**
     * The look-up: the lead webhook's matching (configuration and markers in one BatchGetItem, then the prospect). The
     * list: the configuration, the keys of a page from the index of its order, the prospects in one BatchGetItem.
     */
    tableActions: ['BatchGetItem', 'GetItem', 'Query', 'UpdateItem'],
    tableKeys: {
      BatchGetItem: ['WS#', 'UNIQ#', 'PROSPECT#'],
      GetItem: ['WS#', 'PROSPECT#'],
      UpdateItem: ['RATE#'],
      indexes: ['gsi3', 'gsi5', 'gsi6'],
    },
  },
  listNotes: {
    entry: 'functions/prospect-api/list-notes.ts',
    /** One Query on the prospect's partition reads the prospect and a page of its notes. */
    tableActions: ['Query', 'UpdateItem'],
    tableKeys: { Query: ['PROSPECT#'], UpdateItem: ['RATE#'] },
  },
  listChanges: {
    entry: 'functions/prospect-api/list-changes.ts',
    /**
     * One Query on the prospect's partition reads the prospect and a page of its change log; a page holding a custom
     * field's entry reads the workspace's fields too (GetItem WS#).
     */
    tableActions: ['Query', 'GetItem', 'UpdateItem'],
    tableKeys: { Query: ['PROSPECT#'], GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  updateProspect: {
    entry: 'functions/prospect-api/update-prospect.ts',
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
  },
  addNote: {
    entry: 'functions/prospect-api/add-note.ts',
    /** No read: the transaction's condition finds the prospect; its note and log entry are in its partition. */
    tableActions: ['UpdateItem', 'PutItem'],
    tableKeys: { PutItem: ['IDEM#', 'PROSPECT#'], UpdateItem: ['RATE#', 'IDEM#', 'PROSPECT#'] },
  },
  addTag: {
    entry: 'functions/prospect-api/add-tag.ts',
    tableActions: ['BatchGetItem', 'UpdateItem', 'PutItem'],
    tableKeys: {
      BatchGetItem: ['WS#', 'PROSPECT#'],
      PutItem: ['IDEM#', 'PROSPECT#'],
      UpdateItem: ['RATE#', 'IDEM#', 'PROSPECT#'],
    },
  },
  removeTag: {
    entry: 'functions/prospect-api/remove-tag.ts',
    tableActions: ['BatchGetItem', 'UpdateItem', 'PutItem'],
    tableKeys: {
      BatchGetItem: ['WS#', 'PROSPECT#'],
      PutItem: ['IDEM#', 'PROSPECT#'],
      UpdateItem: ['RATE#', 'IDEM#', 'PROSPECT#'],
    },
  },
  ingestLead: {
    entry: 'functions/webhooks/ingest-lead.ts',
    /**
     * Reads: configuration and contact markers in one BatchGetItem (a later round: the markers only),
     * the matched prospect. DeleteItem releases a uniqueness
     * marker (UNIQ#) when a known contact changes e-mail or phone; UpdateItem on UNIQ# refreshes a
     * marker's placement hint. Every call is journaled (CALL#); UpdateItem on CALL# counts the
     * calls refused for their token, per minute. No rate counter on webhooks. ConditionCheckItem on PROSPECT#: a
     * known contact that changes nothing is checked, not written (lib/storage/leads.ts).
     */
    tableActions: ['BatchGetItem', 'GetItem', 'ConditionCheckItem', 'UpdateItem', 'PutItem', 'DeleteItem'],
    tableKeys: {
      BatchGetItem: ['WS#', 'UNIQ#'],
      GetItem: ['PROSPECT#'],
      ConditionCheckItem: ['PROSPECT#'],
      PutItem: ['IDEM#', 'PROSPECT#', 'UNIQ#', 'CALL#'],
      UpdateItem: ['IDEM#', 'PROSPECT#', 'UNIQ#', 'CALL#'],
      DeleteItem: ['UNIQ#'],
    },
  },
  recruitment: {
    entry: 'functions/webhooks/recruitment.ts',
    /**
     * The known candidate comes back with the refused transaction: no read but the configuration. Its new
     * application moves its last write (UpdateItem CANDIDATE#: `updated_at`, its key in gsi5, for the retention).
     * UpdateItem on CALL# counts the calls refused for their token, per minute.
     */
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    tableKeys: {
      GetItem: ['WS#'],
      PutItem: ['IDEM#', 'CANDIDATE#', 'UNIQ#', 'CALL#'],
      UpdateItem: ['IDEM#', 'CANDIDATE#', 'CALL#'],
    },
  },
  /*
   * The settings API's sign-in routes and the person's own (docs/api.md#sign-in, docs/api.md#settings-api; docs/adr/0013-member-sign-in.md). The calls signed
   * with the client secret need DescribeUserPoolClient only, to read that secret once per cold start.
   */
  signIn: {
    entry: 'functions/settings/session/sign-in.ts',
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
  refreshSession: {
    entry: 'functions/settings/session/refresh-session.ts',
    /**
     * The session of the refresh token, then the person's cut-off: two consistent GetItems; then the session's new
     * access token recorded (SESSION#), and a token of the cut-off's second kept in it (PERSON#).
     */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['SESSION#', 'PERSON#'], UpdateItem: ['SESSION#', 'PERSON#'] },
    identityActions: ['DescribeUserPoolClient'],
  },
  signOut: {
    entry: 'functions/settings/session/sign-out.ts',
    /** The person's cut-off (PERSON# / SIGNOUT); GlobalSignOut is authorized by the access token itself. */
    tableActions: ['PutItem'],
    tableKeys: { PutItem: ['PERSON#'] },
  },
  changePassword: {
    entry: 'functions/settings/session/change-password.ts',
    /** ChangePassword is authorized by the access token itself; then the person's cut-off (PERSON# / SIGNOUT). */
    tableActions: ['PutItem'],
    tableKeys: { PutItem: ['PERSON#'] },
  },
  startPasswordReset: {
    entry: 'functions/settings/session/start-password-reset.ts',
    tableActions: [],
    identityActions: ['DescribeUserPoolClient'],
  },
  confirmPasswordReset: {
    entry: 'functions/settings/session/confirm-password-reset.ts',
    /** Once the provider has set the new password, the person's cut-off (PERSON# / SIGNOUT). */
    tableActions: ['PutItem'],
    tableKeys: { PutItem: ['PERSON#'] },
    identityActions: ['DescribeUserPoolClient'],
  },
  listMyWorkspaces: {
    entry: 'functions/settings/session/list-my-workspaces.ts',
    /** One Query of the person's partition, one BatchGetItem of their workspaces' configuration items. */
    tableActions: ['Query', 'BatchGetItem'],
    tableKeys: { Query: ['PERSON#'], BatchGetItem: ['WS#'] },
  },
  /*
   * The workspace and its settings, its tags, its custom fields, its API keys and its webhook (docs/api.md#settings-api). Each settings
   * route under a workspace counts its call on the member's rate-limit counter (RATE#, UpdateItem), after the authorizer's reads.
   */
  getWorkspace: {
    entry: 'functions/settings/workspace/get-workspace.ts',
    /** `workspace show`'s one GetItem of the configuration item. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  changeWorkspace: {
    entry: 'functions/settings/workspace/change-workspace.ts',
    /** As `createTag`: the configuration item read, then its settings updated with the audit entry in one transaction. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['WS#', 'RATE#'], PutItem: ['AUDIT#'] },
  },
  listWorkspacePipelines: {
    entry: 'functions/settings/workspace/list-workspace-pipelines.ts',
    /**
     * As listPipelines, for the settings page, which names stages with it (a prospect and its change log carry stage
     * ids): the configuration item, one GetItem. Beyond the settings API's list (docs/api.md#settings-api), which gives a member no other way to
     * read the stage names the Prospect API's keys move prospects between.
     */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  listTags: {
    entry: 'functions/settings/workspace/list-tags.ts',
    /** The tags are in the configuration item: one GetItem. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  createTag: {
    entry: 'functions/settings/workspace/create-tag.ts',
    /** `tag add`: the configuration item read, then updated in one transaction with the audit entry. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['WS#', 'RATE#'], PutItem: ['AUDIT#'] },
  },
  renameTag: {
    entry: 'functions/settings/workspace/rename-tag.ts',
    /** As `createTag`: the configuration item read, then updated with the audit entry in one transaction. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['WS#', 'RATE#'], PutItem: ['AUDIT#'] },
  },
  listFields: {
    entry: 'functions/settings/fields/list-fields.ts',
    /** The custom fields are in the configuration item: one GetItem. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  createField: {
    entry: 'functions/settings/fields/create-field.ts',
    /** As `createTag`: the configuration item read, then updated in one transaction with the audit entry. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['WS#', 'RATE#'], PutItem: ['AUDIT#'] },
  },
  changeField: {
    entry: 'functions/settings/fields/change-field.ts',
    /** As `createTag`: the configuration item read, then updated with the audit entry in one transaction. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['WS#', 'RATE#'], PutItem: ['AUDIT#'] },
  },
  deleteField: {
    entry: 'functions/settings/fields/delete-field.ts',
    /**
     * As `createTag`: the definition becomes its tombstone by the same update of the configuration item, with the
     * audit entry; no value is touched (the purge removes them later, docs/adr/0016-custom-fields-storage.md).
     */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['WS#', 'RATE#'], PutItem: ['AUDIT#'] },
  },
  listApiKeys: {
    entry: 'functions/settings/api-keys/list-api-keys.ts',
    /** `apikey list`: the workspace item, and its keys by gsi1 (keys are stored under their fingerprints). */
    tableActions: ['GetItem', 'Query', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'], indexes: ['gsi1'] },
  },
  createApiKey: {
    entry: 'functions/settings/api-keys/create-api-key.ts',
    /** `apikey create`: the workspace read, then one transaction: its check, the new key, the audit entry. */
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'TransactWriteItems'],
    tableKeys: {
      GetItem: ['WS#'],
      ConditionCheckItem: ['WS#'],
      PutItem: ['APIKEY#', 'AUDIT#'],
      UpdateItem: ['RATE#'],
    },
  },
  revokeApiKey: {
    entry: 'functions/settings/api-keys/revoke-api-key.ts',
    /** `apikey revoke`: the workspace read, its keys by gsi1, then the key's update and the audit entry in one transaction. */
    tableActions: ['GetItem', 'Query', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['APIKEY#', 'RATE#'], PutItem: ['AUDIT#'], indexes: ['gsi1'] },
  },
  listApiKeyChanges: {
    entry: 'functions/settings/api-keys/list-api-key-changes.ts',
    /**
     * The workspace's keys (to find this one) and a page of the key's change log, both on gsi1; a page holding a
     * custom field's entry reads the workspace's fields too (GetItem WS#).
     */
    tableActions: ['Query', 'GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'], indexes: ['gsi1'] },
  },
  getWebhook: {
    entry: 'functions/settings/webhook/get-webhook.ts',
    /** `webhook status`: the workspace item (its endpoint id), then the endpoint item. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#', 'ENDPOINT#'], UpdateItem: ['RATE#'] },
  },
  generateWebhookToken: {
    entry: 'functions/settings/webhook/generate-webhook-token.ts',
    /**
     * `webhook generate`: the workspace read; the first time, one transaction creates the endpoint, records it on
     * the workspace item and writes the audit entry; later, one transaction replaces the endpoint's token with it.
     */
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], PutItem: ['ENDPOINT#', 'AUDIT#'], UpdateItem: ['WS#', 'ENDPOINT#', 'RATE#'] },
  },
  setWebhookActive: {
    entry: 'functions/settings/webhook/set-webhook-active.ts',
    /** `webhook enable` / `disable`: the workspace read, the endpoint's update with the audit entry, the endpoint read. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#', 'ENDPOINT#'], UpdateItem: ['ENDPOINT#', 'RATE#'], PutItem: ['AUDIT#'] },
  },
  /*
   * The settings API's prospect routes (docs/api.md#settings-api, role member): the Prospect API's use cases for a member of the
   * workspace, and the change log's undo. UpdateItem on RATE#: the member's requests a minute (memberGate).
   */
  findWorkspaceProspects: {
    entry: 'functions/settings/prospects/find-workspace-prospects.ts',
    /** As findProspects: the look-up by contact, or the list. */
    tableActions: ['BatchGetItem', 'GetItem', 'Query', 'UpdateItem'],
    tableKeys: {
      BatchGetItem: ['WS#', 'UNIQ#', 'PROSPECT#'],
      GetItem: ['WS#', 'PROSPECT#'],
      UpdateItem: ['RATE#'],
      indexes: ['gsi3', 'gsi5', 'gsi6'],
    },
  },
  getWorkspaceProspect: {
    entry: 'functions/settings/prospects/get-workspace-prospect.ts',
    /** As getProspect: the prospect with the configuration (tag names) in one BatchGetItem. */
    tableActions: ['BatchGetItem', 'UpdateItem'],
    tableKeys: { BatchGetItem: ['WS#', 'PROSPECT#'], UpdateItem: ['RATE#'] },
  },
  eraseWorkspaceProspect: {
    entry: 'functions/privacy/erase-prospect.ts',
    /**
     * The record and the workspace (phone region) read (GetItem), the answers kept for its Idempotency-Keys (index
     * gsi4), then one transaction: the record deleted, its contact markers freed, those answers and its follow-up
     * schedule deleted, the erasure's job and the audit entry put
     * (docs/adr/0019-erasure-in-the-background.md). The first of the erasing functions.
     */
    tableActions: ['GetItem', 'Query', 'TransactWriteItems', 'DeleteItem', 'PutItem', 'UpdateItem'],
    tableKeys: {
      GetItem: ['WS#', 'PROSPECT#'],
      indexes: ['gsi4'],
      DeleteItem: ['PROSPECT#', 'UNIQ#', 'IDEM#', 'FOLLOWUP#'],
      PutItem: ['ERASURE#', 'AUDIT#'],
      UpdateItem: ['RATE#'],
      erasesRecords: true,
    },
  },
  eraseWorkspaceCandidate: {
    entry: 'functions/privacy/erase-candidate.ts',
    /**
     * The record and the workspace (phone region) read (GetItem), the answers kept for its Idempotency-Keys (index
     * gsi4), then one transaction: the record deleted, its contact markers freed, those answers deleted, the erasure's
     * job and the audit entry put
     * (docs/adr/0019-erasure-in-the-background.md).
     */
    tableActions: ['GetItem', 'Query', 'TransactWriteItems', 'DeleteItem', 'PutItem', 'UpdateItem'],
    tableKeys: {
      GetItem: ['WS#', 'CANDIDATE#'],
      indexes: ['gsi4'],
      DeleteItem: ['CANDIDATE#', 'UNIQ#', 'IDEM#'],
      PutItem: ['ERASURE#', 'AUDIT#'],
      UpdateItem: ['RATE#'],
      erasesRecords: true,
    },
  },
  /*
   * A person's export (docs/api.md#erasure-export-and-retention): read-only on the table but for the member's counter
   * (RATE#) and the audit entry (AUDIT#); the journal (CALL#) and the deliveries (DELIVERY#) read whole, page after
   * page, as the erasure walks them (docs/data-model.md, "Copies of a person").
   */
  exportWorkspaceProspect: {
    entry: 'functions/privacy/export-prospect.ts',
    /**
     * The prospect with the configuration (tag names, custom fields) in one BatchGetItem; its notes and change log by
     * pages of its partition (Query PROSPECT#); the workspace (GetItem WS#: its phone region, and the custom fields of
     * a log holding a field's entry).
     */
    tableActions: ['BatchGetItem', 'GetItem', 'Query', 'UpdateItem', 'PutItem'],
    tableKeys: {
      BatchGetItem: ['WS#', 'PROSPECT#'],
      GetItem: ['WS#'],
      Query: ['PROSPECT#', 'CALL#', 'DELIVERY#'],
      UpdateItem: ['RATE#'],
      PutItem: ['AUDIT#'],
    },
    keepsExports: true,
  },
  exportWorkspaceCandidate: {
    entry: 'functions/privacy/export-candidate.ts',
    /** The candidate and its notes by one Query of its partition (CANDIDATE#), the workspace's phone region (WS#). */
    tableActions: ['GetItem', 'Query', 'UpdateItem', 'PutItem'],
    tableKeys: {
      GetItem: ['WS#'],
      Query: ['CANDIDATE#', 'CALL#', 'DELIVERY#'],
      UpdateItem: ['RATE#'],
      PutItem: ['AUDIT#'],
    },
    keepsExports: true,
  },
  listWorkspaceProspectChanges: {
    entry: 'functions/settings/prospects/list-workspace-prospect-changes.ts',
    /**
     * As listChanges: one Query on the prospect's partition reads the prospect and a page of its change log; a page
     * holding a custom field's entry reads the workspace's fields too (GetItem WS#).
     */
    tableActions: ['Query', 'GetItem', 'UpdateItem'],
    tableKeys: { Query: ['PROSPECT#'], GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  undoChange: {
    entry: 'functions/settings/prospects/undo-change.ts',
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
  findWorkspaceCandidates: {
    entry: 'functions/privacy/find-candidates.ts',
    /**
     * The configuration item (its recruitment pipelines), one GetItem; BatchGetItem of the e-mail's candidate markers,
     * then of the candidates they name; UpdateItem: the member's rate-limit counter. Reads only.
     */
    tableActions: ['GetItem', 'BatchGetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], BatchGetItem: ['UNIQ#', 'CANDIDATE#'], UpdateItem: ['RATE#'] },
  },
  listMembers: {
    entry: 'functions/settings/members/list-members.ts',
    /** The configuration item (its members), one consistent GetItem; UpdateItem: the member's rate-limit counter. */
    tableActions: ['GetItem', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  },
  addMember: {
    entry: 'functions/settings/members/add-member.ts',
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
  inviteMember: {
    entry: 'functions/settings/members/invite-member.ts',
    /** As addMember: the membership written again with the audit entry, in one transaction on the version read. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['PERSON#', 'AUDIT#'] },
    identityActions: ['AdminGetUser', 'AdminCreateUser'],
  },
  changeMemberRole: {
    entry: 'functions/settings/members/change-member-role.ts',
    /** The configuration read, then one transaction: configuration, membership (its new role), audit entry. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['PERSON#', 'AUDIT#'] },
  },
  removeMember: {
    entry: 'functions/settings/members/remove-member.ts',
    /** The configuration read, then one transaction: configuration, the membership deleted, the audit entry put. */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'TransactWriteItems'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['AUDIT#'], DeleteItem: ['PERSON#'] },
  },
  listAudit: {
    entry: 'functions/settings/workspace/list-audit.ts',
    /** One consistent Query of the workspace's audit partition per page; the rate-limit counter. */
    tableActions: ['Query', 'UpdateItem'],
    tableKeys: { Query: ['AUDIT#'], UpdateItem: ['RATE#'] },
  },
  /*
   * Webhook call journal and replay, subscriptions and deliveries (docs/api.md#outbound-events, docs/api.md#webhook-call-journal, docs/api.md#settings-api): admin routes. Every
   * one reads the workspace item (WS#) as its command does and counts the member's requests (RATE#); a change
   * writes its audit entry (AUDIT#).
   */
  listWebhookCalls: {
    entry: 'functions/settings/webhook/list-webhook-calls.ts',
    /** The workspace, then one Query of its journal partition (more pages when `failed` filters). */
    tableActions: ['GetItem', 'Query', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], Query: ['CALL#'], UpdateItem: ['RATE#'] },
  },
  getWebhookCall: {
    entry: 'functions/settings/webhook/get-webhook-call.ts',
    /** The workspace and the call in one BatchGetItem. */
    tableActions: ['BatchGetItem', 'UpdateItem'],
    tableKeys: { BatchGetItem: ['WS#', 'CALL#'], UpdateItem: ['RATE#'] },
  },
  replayWebhookCall: {
    entry: 'functions/settings/webhook/replay-webhook-call.ts',
    /**
     * The workspace and the call in one BatchGetItem; then the webhook's own function, invoked, writes what the
     * call writes and journals it; the audit entry, while one Query of the journal finds the replay's entry.
     */
    tableActions: ['BatchGetItem', 'Query', 'UpdateItem', 'PutItem'],
    tableKeys: { BatchGetItem: ['WS#', 'CALL#'], Query: ['CALL#'], PutItem: ['AUDIT#'], UpdateItem: ['RATE#'] },
    invokesWebhooks: true,
  },
  listSubscriptions: {
    entry: 'functions/settings/subscriptions/list-subscriptions.ts',
    /** The workspace, then one Query of its configuration partition on `SUB#`. */
    tableActions: ['GetItem', 'Query', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], Query: ['WS#'], UpdateItem: ['RATE#'] },
  },
  createSubscription: {
    entry: 'functions/settings/subscriptions/create-subscription.ts',
    /**
     * The workspace; one transaction: the subscription (WS#, by an UpdateItem that creates it: no PutItem could then
     * replace the workspace's configuration), its secret (the secrets table), the audit entry.
     */
    tableActions: ['GetItem', 'UpdateItem', 'TransactWriteItems', 'PutItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['AUDIT#'] },
    secretsTableActions: ['PutItem'],
  },
  updateSubscription: {
    entry: 'functions/settings/subscriptions/update-subscription.ts',
    /**
     * The workspace; one transaction: the conditional update of the subscription and its audit entries; the
     * subscription read again (GetItem), to answer its event types as stored.
     */
    tableActions: ['GetItem', 'UpdateItem', 'TransactWriteItems', 'PutItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['AUDIT#'] },
  },
  deleteSubscription: {
    entry: 'functions/settings/subscriptions/delete-subscription.ts',
    /**
     * The workspace; one transaction: the subscription marked deleted and expiring (an update: no function may
     * delete from WS#), its secret deleted from the secrets table, the audit entry. Deleting the secret is a
     * write: no secret is read, and none outlives its subscription.
     */
    tableActions: ['GetItem', 'UpdateItem', 'TransactWriteItems', 'PutItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#', 'WS#'], PutItem: ['AUDIT#'] },
    secretsTableActions: ['DeleteItem'],
  },
  rotateSubscriptionSecret: {
    entry: 'functions/settings/subscriptions/rotate-subscription-secret.ts',
    /**
     * The workspace; one transaction: the secrets item updated from itself (no read) and the audit entry; when
     * it finds no secrets item, the subscription read (WS#) to tell an unknown one from one not yet migrated.
     */
    tableActions: ['GetItem', 'UpdateItem', 'TransactWriteItems', 'PutItem'],
    tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'], PutItem: ['AUDIT#'] },
    secretsTableActions: ['UpdateItem'],
  },
  listDeliveries: {
    entry: 'functions/settings/subscriptions/list-deliveries.ts',
    /** The workspace and the subscription, then the Query of the workspace's delivery partition. */
    tableActions: ['GetItem', 'Query', 'UpdateItem'],
    tableKeys: { GetItem: ['WS#'], Query: ['DELIVERY#'], UpdateItem: ['RATE#'] },
  },
  redeliverDelivery: {
    entry: 'functions/settings/subscriptions/redeliver-delivery.ts',
    /**
     * The workspace, the delivery and its subscription (no signing secret: the delivery function signs); the
     * attempt queued on the delivery queue; the audit entry.
     */
    tableActions: ['GetItem', 'UpdateItem', 'PutItem'],
    tableKeys: { GetItem: ['WS#', 'DELIVERY#'], UpdateItem: ['RATE#'], PutItem: ['AUDIT#'] },
    queuesDeliveries: true,
  },
} satisfies Record<RouteId, RouteGrants>;

export const deployedRoutes: readonly DeployedRoute[] = routes.map((route) => ({ ...route, ...routeGrants[route.id] }));

export function deployedRouteById(id: string): DeployedRoute {
  const route = deployedRoutes.find((candidate) => candidate.id === id);
  if (!route) throw new Error(`Unknown route ${id}`);
  return route;
}

/**
 * The functions of the events wing, outside the API: those of outbound events (docs/events.md), where the stream
 * handler turns the table's change stream into deliveries and queues them, the delivery function POSTs them and the
 * sweep queues again those whose message was lost; and the purge of deleted custom fields (docs/data-model.md, "The
 * purge of a deleted field"). Their table access is declared like a route's and granted the same way.
 */
export type EventFunction = {
  id:
    | 'streamHandler'
    | 'deliverEvent'
    | 'sweepDeliveries'
    | 'purgeDeletedFields'
    | 'sweepFollowUps'
    | 'sendFollowUpDue'
    | 'eraseRecords';
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
   * command line and the settings routes that create, rotate or delete a secret (`RouteGrants.secretsTableActions`,
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
     * the prospects and candidates a note or follow-up event shows; one conditional put per delivery; one
     * conditional update per follow-up schedule to keep in step (never an item of `PROSPECT#`).
     */
    tableActions: ['Query', 'BatchGetItem', 'PutItem', 'UpdateItem'],
    tableKeys: {
      Query: ['WS#'],
      BatchGetItem: ['PROSPECT#', 'CANDIDATE#'],
      PutItem: ['DELIVERY#'],
      UpdateItem: ['FOLLOWUP#'],
    },
    /**
     * Writes of prospects, candidates and their notes, a follow-up schedule's changes (one marked sent makes
     * `prospect.follow_up_due`) and the start of an erasure (`prospect.erased`, `candidate.erased`): never the journal,
     * counters or deliveries.
     */
    streamFilters: [
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { pk: { S: [{ prefix: 'PROSPECT#' }] } } } },
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { pk: { S: [{ prefix: 'CANDIDATE#' }] } } } },
      { eventName: ['MODIFY'], dynamodb: { Keys: { pk: { S: [{ prefix: 'FOLLOWUP#' }] } } } },
      { eventName: ['INSERT'], dynamodb: { Keys: { pk: { S: [{ prefix: 'ERASURE#' }] } } } },
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
  {
    id: 'purgeDeletedFields',
    entry: 'functions/events/purge-deleted-fields.ts',
    description: 'Custom fields: values of deleted fields purged',
    /**
     * The workspaces to purge from index gsi4 and their prospects from gsi3 (never a Scan); each prospect's item and
     * change log read by one Query of its partition, its value removed, its entries of the key deleted (the one
     * exception to the deletion policy); the configuration read and edited, with the walk's progress.
     */
    tableActions: ['Query', 'GetItem', 'UpdateItem', 'DeleteItem'],
    tableKeys: {
      Query: ['PROSPECT#'],
      GetItem: ['WS#'],
      UpdateItem: ['WS#', 'PROSPECT#'],
      DeleteItem: ['PROSPECT#'],
      indexes: ['gsi3', 'gsi4'],
      purgesDeletedFields: true,
    },
  },
  {
    id: 'sweepFollowUps',
    entry: 'functions/events/sweep-follow-ups.ts',
    description: 'Follow-ups: those falling due queued to their second',
    /**
     * Its clock read (GetItem) and moved (UpdateItem); the follow-ups waiting from index gsi4 (never the table
     * itself, never a Scan).
     */
    tableActions: ['GetItem', 'UpdateItem', 'Query'],
    tableKeys: { GetItem: ['FOLLOWUP#'], UpdateItem: ['FOLLOWUP#'], indexes: ['gsi4'] },
  },
  {
    id: 'sendFollowUpDue',
    entry: 'functions/events/send-follow-up-due.ts',
    description: 'Follow-ups: one marked sent when its time comes',
    /**
     * One transaction: the prospect still holds the time (ConditionCheckItem), its schedule marked sent
     * (UpdateItem); it writes no item of `PROSPECT#`.
     */
    tableActions: ['ConditionCheckItem', 'UpdateItem'],
    tableKeys: { ConditionCheckItem: ['PROSPECT#'], UpdateItem: ['FOLLOWUP#'] },
  },
  {
    id: 'eraseRecords',
    entry: 'functions/events/erase-records.ts',
    description: 'Erasure: the copies of erased prospects and candidates deleted',
    /**
     * Every minute: the jobs from index gsi4 (and the answers kept for a record's Idempotency-Keys, by their own
     * partition of it), each job read and its progress recorded; the record's partition, the workspace's journal and
     * deliveries walked by Query (never a Scan); each copy deleted, a journaled call's record and kept body removed
     * (UpdateItem CALL#); the job deleted at the end. Once a day, the retention: the workspaces from index gsi1
     * (`WORKSPACES`: it projects whole items, the API keys' fingerprints of another partition included, which this
     * function never queries, and each workspace's phone region: no GetItem on WS#), their prospects and candidates
     * last written before the cutoff from gsi5, each read strongly (GetItem) and erased by the erase routes' transaction
     * (docs/adr/0019-erasure-in-the-background.md).
     */
    tableActions: ['Query', 'GetItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'PutItem'],
    tableKeys: {
      Query: ['PROSPECT#', 'CANDIDATE#', 'CALL#', 'DELIVERY#'],
      GetItem: ['ERASURE#', 'PROSPECT#', 'CANDIDATE#'],
      UpdateItem: ['ERASURE#', 'CALL#'],
      DeleteItem: ['PROSPECT#', 'CANDIDATE#', 'DELIVERY#', 'FOLLOWUP#', 'ERASURE#', 'IDEM#', 'UNIQ#'],
      PutItem: ['ERASURE#', 'AUDIT#'],
      indexes: ['gsi1', 'gsi4', 'gsi5'],
      erasesRecords: true,
    },
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
  return deployedRoutes.find((route) => route.entry === entry)?.tableKeys;
}
