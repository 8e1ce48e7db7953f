import { type DeployedRoute as Route } from '../../infra/cdk/route-grants';

/**
 * Settings routes for the infrastructure tests only, never in lib/routes.ts: copies of the shape of two routes of
 * docs/api.md#sign-in, #settings-api (a sign-in route and a workspace's settings route), each on a path of its own.
 * Their handler is an existing one (the tests skip bundling); what the tests read is where the stack puts them and what
 * it grants them.
 */
export const signInProbe: Route = {
  id: 'probeSignIn',
  method: 'POST',
  path: '/probe-session',
  entry: 'functions/prospect-api/list-pipelines.ts',
  credential: 'none',
  errorShape: 'standard',
  tableActions: ['BatchGetItem', 'UpdateItem', 'PutItem'],
  tableKeys: { BatchGetItem: ['PERSON#', 'WS#'], UpdateItem: ['RATE#', 'PERSON#'], PutItem: ['SESSION#', 'AUDIT#'] },
  identityActions: ['DescribeUserPoolClient'],
};

export const settingsProbe = (index: number): Route => ({
  id: `probeSettings${index}`,
  method: 'GET',
  path: `/workspaces/{workspace_id}/probe-${index}`,
  entry: 'functions/prospect-api/list-pipelines.ts',
  credential: 'member-token',
  role: 'admin',
  errorShape: 'standard',
  tableActions: ['GetItem', 'UpdateItem'],
  tableKeys: { GetItem: ['WS#'], UpdateItem: ['RATE#'] },
  identityActions: ['AdminCreateUser', 'AdminGetUser'],
});
