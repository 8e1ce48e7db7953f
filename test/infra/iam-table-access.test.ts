import { App, Stack } from 'aws-cdk-lib';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { deletableLeadingKeys, secretsTableStatements, tableAccessStatements } from '../../infra/cdk/table-access';
import {
  authorizerTableKeys,
  eventFunctions,
  tableKeysOfEntry,
  type TableAction,
  type TableKeys,
  deployedRoutes as routes,
} from '../../infra/cdk/route-grants';
import { deletablePrefixes, erasedPrefixes, purgedPrefixes } from '../../lib/storage/table-items';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The rules turning a route's table actions and key prefixes into IAM statements. */
const scratch = new Stack(new App(), 'Scratch');
const table = new Table(scratch, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
const rendered = (actions: TableAction[], keys?: TableKeys) =>
  tableAccessStatements(table, actions, keys).map((statement) => scratch.resolve(statement.toStatementJson()) as Json);
const guarded = (patterns: string[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns },
  Null: { 'dynamodb:LeadingKeys': 'false' },
});

test('every route, and the authorizer, names the key prefixes of each item action it is granted', () => {
  for (const route of routes) {
    // A Query of indexes only names them (`indexes`), without prefixes.
    const indexOnly = route.tableKeys?.indexes !== undefined && route.tableKeys.Query === undefined;
    const itemActions = route.tableActions.filter(
      (action) => action !== 'TransactWriteItems' && !(action === 'Query' && indexOnly),
    );
    const named = Object.keys(route.tableKeys ?? {}).filter((name) => name !== 'indexes' && name !== 'erasesRecords');
    expect(named.sort()).toEqual([...new Set(itemActions)].sort());
    expect(tableKeysOfEntry(route.entry)).toBe(route.tableKeys);
  }
  expect(Object.keys(authorizerTableKeys).sort()).toEqual(['BatchGetItem', 'GetItem', 'UpdateItem']);
});

test('only the settings routes of API keys (gsi1), the undo (gsi2), the lists of prospects (gsi3, gsi5, gsi6) and the erasures (gsi4) read an index; the authorizer writes only webhook endpoints', () => {
  const keyRoutes = ['listApiKeys', 'revokeApiKey', 'listApiKeyChanges'];
  // An erasure deletes the answers kept for the record's Idempotency-Keys, found by their partition of gsi4.
  const erasureRoutes = ['eraseWorkspaceProspect', 'eraseWorkspaceCandidate'];
  // The undo finds its change-log entry by id (gsi2).
  const entryRoutes = ['undoChange'];
  // GET /prospects and its settings twin list prospects by the index of the order asked (docs/adr/0017).
  const listRoutes = ['findProspects', 'findWorkspaceProspects'];
  const indexesOf = (id: string) =>
    keyRoutes.includes(id)
      ? ['gsi1']
      : entryRoutes.includes(id)
        ? ['gsi2']
        : listRoutes.includes(id)
          ? ['gsi3', 'gsi5', 'gsi6']
          : erasureRoutes.includes(id)
            ? ['gsi4']
            : [];
  for (const route of routes) {
    expect([route.id, route.tableKeys?.indexes ?? []]).toEqual([route.id, indexesOf(route.id)]);
  }
  expect(authorizerTableKeys.UpdateItem).toEqual(['ENDPOINT#']);
  expect(authorizerTableKeys.PutItem).toBeUndefined();
});

/** GET routes that also write their audit entry (PutItem AUDIT#): a person's export (docs/api.md#exports). */
const auditedReads: readonly string[] = ['exportWorkspaceProspect', 'exportWorkspaceCandidate'];

test('read routes (GET) are granted reads only, but for their own rate-limit counter and an export’s audit entry', () => {
  const reads: TableAction[] = ['GetItem', 'BatchGetItem', 'Query'];
  const readRoutes = routes.filter((route) => route.method === 'GET');
  expect(readRoutes.map((route) => route.id).sort()).toEqual(
    [
      ...['findProspects', 'getProspect', 'listChanges', 'listNotes', 'listPipelines', 'listAssignableMembers'],
      ...['listCustomFields', 'listFields'],
      ...['listMyWorkspaces'],
      ...['getWorkspace', 'listWorkspacePipelines', 'listTags', 'listApiKeys', 'listApiKeyChanges', 'getWebhook'],
      ...['findWorkspaceProspects', 'getWorkspaceProspect', 'listWorkspaceProspectChanges'],
      ...['findWorkspaceCandidates'],
      ...['listMembers', 'listAudit'],
      ...['listWebhookCalls', 'getWebhookCall', 'listSubscriptions', 'listDeliveries'],
      ...auditedReads,
    ].sort(),
  );
  for (const route of readRoutes) {
    // A signed-in route without a workspace counts no requests; one under a workspace counts the member's
    // (lib/http/middleware/member-gate.ts).
    const counted = route.credential === 'api-key' || route.path.includes('{workspace_id}');
    const audited = auditedReads.includes(route.id);
    expect([route.id, route.tableActions.filter((action) => !reads.includes(action))]).toEqual([
      route.id,
      counted ? ['UpdateItem', ...(audited ? ['PutItem'] : [])] : [],
    ]);
    expect([route.id, route.tableKeys?.PutItem]).toEqual([route.id, audited ? ['AUDIT#'] : undefined]);
    expect([route.id, route.tableKeys?.UpdateItem]).toEqual([route.id, counted ? ['RATE#'] : undefined]);
  }
});

test('each action is confined by LeadingKeys, guarded against an absent key; same prefixes, one statement', () => {
  const statements = rendered(
    ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems'],
    {
      GetItem: ['PROSPECT#'],
      BatchGetItem: ['PROSPECT#'],
      PutItem: ['UNIQ#', 'PROSPECT#'],
      UpdateItem: ['PROSPECT#'],
      DeleteItem: ['UNIQ#'],
    },
  );
  expect(statements.map((s) => [s.Action, s.Condition])).toEqual([
    [['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:UpdateItem'], guarded(['PROSPECT#*'])],
    ['dynamodb:PutItem', guarded(['UNIQ#*', 'PROSPECT#*'])],
    ['dynamodb:DeleteItem', guarded(['UNIQ#*'])],
  ]);
  for (const statement of statements) expect(JSON.stringify(statement.Resource)).not.toContain('/index/');
});

test('an index is granted only when named, for Query only, one by one', () => {
  const statements = rendered(['Query'], { Query: ['WS#'], indexes: ['gsi2'] });
  expect(statements.at(-1)).toEqual({
    Action: 'dynamodb:Query',
    Effect: 'Allow',
    Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [expect.any(String), 'Arn'] }, '/index/gsi2']] },
  });
  expect(() => rendered(['GetItem'], { GetItem: ['WS#'], indexes: ['gsi1'] })).toThrow(/Query only/);
});

test.each([
  ['TransactWriteItems alone', ['TransactWriteItems'], {}, /item actions/],
  ['an action without its prefixes', ['PutItem'], {}, /PutItem granted without/],
  [
    'prefixes of an action not granted',
    ['GetItem'],
    { GetItem: ['WS#'], UpdateItem: ['WS#'] },
    /not granted: UpdateItem/,
  ],
  ['a deletion outside the deletable prefixes', ['DeleteItem'], { DeleteItem: ['PROSPECT#'] }, /not deletable/],
] as [string, TableAction[], TableKeys, RegExp][])('refused at synthesis: %s', (_, actions, keys, error) => {
  expect(() => rendered(actions, keys)).toThrow(error);
});

test('the deletable prefixes bound every deletion, but the erasing functions’', () => {
  expect(deletableLeadingKeys).toEqual(deletablePrefixes.map((prefix) => `${prefix}*`));
  for (const route of routes.filter((route) => route.tableKeys?.erasesRecords !== true)) {
    for (const prefix of route.tableKeys?.DeleteItem ?? []) expect(deletablePrefixes).toContain(prefix);
  }
});

test('the two exceptions: the purge of deleted fields deletes under PROSPECT#, the erasing functions the erased record', () => {
  const declaring = (flag: 'purgesDeletedFields' | 'erasesRecords') =>
    [
      ...routes.map((route) => [route.id, route.tableKeys] as const),
      ...eventFunctions.map((f) => [f.id, f.tableKeys] as const),
    ]
      .filter(([, keys]) => keys?.[flag] === true)
      .map(([id]) => id);
  expect(declaring('purgesDeletedFields')).toEqual(['purgeDeletedFields']);
  expect(declaring('erasesRecords')).toEqual(['eraseWorkspaceProspect', 'eraseWorkspaceCandidate', 'eraseRecords']);
  expect(purgedPrefixes).toEqual(['PROSPECT#']);
  expect(erasedPrefixes).toEqual(['PROSPECT#', 'CANDIDATE#', 'DELIVERY#', 'FOLLOWUP#', 'ERASURE#']);
  for (const eventFunction of eventFunctions.filter((f) => !['purgeDeletedFields', 'eraseRecords'].includes(f.id)))
    for (const prefix of eventFunction.tableKeys.DeleteItem ?? []) expect(deletablePrefixes).toContain(prefix);
  // Granted with the exception, and with it only; it reaches no other partition a role may not delete.
  expect(rendered(['DeleteItem'], { DeleteItem: ['PROSPECT#'], purgesDeletedFields: true })).toEqual([
    { Action: 'dynamodb:DeleteItem', Effect: 'Allow', Resource: expect.anything(), Condition: guarded(['PROSPECT#*']) },
  ]);
  expect(rendered(['DeleteItem'], { DeleteItem: ['CANDIDATE#'], erasesRecords: true })).toEqual([
    {
      Action: 'dynamodb:DeleteItem',
      Effect: 'Allow',
      Resource: expect.anything(),
      Condition: guarded(['CANDIDATE#*']),
    },
  ]);
  expect(() => rendered(['DeleteItem'], { DeleteItem: ['PROSPECT#'] })).toThrow(/not deletable: PROSPECT#/);
  for (const prefix of ['CANDIDATE#', 'WS#', 'APIKEY#'] as const)
    expect(() => rendered(['DeleteItem'], { DeleteItem: [prefix], purgesDeletedFields: true })).toThrow(
      /not deletable/,
    );
  for (const prefix of ['WS#', 'APIKEY#', 'CALL#', 'AUDIT#'] as const)
    expect(() => rendered(['DeleteItem'], { DeleteItem: [prefix], erasesRecords: true })).toThrow(/not deletable/);
});

test('the signing-secrets table is read by the delivery function alone, for BatchGetItem alone', () => {
  const reading = eventFunctions.flatMap((eventFunction) =>
    eventFunction.secretsTableActions === undefined ? [] : [[eventFunction.id, eventFunction.secretsTableActions]],
  );
  expect(reading).toEqual([['deliverEvent', ['BatchGetItem']]]);
});

test('a signing function’s grant on the secrets table: exactly its actions, on that table alone, unconditioned', () => {
  const secretsTable = new Table(scratch, 'Secrets', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
  const statements = secretsTableStatements(secretsTable, ['BatchGetItem', 'BatchGetItem']).map(
    (statement) => scratch.resolve(statement.toStatementJson()) as Json,
  );
  expect(statements).toEqual([
    { Action: 'dynamodb:BatchGetItem', Effect: 'Allow', Resource: scratch.resolve(secretsTable.tableArn) },
  ]);
  expect(secretsTableStatements(secretsTable, [])).toEqual([]);
});
