import { retryWhileChangedMeanwhile, untilProcessed, type RetryPolicy } from '../../lib/storage/retry';

/** The shared retry helpers of lib/storage/retry.ts, with a recorded sleep instead of real pauses. */
function recordingPolicy(attempts: number): RetryPolicy & { sleeps: number[] } {
  const sleeps: number[] = [];
  return { attempts, baseDelayMs: 10, sleeps, sleep: async (ms) => void sleeps.push(ms) };
}

describe('untilProcessed (batch calls that leave a part unprocessed)', () => {
  it('sends the unprocessed part again, with growing pauses, until nothing is left', async () => {
    const policy = recordingPolicy(6);
    const sent: string[][] = [];
    const leftovers = [['b', 'c'], ['c'], []];
    await untilProcessed(['a', 'b', 'c'], async (part) => (sent.push([...part]), leftovers.shift() ?? []), policy);
    expect(sent).toEqual([['a', 'b', 'c'], ['b', 'c'], ['c']]);
    expect(policy.sleeps).toEqual([40, 80]);
  });

  it('fails after the bounded number of rounds when a part stays unprocessed', async () => {
    const policy = recordingPolicy(3);
    let rounds = 0;
    await expect(untilProcessed(['a'], async (part) => ((rounds += 1), part), policy)).rejects.toThrow('unprocessed');
    expect(rounds).toBe(3);
  });

  it('sends nothing for nothing', async () => {
    let rounds = 0;
    await untilProcessed([], async () => ((rounds += 1), []));
    expect(rounds).toBe(0);
  });
});

describe('retryWhileChangedMeanwhile (optimistic rounds)', () => {
  it('reads again at once after the first lost race, then pauses with jitter', async () => {
    const policy = recordingPolicy(8);
    let round = 0;
    const result = await retryWhileChangedMeanwhile(
      async () => ((round += 1), round === 4 ? 'done' : undefined),
      policy,
    );
    expect(result).toBe('done');
    expect(policy.sleeps).toHaveLength(2);
    policy.sleeps.forEach((ms, index) => expect(ms).toBeLessThan(10 * 2 ** (index + 2)));
  });

  it('gives up with undefined after its attempts', async () => {
    const policy = recordingPolicy(5);
    let rounds = 0;
    expect(await retryWhileChangedMeanwhile(async () => void (rounds += 1), policy)).toBeUndefined();
    expect(rounds).toBe(5);
  });
});
