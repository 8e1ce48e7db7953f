import { requestLimit } from '../../lib/storage/rate-limit';
import { connectionCounts, loadKeyLabels, loadPlan, requestsPerKey } from '../../tools/bench/load-plan';

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

  it('gives every run of a phase keys of its own', () => {
    const labels = loadKeyLabels('empty');
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toHaveLength(connectionCounts.reduce((total, connections) => total + loadPlan(connections).keys, 0));
    expect(labels.some((label) => loadKeyLabels('bulk').includes(label))).toBe(false);
  });
});
