import { untilProcessed, type RetryPolicy } from '../../lib/storage/client';

/** `untilProcessed`, the batch calls' retry of lib/storage/client.ts, with a recorded sleep instead of real pauses. */
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
