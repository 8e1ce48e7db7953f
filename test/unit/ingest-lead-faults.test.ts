import {
  DynamoDBClient,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  PutCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { createHandler } from '../../functions/ingest-lead';
import type { Deps } from '../../lib/deps';
import { ingestLead } from '../../lib/domain/lead/ingest-lead';
import { keys } from '../../lib/storage/keys';
import { aLambdaContext, aProxyEvent } from '../support/events';

const workspaceId = '11111111-1111-4111-8111-111111111111';
const pipelineItem = {
  type: 'pipeline',
  id: 'p',
  name: 'Ventes',
  is_default: true,
  active: true,
  position: 0,
  stages: [{ id: 's', name: 'Nouveau', type: 'Follow up', order: 0 }],
};

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

function mockedDeps() {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-3' }));
  const mock = mockClient(db);
  mock.on(QueryCommand).resolves({ Items: [pipelineItem] });
  mock.on(BatchGetCommand).resolves({ Responses: { t: [] } });
  const deps: Deps = { db, tableName: 't', clock: () => new Date('2026-11-22T10:00:00Z'), newId: () => 'new-id' };
  return { deps, mock };
}

const delays: number[] = [];
const policy = {
  attempts: 5,
  baseDelayMs: 25,
  sleep: async (ms: number) => {
    delays.push(ms);
  },
};

beforeEach(() => {
  delays.length = 0;
});

describe('lead webhook under DynamoDB faults', () => {
  it('retries a transaction conflict with jittered, growing pauses, then succeeds', async () => {
    const { deps, mock } = mockedDeps();
    mock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('TransactionConflict', 'None'))
      .rejectsOnce(cancelled('None', 'TransactionConflict'))
      .resolves({});
    const result = await ingestLead(deps, workspaceId, { email: 'a@b.fr' }, policy);
    expect(result).toMatchObject({ status: 'created', prospect_id: 'new-id', placement: 'defaut' });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeLessThan(25 * 2);
    expect(delays[1]).toBeLessThan(25 * 4);
  });

  it('gives up after a bounded number of attempts', async () => {
    const { deps, mock } = mockedDeps();
    mock.on(TransactWriteCommand).rejects(cancelled('TransactionConflict', 'None'));
    await expect(ingestLead(deps, workspaceId, { email: 'a@b.fr' }, policy)).rejects.toBeInstanceOf(
      TransactionCanceledException,
    );
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(5);
  });

  it('never retries a failed condition blindly: it reads the markers again and finds the contact', async () => {
    const { deps, mock } = mockedDeps();
    mock
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { t: [] } })
      .resolves({ Responses: { t: [{ ...keys.emailMarker(workspaceId, 'A@b.fr'), record_id: 'winner' }] } });
    mock.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed'));
    mock.on(UpdateCommand).resolves({ Attributes: { id: 'winner', pipeline_id: 'p', stage_id: 's' } });
    const result = await ingestLead(deps, workspaceId, { email: 'a@b.fr' }, policy);
    expect(result).toMatchObject({ status: 'existing', prospect_id: 'winner' });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(delays).toHaveLength(0);
  });

  it.each([
    ['throttled', new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} })],
    ['conflicting without end', cancelled('TransactionConflict', 'None')],
  ])(
    'answers 500 ingest_failed when DynamoDB stays %s, with nothing written outside the transaction',
    async (_label, fault) => {
      const { deps, mock } = mockedDeps();
      mock.on(TransactWriteCommand).rejects(fault);
      const handler = createHandler(deps);
      const response = await handler(
        aProxyEvent({
          resource: '/webhooks/ingest-lead',
          httpMethod: 'POST',
          body: JSON.stringify({ email: 'a@b.fr' }),
          decision: { outcome: 'allowed', principal: { kind: 'webhook', workspaceId, endpointId: 'e' } },
        }),
        aLambdaContext(),
      );
      expect(response.statusCode).toBe(500);
      expect(JSON.parse(response.body)).toEqual({ error: 'ingest_failed', message: expect.any(String) });
      expect(response.body).not.toMatch(/Throughput|Transaction|stack/i);
      expect(mock.commandCalls(PutCommand)).toHaveLength(0);
      expect(mock.commandCalls(UpdateCommand)).toHaveLength(0);
    },
  );
});
