import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  InternalServerError,
  ProvisionedThroughputExceededException,
  ThrottlingException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { fingerprint } from '../../lib/storage/credentials';
import type { Deps } from '../../lib/storage/client';
import { keys } from '../../lib/storage/table-items';
import { recordingMetrics } from './recording-metrics';

/**
 * A scriptable stand-in for the table behind aws-sdk-client-mock: every call is sorted into the
 * access pattern it serves (docs/data-model.md), answered like a healthy table by default, or with
 * what a test scripted for that pattern. Fault tests assert on the patterns, not on call order.
 */

export const fixture = {
  tableName: 't',
  workspaceId: '11111111-1111-4111-8111-111111111111',
  prospectId: '22222222-2222-4222-8222-222222222222',
  endpointId: '33333333-3333-4333-8333-333333333333',
  keyId: '44444444-4444-4444-8444-444444444444',
  apiKeySecret: 'crm_key_fixture',
  webhookToken: 'crm_whk_fixture',
  pipelineId: '55555555-5555-4555-8555-555555555555',
  stages: { new: '66666666-6666-4666-8666-666666666601', followUp: '66666666-6666-4666-8666-666666666602' },
  recruitmentPipelineId: '77777777-7777-4777-8777-777777777777',
  tags: { vip: '88888888-8888-4888-8888-888888888801', hot: '88888888-8888-4888-8888-888888888802' },
  memberId: '99999999-9999-4999-8999-999999999999',
  now: new Date('2026-11-22T10:00:00Z'),
} as const;

/** The workspace's configuration item: the workspace embedding members, tags and pipelines. */
const configItem = {
  pk: `WS#${fixture.workspaceId}`,
  sk: 'CFG#WORKSPACE',
  type: 'workspace',
  id: fixture.workspaceId,
  name: 'Acme',
  created_at: '2026-01-01T00:00:00.000Z',
  config_version: 1,
  members: [{ type: 'member', id: fixture.memberId, name: 'Alice Martin', email: 'alice@acme.test' }],
  tags: [
    { type: 'tag', id: fixture.tags.vip, name: 'VIP' },
    { type: 'tag', id: fixture.tags.hot, name: 'Chaud' },
  ],
  sales_pipelines: [
    {
      type: 'pipeline',
      id: fixture.pipelineId,
      name: 'Ventes',
      is_default: true,
      active: true,
      position: 0,
      stages: [
        { id: fixture.stages.new, name: 'Nouveau', type: 'Appointment Setting', order: 0 },
        { id: fixture.stages.followUp, name: 'Relance', type: 'Follow up', order: 1 },
      ],
    },
  ],
  recruitment_pipelines: [
    {
      type: 'recruitment_pipeline',
      id: fixture.recruitmentPipelineId,
      name: 'Développeurs',
      is_default: true,
      active: true,
      position: 0,
      columns: [{ id: 'c', name: 'Candidature reçue', order: 0 }],
    },
  ],
};

/** The prospect every Prospect API call targets: on the first stage, tagged "Chaud", version 4. */
export const storedProspect = (overrides: Record<string, unknown> = {}) => ({
  pk: `PROSPECT#${fixture.workspaceId}#${fixture.prospectId}`,
  sk: 'PROSPECT',
  type: 'prospect',
  id: fixture.prospectId,
  workspace_id: fixture.workspaceId,
  pipeline_id: fixture.pipelineId,
  stage_id: fixture.stages.new,
  setter_id: null,
  closer_id: null,
  next_follow_up_at: null,
  first_name: 'Léa',
  last_name: null,
  email: 'lea@exemple.test',
  phone: null,
  social_url: null,
  source: null,
  tag_ids: new Set([fixture.tags.hot]),
  version: 4,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

export type AccessPattern =
  | 'rate-counter'
  | 'config'
  | 'prospect-read'
  | 'prospect-page'
  | 'prospect-update'
  | 'markers'
  | 'transaction'
  | 'note-put'
  | 'key-read'
  | 'endpoint-read'
  | 'endpoint-call'
  | 'idempotency'
  | 'journal';

type Operation = 'Get' | 'Put' | 'Update' | 'Delete' | 'Query' | 'BatchGet' | 'TransactWrite';
type Input = Record<string, unknown> & { Key?: { pk?: string }; Item?: { pk?: string; [attribute: string]: unknown } };

/**
 * A BatchGetItem reads items of several patterns at once (the configuration item with the
 * contact markers or with the prospect): it serves each of them, once per pattern.
 */
const batchKeys = (input: Input): { pk: string; sk: string }[] =>
  Object.values(input.RequestItems as Record<string, { Keys: { pk: string; sk: string }[] }>).flatMap(
    (request) => request.Keys,
  );

function batchPatternsOf(input: Input): AccessPattern[] {
  const patterns = batchKeys(input).map(({ pk }): AccessPattern => {
    if (pk.startsWith('WS#')) return 'config';
    if (pk.startsWith('UNIQ#')) return 'markers';
    if (pk.startsWith('PROSPECT#')) return 'prospect-read';
    throw new Error(`fake table: no access pattern for BatchGet on ${pk}`);
  });
  return [...new Set(patterns)];
}

function patternOf(operation: Operation, input: Input): AccessPattern {
  const pk = input.Key?.pk ?? input.Item?.pk ?? queriedPartition(input) ?? '';
  if (operation === 'TransactWrite') return 'transaction';
  if (pk.startsWith('WS#') && operation === 'Get') return 'config';
  if (pk.startsWith('RATE#')) return 'rate-counter';
  if (pk.startsWith('IDEM#')) return 'idempotency';
  if (pk.startsWith('CALL#')) return 'journal';
  if (pk.startsWith('APIKEY#')) return 'key-read';
  if (pk.startsWith('ENDPOINT#')) return operation === 'Get' ? 'endpoint-read' : 'endpoint-call';
  if (pk.startsWith('PROSPECT#') && operation === 'Query') return 'prospect-page';
  if (pk.startsWith('PROSPECT#')) return operation === 'Get' ? 'prospect-read' : 'prospect-update';
  if (operation === 'Put') return 'note-put';
  throw new Error(`fake table: no access pattern for ${operation} on ${pk}`);
}

/** A Query names its partition in its values (`pk = :pk`). */
const queriedPartition = (input: Input): string | undefined =>
  (input.ExpressionAttributeValues as Record<string, unknown> | undefined)?.[':pk'] as string | undefined;

/** The fixture prospect's own e-mail marker: a look-up by its e-mail finds it; any other contact is new. */
const fixtureMarkers = (input: Input) =>
  batchKeys(input)
    .filter(({ pk }) => pk === keys.emailMarker(fixture.workspaceId, storedProspect().email).pk)
    .map((key) => ({ ...key, record_id: fixture.prospectId }));

const healthy: Record<AccessPattern, (input: Input) => unknown> = {
  'rate-counter': () => ({ Attributes: { requests: 1, stage_changes: 1 } }),
  config: () => ({ Item: configItem }),
  'prospect-read': () => ({ Item: storedProspect() }),
  'prospect-update': () => ({ Attributes: storedProspect({ version: 5 }) }),
  markers: (input) => ({ Responses: { [fixture.tableName]: fixtureMarkers(input) } }),
  'prospect-page': () => ({ Items: [storedProspect()] }),
  transaction: () => ({}),
  'note-put': () => ({}),
  'key-read': () => ({
    Item: {
      id: fixture.keyId,
      workspace_id: fixture.workspaceId,
      name: 'Zapier',
      scopes: ['*'],
      fingerprint: fingerprint(fixture.apiKeySecret),
      created_at: '2026-01-01T00:00:00.000Z',
      revoked_at: null,
    },
  }),
  'endpoint-read': () => ({ Item: storedEndpoint() }),
  'endpoint-call': () => ({ Attributes: { ...storedEndpoint(), last_call_at: '2026-11-22T10:00:00.000Z' } }),
  idempotency: () => ({}),
  journal: () => ({}),
};

/** The webhook endpoint of the fixture, as stored. */
export function storedEndpoint(): Record<string, unknown> {
  return {
    id: fixture.endpointId,
    workspace_id: fixture.workspaceId,
    token_fingerprint: fingerprint(fixture.webhookToken),
    active: true,
    created_at: '2026-01-01T00:00:00.000Z',
    last_call_at: null,
  };
}

/** What a scripted call does: fail with an error, or answer with a value. */
type Outcome = { fail: unknown } | { answer: unknown };

export type FakeTable = {
  deps: Deps;
  /** The next calls to `pattern` get these outcomes, in order; later calls are healthy again. */
  script: (pattern: AccessPattern, ...outcomes: Outcome[]) => void;
  /** Every call to `pattern` fails with a fresh `fault()`. */
  failAlways: (pattern: AccessPattern, fault: () => unknown) => void;
  calls: (pattern: AccessPattern) => Input[];
  /** Every single-item write sent outside a transaction, as pattern names (the journal's own write apart). */
  writesOutsideTransactions: () => AccessPattern[];
  /** Every webhook call journal entry written (by a call that did not fail), in a transaction or as a call's one write. */
  journalEntries: () => Record<string, unknown>[];
};

export function fakeTable(): FakeTable {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-3' }));
  const mock = mockClient(db);
  const scripted = new Map<AccessPattern, Outcome[]>();
  const always = new Map<AccessPattern, () => unknown>();
  const log: { operation: Operation; pattern: AccessPattern; input: Input; failed: boolean }[] = [];

  const serve = (operation: Operation, pattern: AccessPattern, input: Input): Outcome => {
    const fault = always.get(pattern);
    const outcome = fault ? { fail: fault() } : (scripted.get(pattern)?.shift() ?? { answer: healthy[pattern](input) });
    log.push({ operation, pattern, input, failed: 'fail' in outcome });
    return outcome;
  };
  const handle = (operation: Operation) => async (input: Input) => {
    const outcome = serve(operation, patternOf(operation, input), input);
    if ('fail' in outcome) throw outcome.fail;
    return outcome.answer;
  };
  /** Each pattern's answer (a Get's `Item`, or the markers' `Responses`) merged into one response. */
  const handleBatch = async (input: Input) => {
    const outcomes = batchPatternsOf(input).map((pattern) => serve('BatchGet', pattern, input));
    const failed = outcomes.find((outcome) => 'fail' in outcome);
    if (failed && 'fail' in failed) throw failed.fail;
    const found = outcomes.flatMap((outcome) => {
      const answer = ('answer' in outcome ? outcome.answer : {}) as {
        Item?: unknown;
        Responses?: Record<string, unknown[]>;
      };
      return [...(answer.Item ? [answer.Item] : []), ...(answer.Responses?.[fixture.tableName] ?? [])];
    });
    return { Responses: { [fixture.tableName]: found } };
  };
  mock.on(GetCommand).callsFake(handle('Get'));
  mock.on(PutCommand).callsFake(handle('Put'));
  mock.on(UpdateCommand).callsFake(handle('Update'));
  mock.on(DeleteCommand).callsFake(handle('Delete'));
  mock.on(QueryCommand).callsFake(handle('Query'));
  mock.on(BatchGetCommand).callsFake(handleBatch);
  mock.on(TransactWriteCommand).callsFake(handle('TransactWrite'));

  return {
    deps: {
      db,
      tableName: fixture.tableName,
      clock: () => fixture.now,
      newId: sequentialIds(),
      metrics: recordingMetrics(),
    },
    script: (pattern, ...outcomes) => scripted.set(pattern, [...(scripted.get(pattern) ?? []), ...outcomes]),
    failAlways: (pattern, fault) => always.set(pattern, fault),
    calls: (pattern) => log.filter((call) => call.pattern === pattern).map((call) => call.input),
    writesOutsideTransactions: () =>
      log
        .filter((call) => ['Put', 'Update', 'Delete'].includes(call.operation))
        .map((call) => call.pattern)
        .filter((pattern) => pattern !== 'rate-counter' && pattern !== 'journal'),
    journalEntries: () =>
      log.flatMap(({ operation, pattern, input, failed }) => {
        if (failed) return [];
        if (pattern === 'journal') return [input.Item as Record<string, unknown>];
        if (operation !== 'TransactWrite') return [];
        return (input.TransactItems as { Put?: { Item: Record<string, unknown> } }[])
          .map((item) => item.Put?.Item)
          .filter((item): item is Record<string, unknown> => String(item?.pk).startsWith('CALL#'));
      }),
  };
}

function sequentialIds(): () => string {
  let next = 0;
  return () => `aaaaaaaa-aaaa-4aaa-8aaa-${String((next += 1)).padStart(12, '0')}`;
}

/** The faults DynamoDB and the SDK raise, each built fresh (SDK errors carry per-call metadata). */
export const faults = {
  provisionedThroughputExceeded: () =>
    new ProvisionedThroughputExceededException({ message: 'Throughput exceeds the provisioned rate', $metadata: {} }),
  throttling: () =>
    new ThrottlingException({ message: 'Rate of requests exceeds the allowed throughput', $metadata: {} }),
  timeout: () =>
    Object.assign(new Error('@smithy/node-http-handler - the request socket timed out after 3000 ms'), {
      name: 'TimeoutError',
    }),
  connectionReset: () => Object.assign(new Error('socket hang up'), { name: 'Error', code: 'ECONNRESET' }),
  internalServerError: () => new InternalServerError({ message: 'Internal server error', $metadata: {} }),
} as const;

export const faultNames = Object.keys(faults) as (keyof typeof faults)[];

export const transactionCancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

export const conditionFailed = (item?: Record<string, unknown>) =>
  new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    $metadata: {},
    ...(item ? { Item: item as never } : {}),
  });
