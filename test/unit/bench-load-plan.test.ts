import { requestLimit } from '../../lib/storage/rate-limit';
import { connectionCounts, loadPlan, requestsPerKey } from '../../tools/bench/load';
import { operations } from '../../tools/bench/operations';
import { apiKeyCount, handOut } from '../../tools/bench/workspace';

describe('load plan', () => {
  it.each(connectionCounts)(
    'at %i connections: a key per connection at least, and no key past its limit',
    (connections) => {
      const plan = loadPlan(connections);
      expect(plan.keys).toBeGreaterThanOrEqual(connections);
      expect(Math.ceil(plan.requests / plan.keys)).toBeLessThanOrEqual(requestsPerKey);
      expect(plan.requests).toBeGreaterThanOrEqual(connections);
    },
  );

  it('leaves each key a margin under 120 requests a minute', () => {
    expect(requestsPerKey).toBeLessThan(requestLimit);
  });

  it('hands each seeded key (or prospect) out once, and says so when none is left', () => {
    const keys = handOut(['a', 'b', 'c'], 'API keys');
    expect([...keys(2), ...keys(1)]).toEqual(['a', 'b', 'c']);
    expect(() => keys(1)).toThrow('the bench workspace has only 3 API keys to hand out');
  });

  it('seeds enough keys for every run, operation and cold start of a workspace to have keys of its own', () => {
    const loadKeys = connectionCounts.reduce((total, connections) => total + loadPlan(connections).keys, 0);
    // The note runs, two warm-ups, and one key per operation and per route cold-started.
    expect(loadKeys + 2 + 2 * operations.length).toBeLessThanOrEqual(apiKeyCount);
  });
});
