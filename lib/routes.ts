/**
 * The one route list. The CDK stack creates one function per line and the local server routes
 * with the same lines, so adding a route is one line here plus its handler in functions/.
 */
export type Credential = 'api-key' | 'webhook-token';
export type Scope = 'pipelines:read' | 'prospects:write' | 'notes:write' | 'tags:write';
/** The two error body shapes: Prospect API and recruitment vs lead webhook (docs/api.md#error-bodies). */
export type ErrorShape = 'standard' | 'lead';
/**
 * The table actions a function performs; the stack grants exactly these. Every write route may
 * delete its idempotency records (IDEM#); the stack confines DeleteItem to the deletable prefixes.
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

export type Route = {
  id: string;
  method: HttpMethod;
  path: string;
  entry: string;
  credential: Credential;
  scope?: Scope;
  errorShape: ErrorShape;
  tableActions: readonly TableAction[];
  /** PATCH /prospects/{id}: a body carrying `stage` also counts toward the stage-change limit. */
  countsStageChanges?: boolean;
};

/**
 * A route function's timeout (CDK): far above a normal call (tens of milliseconds) and under API
 * Gateway's 29 s integration limit. Past it, Lambda has ended the call, so an Idempotency-Key it
 * claimed and left "in flight" belongs to nobody (lib/http/idempotency.ts).
 */
export const functionTimeoutSeconds = 10;

export const allScopes: readonly Scope[] = ['pipelines:read', 'prospects:write', 'notes:write', 'tags:write'];

export const routes: readonly Route[] = [
  {
    id: 'listPipelines',
    method: 'GET',
    path: '/pipelines',
    entry: 'functions/list-pipelines.ts',
    credential: 'api-key',
    scope: 'pipelines:read',
    errorShape: 'standard',
    /** UpdateItem is the rate-limit counter (RATE# items only). */
    tableActions: ['Query', 'UpdateItem'],
  },
  {
    id: 'updateProspect',
    method: 'PATCH',
    path: '/prospects/{prospect_id}',
    entry: 'functions/update-prospect.ts',
    credential: 'api-key',
    scope: 'prospects:write',
    errorShape: 'standard',
    tableActions: ['GetItem', 'Query', 'UpdateItem', 'PutItem', 'DeleteItem'],
    countsStageChanges: true,
  },
  {
    id: 'addNote',
    method: 'POST',
    path: '/prospects/{prospect_id}/notes',
    entry: 'functions/add-note.ts',
    credential: 'api-key',
    scope: 'notes:write',
    errorShape: 'standard',
    tableActions: ['UpdateItem', 'PutItem', 'DeleteItem'],
  },
  {
    id: 'addTag',
    method: 'POST',
    path: '/prospects/{prospect_id}/tags',
    entry: 'functions/add-tag.ts',
    credential: 'api-key',
    scope: 'tags:write',
    errorShape: 'standard',
    tableActions: ['GetItem', 'Query', 'UpdateItem', 'PutItem', 'DeleteItem'],
  },
  {
    id: 'removeTag',
    method: 'DELETE',
    path: '/prospects/{prospect_id}/tags/{tag}',
    entry: 'functions/remove-tag.ts',
    credential: 'api-key',
    scope: 'tags:write',
    errorShape: 'standard',
    tableActions: ['GetItem', 'Query', 'UpdateItem', 'PutItem', 'DeleteItem'],
  },
  {
    id: 'ingestLead',
    method: 'POST',
    path: '/webhooks/ingest-lead',
    entry: 'functions/ingest-lead.ts',
    credential: 'webhook-token',
    errorShape: 'lead',
    /** DeleteItem releases a uniqueness marker (UNIQ#) when a known contact changes e-mail or phone. */
    tableActions: ['Query', 'BatchGetItem', 'GetItem', 'UpdateItem', 'PutItem', 'DeleteItem'],
  },
  {
    id: 'recruitment',
    method: 'POST',
    path: '/webhooks/recruitment',
    entry: 'functions/recruitment.ts',
    credential: 'webhook-token',
    errorShape: 'standard',
    tableActions: ['Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
  },
];

export const authorizerEntry = 'functions/authorizer.ts';

export function findRoute(method: string, resource: string): Route | undefined {
  return routes.find((route) => route.method === method && route.path === resource);
}

export function routeById(id: string): Route {
  const route = routes.find((candidate) => candidate.id === id);
  if (!route) throw new Error(`Unknown route ${id}`);
  return route;
}
