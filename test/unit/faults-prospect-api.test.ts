import { defaultRoundPolicy } from '../../lib/storage/conditional-writes';
import {
  conditionFailed,
  fakeTable,
  faults,
  fixture,
  storedProspect,
  transactionCancelled,
} from '../support/fake-table';
import { callRoute, expectCleanServerError } from '../support/route-calls';
import { routeById } from '../../lib/routes';
import { recordPauses } from '../support/recorded-pauses';

/**
 * A failed condition is a fact about the data, never retried as is: the use case reads again and
 * decides anew (or answers 404 / 429 / 422), without the pause reserved for transaction conflicts.
 * The faults common to every route are in faults-every-route.test.ts.
 */

const pauses = recordPauses();

const versionCondition = (input: Record<string, unknown>) =>
  (input.TransactItems as { Update?: { ExpressionAttributeValues: Record<string, unknown> } }[])[0]?.Update
    ?.ExpressionAttributeValues[':version'];

describe('PATCH /prospects/{id} when its condition fails', () => {
  it('reads the prospect again and writes against the new version, without pausing', async () => {
    const table = fakeTable();
    table.script('transaction', { fail: transactionCancelled('ConditionalCheckFailed', 'None') });
    table.script(
      'prospect-read',
      { answer: { Item: storedProspect() } },
      { answer: { Item: storedProspect({ version: 5 }) } },
    );
    const response = await callRoute('updateProspect', table.deps);
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ changed: ['stage'] });
    expect(table.calls('transaction').map(versionCondition)).toEqual([4, 5]);
    expect(table.calls('prospect-read')).toHaveLength(2);
    expect(pauses.conflict).toEqual([]);
  });

  it('answers "nothing changed" when the re-read shows the change already made by another call', async () => {
    const table = fakeTable();
    table.script('transaction', { fail: transactionCancelled('ConditionalCheckFailed', 'None') });
    table.script(
      'prospect-read',
      { answer: { Item: storedProspect() } },
      { answer: { Item: storedProspect({ version: 5, stage_id: fixture.stages.followUp }) } },
    );
    const response = await callRoute('updateProspect', table.deps);
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ changed: [] });
    expect(table.calls('transaction')).toHaveLength(1);
  });

  it('never claims a change whose log entry was refused: the transaction wrote nothing, so it tries again', async () => {
    const table = fakeTable();
    table.script('transaction', { fail: transactionCancelled('None', 'ConditionalCheckFailed') });
    const response = await callRoute('updateProspect', table.deps);
    expect(response.statusCode).toBe(200);
    const [first, second] = table.calls('transaction') as { TransactItems: { Put?: { Item: { id: string } } }[] }[];
    expect(second).toBeDefined();
    expect(second?.TransactItems[1]?.Put?.Item.id).not.toEqual(first?.TransactItems[1]?.Put?.Item.id);
  });

  it('stops after a bounded number of reads when the prospect keeps changing: a clean 500', async () => {
    const table = fakeTable();
    table.failAlways('transaction', () => transactionCancelled('ConditionalCheckFailed', 'None'));
    const response = await callRoute('updateProspect', table.deps);
    expectCleanServerError(routeById('updateProspect'), response);
    expect(table.calls('transaction')).toHaveLength(defaultRoundPolicy.attempts);
    expect(pauses.conflict).toEqual([]);
  });
});

describe('POST notes when the prospect condition fails', () => {
  it('answers 404 after one transaction: the prospect does not exist', async () => {
    const table = fakeTable();
    table.script('transaction', { fail: transactionCancelled('ConditionalCheckFailed', 'None', 'None') });
    const response = await callRoute('addNote', table.deps);
    expect(response.statusCode).toBe(404);
    expect(table.calls('transaction')).toHaveLength(1);
    expect(pauses.conflict).toEqual([]);
  });
});

describe.each([
  ['addTag', { tag_ids: new Set([fixture.tags.hot, fixture.tags.vip]) }, 'already_present'],
  ['removeTag', { tag_ids: undefined }, 'absent'],
])('%s when the version condition fails', (routeId, meanwhile, outcome) => {
  it(`reads again and answers "${outcome}" when another call made the same change`, async () => {
    const table = fakeTable();
    table.script('transaction', { fail: transactionCancelled('ConditionalCheckFailed', 'None') });
    table.script(
      'prospect-read',
      { answer: { Item: storedProspect() } },
      { answer: { Item: storedProspect({ version: 5, ...meanwhile }) } },
    );
    const response = await callRoute(routeId, table.deps);
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ outcome });
    expect(table.calls('transaction')).toHaveLength(1);
    expect(pauses.conflict).toEqual([]);
  });
});

describe('gate and idempotency conditions', () => {
  it('a refused rate-limit condition is a 429 with Retry-After, counted once, nothing else read', async () => {
    const table = fakeTable();
    table.script('rate-counter', { fail: conditionFailed({ requests: { N: '120' } }) });
    const response = await callRoute('addNote', table.deps);
    expect(response.statusCode).toBe(429);
    expect(response.headers?.['Retry-After']).toMatch(/^\d+$/);
    expect(table.calls('rate-counter')).toHaveLength(1);
    expect(table.calls('transaction')).toHaveLength(0);
  });

  it('a key taken with another body is a 422, claimed once, nothing else written', async () => {
    const table = fakeTable();
    table.script('idempotency', {
      fail: conditionFailed({ request_hash: { S: 'other' }, state: { S: 'answered' } }),
    });
    const response = await callRoute('addNote', table.deps, { headers: { 'Idempotency-Key': 'k1' } });
    expect(response.statusCode).toBe(422);
    expect(table.calls('idempotency')).toHaveLength(1);
    expect(table.calls('transaction')).toHaveLength(0);
  });

  it('a throttled transaction releases the Idempotency-Key, so that the retry runs it again', async () => {
    const table = fakeTable();
    table.failAlways('transaction', faults.provisionedThroughputExceeded);
    const response = await callRoute('addNote', table.deps, { headers: { 'Idempotency-Key': 'k2' } });
    expectCleanServerError(routeById('addNote'), response);
    const [claim, released] = table.calls('idempotency');
    expect(claim).toHaveProperty('ConditionExpression');
    expect(released).toMatchObject({
      TableName: fixture.tableName,
      Key: { pk: claim?.Item?.pk, sk: 'IDEM' },
      ConditionExpression: 'claimant = :claimant AND #state = :inFlight',
      ExpressionAttributeValues: { ':released': 'released', ':claimant': claim?.Item?.claimant },
    });
  });
});
