import { routeById } from '../../lib/routes';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { fakeTable, faults, fixture } from '../support/fake-table';
import { callRoute, expectCleanServerError } from '../support/route-calls';
import { recordPauses } from '../support/recorded-pauses';

/**
 * The recruitment webhook's own answers to faults; those common to every route (throttling,
 * timeouts, conflicts) are in faults-every-route.test.ts.
 */

const markerTaken = () =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: [
      { Code: 'ConditionalCheckFailed', Item: { record_id: { S: 'known' } } },
      { Code: 'None' },
      { Code: 'None' },
    ],
  });

const pauses = recordPauses();

describe('recruitment webhook under DynamoDB faults', () => {
  it('turns a taken marker into a note on the known candidate, read from the cancellation itself', async () => {
    const table = fakeTable();
    table.script('transaction', { fail: markerTaken() });
    const response = await callRoute('recruitment', table.deps, {
      body: { email: 'a@b.fr', name: 'A', answers: { Q: 'R' } },
    });
    expect(JSON.parse(response.body)).toEqual({ ok: true, talent_id: 'known', action: 'existing' });
    const [refused, noted] = table.calls('transaction');
    expect(refused).toBeDefined();
    const [note, journal, candidate] = (noted?.TransactItems ?? []) as {
      Put?: { Item: Record<string, unknown> };
      Update?: { Key: Record<string, unknown>; ExpressionAttributeValues: Record<string, unknown> };
    }[];
    expect(note?.Put?.Item).toEqual(
      expect.objectContaining({ record_id: 'known', content: 'Q : R', pk: `CANDIDATE#${fixture.workspaceId}#known` }),
    );
    expect(journal?.Put?.Item).toEqual(
      expect.objectContaining({ type: 'webhook_call', outcome: 'existing', record_id: 'known', status: 200 }),
    );
    // The known candidate's last application moves with the note (the retention's index key).
    expect(candidate?.Update).toMatchObject({
      Key: { pk: `CANDIDATE#${fixture.workspaceId}#known`, sk: 'CANDIDATE' },
      ExpressionAttributeValues: { ':at': note?.Put?.Item.created_at },
    });
    expect(pauses.conflict).toEqual([]);
  });

  it('creates a new candidate when the known one was erased between the refusal and its note', async () => {
    const table = fakeTable();
    const candidateGone = new TransactionCanceledException({
      message: 'cancelled',
      $metadata: {},
      CancellationReasons: [{ Code: 'None' }, { Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
    });
    table.script('transaction', { fail: markerTaken() }, { fail: candidateGone });
    const response = await callRoute('recruitment', table.deps, {
      body: { email: 'a@b.fr', name: 'A', answers: { Q: 'R' } },
    });
    expect(JSON.parse(response.body)).toMatchObject({ ok: true, action: 'created' });
    const [, , created] = table.calls('transaction');
    const items = (created?.TransactItems ?? []) as { Put?: { Item: Record<string, unknown> } }[];
    expect(items.map((item) => item.Put?.Item.type)).toEqual(['marker', 'candidate', 'note', 'webhook_call']);
  });

  it('answers a clean 500 when the note on a known candidate cannot be written, and writes nothing but the journal entry', async () => {
    const table = fakeTable();
    table.script('transaction', { fail: markerTaken() }, { fail: faults.throttling() });
    const response = await callRoute('recruitment', table.deps);
    expectCleanServerError(routeById('recruitment'), response);
    expect(table.writesOutsideTransactions()).toEqual([]);
    expect(table.journalEntries()).toEqual([expect.objectContaining({ status: 500, outcome: 'internal' })]);
  });
});
