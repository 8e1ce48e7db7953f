import {
  DynamoDBClient,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { createHandler as addNoteHandler } from '../../functions/add-note';
import { createHandler as addTagHandler } from '../../functions/add-tag';
import { createHandler as updateProspectHandler } from '../../functions/update-prospect';
import type { AuthDecision } from '../../lib/auth/context';
import type { Deps } from '../../lib/deps';
import { aLambdaContext, aProxyEvent } from '../support/events';

const workspaceId = '11111111-1111-4111-8111-111111111111';
const prospectId = '22222222-2222-4222-8222-222222222222';
const decision: AuthDecision = {
  outcome: 'allowed',
  principal: { kind: 'api-key', workspaceId, keyId: 'key', scopes: ['*'] },
};
const prospect = {
  id: prospectId,
  workspace_id: workspaceId,
  pipeline_id: 'p',
  stage_id: 's0',
  setter_id: null,
  closer_id: null,
  next_follow_up_at: null,
  version: 4,
};
const pipeline = {
  type: 'pipeline',
  id: 'p',
  name: 'Ventes',
  is_default: true,
  active: true,
  position: 0,
  stages: [
    { id: 's0', name: 'Nouveau', type: 'Follow up', order: 0 },
    { id: 's1', name: 'Relance', type: 'Follow up', order: 1 },
  ],
};
const tag = { type: 'tag', id: 't', name: 'VIP' };

function mocked() {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-3' }));
  const mock = mockClient(db);
  mock.on(UpdateCommand).resolves({ Attributes: { requests: 1, stage_changes: 1 } });
  mock.on(GetCommand).resolves({ Item: prospect });
  mock.on(QueryCommand).resolves({ Items: [pipeline, tag] });
  const deps: Deps = { db, tableName: 't', clock: () => new Date('2026-11-22T10:00:00Z'), newId: () => 'id' };
  return { deps, mock };
}

const throttled = () => new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} });
const conflict = () =>
  new TransactionCanceledException({
    message: 'x',
    $metadata: {},
    CancellationReasons: [{ Code: 'TransactionConflict' }],
  });

const cases = [
  ['PATCH', updateProspectHandler, '/prospects/{prospect_id}', { stage: 'Relance' }],
  ['POST notes', addNoteHandler, '/prospects/{prospect_id}/notes', { content: 'x' }],
  ['POST tags', addTagHandler, '/prospects/{prospect_id}/tags', { tag: 'VIP' }],
] as const;

describe('Prospect API under DynamoDB faults: a clean 500, nothing written outside the transaction', () => {
  it.each(cases)('%s: transaction throttled', async (_label, createHandler, resource, body) => {
    const { deps, mock } = mocked();
    mock.on(TransactWriteCommand).rejects(throttled());
    const response = await createHandler(deps)(
      aProxyEvent({
        resource,
        httpMethod: 'POST',
        pathParameters: { prospect_id: prospectId },
        body: JSON.stringify(body),
        decision,
      }),
      aLambdaContext(),
    );
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ error: { code: 'internal', message: expect.any(String) } });
    expect(response.body).not.toMatch(/Throughput|slow down|stack/i);
    expect(response.headers?.['RateLimit-Limit']).toBeDefined();
    expect(mock.commandCalls(PutCommand)).toHaveLength(0);
    expect(mock.commandCalls(UpdateCommand)).toHaveLength(1);
  });

  it.each(cases)('%s: transaction conflicts retried within a bound', async (_label, createHandler, resource, body) => {
    const { deps, mock } = mocked();
    mock.on(TransactWriteCommand).rejects(conflict());
    const response = await createHandler(deps)(
      aProxyEvent({
        resource,
        httpMethod: 'POST',
        pathParameters: { prospect_id: prospectId },
        body: JSON.stringify(body),
        decision,
      }),
      aLambdaContext(),
    );
    expect(response.statusCode).toBe(500);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(5);
  });

  it('answers 500 when the rate counter cannot be reached, before any business read', async () => {
    const { deps, mock } = mocked();
    mock.on(UpdateCommand).rejects(throttled());
    const response = await updateProspectHandler(deps)(
      aProxyEvent({ pathParameters: { prospect_id: prospectId }, body: '{"stage":"Relance"}', decision }),
      aLambdaContext(),
    );
    expect(response.statusCode).toBe(500);
    expect(mock.commandCalls(GetCommand)).toHaveLength(0);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
