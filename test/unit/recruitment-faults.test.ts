import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { Deps } from '../../lib/deps';
import { receiveApplication } from '../../lib/domain/recruitment/receive-application';

const workspaceId = '11111111-1111-4111-8111-111111111111';
const pipeline = {
  type: 'recruitment_pipeline',
  id: 'r',
  name: 'Devs',
  is_default: true,
  active: true,
  position: 0,
  columns: [{ id: 'c', name: 'Reçue', order: 0 }],
};
const cancelled = (reasons: { Code: string; Item?: Record<string, unknown> }[]) =>
  new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: reasons as never });

function mockedDeps() {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-3' }));
  const mock = mockClient(db);
  mock.on(QueryCommand).resolves({ Items: [pipeline] });
  let id = 0;
  const deps: Deps = {
    db,
    tableName: 't',
    clock: () => new Date('2026-11-22T10:00:00Z'),
    newId: () => `id-${(id += 1)}`,
  };
  return { deps, mock };
}
const noPause = { attempts: 3, baseDelayMs: 1, sleep: async () => undefined };

describe('recruitment webhook under DynamoDB faults', () => {
  it('retries a transaction conflict, within a bound', async () => {
    const { deps, mock } = mockedDeps();
    mock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled([{ Code: 'TransactionConflict' }]))
      .resolves({});
    await expect(receiveApplication(deps, workspaceId, { email: 'a@b.fr', name: 'A' }, noPause)).resolves.toMatchObject(
      {
        action: 'created',
      },
    );
    mock.on(TransactWriteCommand).rejects(cancelled([{ Code: 'TransactionConflict' }]));
    await expect(receiveApplication(deps, workspaceId, { email: 'a@b.fr', name: 'A' }, noPause)).rejects.toBeInstanceOf(
      TransactionCanceledException,
    );
  });

  it('turns a taken marker into a note on the known candidate, read from the cancellation itself', async () => {
    const { deps, mock } = mockedDeps();
    mock
      .on(TransactWriteCommand)
      .rejects(cancelled([{ Code: 'ConditionalCheckFailed', Item: { record_id: { S: 'known' } } }, { Code: 'None' }]));
    mock.on(PutCommand).resolves({});
    const result = await receiveApplication(
      deps,
      workspaceId,
      { email: 'a@b.fr', name: 'A', answers: { Q: 'R' } },
      noPause,
    );
    expect(result).toEqual({ ok: true, talent_id: 'known', action: 'existing' });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(1);
    const note = mock.commandCalls(PutCommand)[0]?.args[0].input.Item;
    expect(note).toMatchObject({ record_id: 'known', content: 'Q : R', pk: `CANDIDATE#${workspaceId}#known` });
  });
});
