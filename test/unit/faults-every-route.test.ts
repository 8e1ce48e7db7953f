import { captureLogs, type CapturedLogs } from '../support/captured-logs';
import { jest } from '@jest/globals';
import { routeById } from '../../lib/routes';
import { defaultRetryPolicy } from '../../lib/storage/conditional-writes';
import { faultNames, faults, fakeTable, transactionCancelled, type AccessPattern } from '../support/fake-table';
import { callRoute, expectCleanServerError, routeIds } from '../support/route-calls';

/** The access patterns each route goes through on its way to a successful write (or read). */
const patternsOf: Record<string, AccessPattern[]> = {
  listPipelines: ['rate-counter', 'config'],
  listAssignableMembers: ['rate-counter', 'config'],
  listCustomFields: ['rate-counter', 'config'],
  getProspect: ['rate-counter', 'config', 'prospect-read'],
  findProspects: ['rate-counter', 'config', 'markers', 'prospect-read'],
  listNotes: ['rate-counter', 'prospect-page'],
  listChanges: ['rate-counter', 'prospect-page'],
  updateProspect: ['rate-counter', 'config', 'prospect-read', 'transaction'],
  addNote: ['rate-counter', 'transaction'],
  addTag: ['rate-counter', 'config', 'prospect-read', 'transaction'],
  removeTag: ['rate-counter', 'config', 'prospect-read', 'transaction'],
  ingestLead: ['config', 'markers', 'transaction'],
  recruitment: ['config', 'transaction'],
};

const writeRoutes = routeIds.filter((id) => patternsOf[id]?.includes('transaction'));

let sleeps: number[];
let logs: CapturedLogs;
beforeEach(() => {
  sleeps = [];
  jest.spyOn(defaultRetryPolicy, 'sleep').mockImplementation(async (ms) => void sleeps.push(ms));
  logs = captureLogs('ERROR');
});
afterEach(() => {
  logs.restore();
  jest.restoreAllMocks();
});

describe.each(routeIds)('%s under DynamoDB faults', (routeId) => {
  const route = routeById(routeId);
  const patterns = patternsOf[routeId] ?? [];

  it('goes through exactly its access patterns when the table is healthy', async () => {
    const table = fakeTable();
    const response = await callRoute(routeId, table.deps);
    expect(response.statusCode).toBeLessThan(300);
    for (const pattern of patterns) expect(table.calls(pattern).length).toBeGreaterThan(0);
    expect(table.writesOutsideTransactions()).toEqual([]);
  });

  const cases = patterns.flatMap((pattern) => faultNames.map((fault) => [pattern, fault] as const));
  it.each(cases)('a fault on %s (%s) is a clean 500, with no write outside the transaction', async (pattern, fault) => {
    const table = fakeTable();
    table.failAlways(pattern, faults[fault]);
    const response = await callRoute(routeId, table.deps);
    expectCleanServerError(route, response);
    expect(table.writesOutsideTransactions()).toEqual([]);
    // A webhook call is journaled even when it fails (docs/api.md#webhook-call-journal), with its status.
    if (route.credential === 'webhook-token') {
      expect(table.journalEntries()).toEqual([expect.objectContaining({ status: 500 })]);
    }
    // What follows the failed step never runs: in particular no transaction after a failed read.
    const later = patterns.slice(patterns.indexOf(pattern) + 1);
    if (later.includes('transaction')) expect(table.calls('transaction')).toHaveLength(0);
    // Our code retries transaction conflicts only; throttling and timeouts are the SDK's to retry.
    expect(sleeps).toEqual([]);
    // DynamoDB throttling (after the SDK's own retries) tells the caller to come back shortly.
    const throttled = ['ProvisionedThroughputExceededException', 'ThrottlingException'].includes(faults[fault]().name);
    expect(response.headers?.['Retry-After']).toBe(throttled ? '1' : undefined);
    // The fault is logged for the operators, by name only.
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({ level: 'ERROR', error: expect.objectContaining({ name: faults[fault]().name }) }),
    );
  });
});

describe.each(writeRoutes)('%s under transaction conflicts', (routeId) => {
  const route = routeById(routeId);

  it('retries a conflict after a jittered pause and answers as if nothing happened', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    const table = fakeTable();
    table.script('transaction', { fail: transactionCancelled('TransactionConflict') });
    const response = await callRoute(routeId, table.deps);
    expect(response.statusCode).toBeLessThan(300);
    expect(table.calls('transaction')).toHaveLength(2);
    expect(sleeps).toEqual([0.5 * defaultRetryPolicy.baseDelayMs * 2]);
  });

  it('gives up after a bounded number of attempts, with growing random pauses, and answers a clean 500', async () => {
    const table = fakeTable();
    table.failAlways('transaction', () => transactionCancelled('None', 'TransactionConflict'));
    const response = await callRoute(routeId, table.deps);
    expectCleanServerError(route, response);
    expect(table.calls('transaction')).toHaveLength(defaultRetryPolicy.attempts);
    expect(sleeps).toHaveLength(defaultRetryPolicy.attempts - 1);
    sleeps.forEach((ms, index) => {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(defaultRetryPolicy.baseDelayMs * 2 ** (index + 1));
    });
    expect(table.writesOutsideTransactions()).toEqual([]);
  });

  it('draws every pause at random below its bound ("full jitter")', async () => {
    const draws = [0, 0.999, 0.25, 0.75];
    jest.spyOn(Math, 'random').mockImplementation(() => draws.shift() ?? 0.5);
    const table = fakeTable();
    table.failAlways('transaction', () => transactionCancelled('TransactionConflict'));
    await callRoute(routeId, table.deps);
    const base = defaultRetryPolicy.baseDelayMs;
    expect(sleeps).toEqual([0, 0.999 * base * 4, 0.25 * base * 8, 0.75 * base * 16]);
  });
});
