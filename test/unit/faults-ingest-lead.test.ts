import { routeById } from '../../lib/routes';
import { keys } from '../../lib/storage/table-items';
import { defaultRoundPolicy } from '../../lib/storage/conditional-writes';
import { fakeTable, faults, fixture, storedProspect, transactionCancelled } from '../support/fake-table';
import { callRoute, expectCleanServerError } from '../support/route-calls';
import { recordPauses } from '../support/recorded-pauses';

/**
 * The lead webhook's own answers to faults; those common to every route (throttling, timeouts,
 * conflicts) are in faults-every-route.test.ts.
 */

const route = routeById('ingestLead');
const knownEmail = 'lea@exemple.test';
const owner = (email: string, recordId: string) => ({
  ...keys.emailMarker(fixture.workspaceId, email),
  record_id: recordId,
});
const markersAnswer = (...items: object[]) => ({ answer: { Responses: { [fixture.tableName]: items } } });

const pauses = recordPauses();

describe('lead webhook under DynamoDB faults', () => {
  it('never retries a failed marker condition blindly: it reads the markers again and finds the contact', async () => {
    const table = fakeTable();
    table.script('transaction', { fail: transactionCancelled('None', 'ConditionalCheckFailed') });
    table.script('markers', markersAnswer(), markersAnswer(owner('nouveau@exemple.test', fixture.prospectId)));
    const response = await callRoute('ingestLead', table.deps);
    expect(JSON.parse(response.body)).toMatchObject({ status: 'existing', prospect_id: fixture.prospectId });
    // The refused creation, then the known contact's write.
    expect(table.calls('transaction')).toHaveLength(2);
    expect(table.calls('markers')).toHaveLength(2);
    expect(pauses.conflict).toEqual([]);
    expect(table.journalEntries()).toEqual([expect.objectContaining({ status: 200, outcome: 'existing' })]);
  });

  it('answers a clean 500 when a known contact cannot be updated, having written nothing but the journal entry', async () => {
    const table = fakeTable();
    table.script('markers', markersAnswer(owner(knownEmail, fixture.prospectId)));
    table.failAlways('transaction', faults.provisionedThroughputExceeded);
    const body = { email: knownEmail, first_name: 'Léa' };
    const response = await callRoute('ingestLead', table.deps, { body });
    expectCleanServerError(route, response);
    expect(table.writesOutsideTransactions()).toEqual([]);
    const [entry] = table.journalEntries();
    expect(entry).toMatchObject({ status: 500, outcome: 'ingest_failed', record_id: null });
    expect(JSON.parse(String(entry?.body))).toEqual(body);
  });

  it('takes over a new phone in one transaction conditional on the version, read again when it moved', async () => {
    const table = fakeTable();
    table.script(
      'markers',
      markersAnswer(owner(knownEmail, fixture.prospectId)),
      markersAnswer(owner(knownEmail, fixture.prospectId)),
    );
    table.script(
      'prospect-read',
      { answer: { Item: storedProspect() } },
      { answer: { Item: storedProspect({ version: 5 }) } },
    );
    table.script('transaction', { fail: transactionCancelled('ConditionalCheckFailed', 'None') });
    const response = await callRoute('ingestLead', table.deps, { body: { email: knownEmail, phone: '+33611111111' } });
    expect(JSON.parse(response.body)).toMatchObject({ status: 'existing', prospect_id: fixture.prospectId });
    const versions = table
      .calls('transaction')
      .map((input) => input.TransactItems as { Update?: { ExpressionAttributeValues: Record<string, unknown> } }[])
      .map((items) => items[0]?.Update?.ExpressionAttributeValues[':version']);
    expect(versions).toEqual([4, 5]);
    expect(table.writesOutsideTransactions()).toEqual([]);
    expect(pauses.conflict).toEqual([]);
  });

  it('stops after a bounded number of rounds when the contact keeps changing: a clean 500', async () => {
    const table = fakeTable();
    table.failAlways('transaction', () => transactionCancelled('None', 'ConditionalCheckFailed'));
    const response = await callRoute('ingestLead', table.deps);
    expectCleanServerError(route, response);
    expect(table.calls('transaction')).toHaveLength(defaultRoundPolicy.attempts);
    expect(table.writesOutsideTransactions()).toEqual([]);
    expect(table.journalEntries()).toEqual([expect.objectContaining({ status: 500 })]);
  });
});
