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
    const items = (noted?.TransactItems ?? []) as { Put: { Item: Record<string, unknown> } }[];
    expect(items.map((item) => item.Put.Item)).toEqual([
      expect.objectContaining({ record_id: 'known', content: 'Q : R', pk: `CANDIDATE#${fixture.workspaceId}#known` }),
      expect.objectContaining({ type: 'webhook_call', outcome: 'existing', record_id: 'known', status: 200 }),
    ]);
    expect(pauses.conflict).toEqual([]);
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
