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
    expect(table.calls('transaction')).toHaveLength(1);
    expect(table.calls('note-put')[0]?.Item).toMatchObject({
      record_id: 'known',
      content: 'Q : R',
      pk: `CANDIDATE#${fixture.workspaceId}#known`,
    });
    expect(pauses.conflict).toEqual([]);
  });

  it('answers a clean 500 when the note on a known candidate cannot be written, and writes nothing else', async () => {
    const table = fakeTable();
    table.script('transaction', { fail: markerTaken() });
    table.failAlways('note-put', faults.throttling);
    const response = await callRoute('recruitment', table.deps);
    expectCleanServerError(routeById('recruitment'), response);
    expect(table.writesOutsideTransactions()).toEqual(['note-put']);
  });
});
