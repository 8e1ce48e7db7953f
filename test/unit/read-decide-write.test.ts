import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  readDecideWrite,
  type Decision,
  type LoopPolicy,
  type PreviousRound,
  type RoundRead,
  type WriteOutcome,
} from '../../lib/storage/conditional-writes';
import type { RetryPolicy } from '../../lib/storage/client';

/** The loop alone, on scripted reads and writes: no DynamoDB, pauses recorded instead of waited. */

const recording = (attempts: number): RetryPolicy & { sleeps: number[] } => {
  const sleeps: number[] = [];
  return { attempts, baseDelayMs: 10, sleeps, sleep: async (ms) => void sleeps.push(ms) };
};
const policyOf = (rounds = 8, conflicts = 5) => ({ rounds: recording(rounds), conflicts: recording(conflicts) });

type Snapshot = { version: number };
type Script = {
  reads: RoundRead<Snapshot>[];
  decisions: Decision<string, string>[];
  writes?: (WriteOutcome<string, number> | Error)[];
};

/** Runs the loop on scripted steps; records what each read was told of the round before, and each write. */
async function run(script: Script, policy: LoopPolicy = policyOf()) {
  const told: (PreviousRound<Snapshot, number> | undefined)[] = [];
  const written: string[] = [];
  const answer = readDecideWrite<Snapshot, string, string, number>(
    {
      read: async (previous) => (
        told.push(previous),
        script.reads.shift() ?? { snapshot: { version: 0 }, consistent: true }
      ),
      decide: () => script.decisions.shift() ?? { kind: 'lost-race' },
      write: async (write) => {
        written.push(write);
        const outcome = script.writes?.shift() ?? { kind: 'lost-race' };
        if (outcome instanceof Error) throw outcome;
        return outcome;
      },
      contended: () => new Error('contended'),
    },
    policy,
  );
  return { answer, told, written };
}

const consistent = (version: number): RoundRead<Snapshot> => ({ snapshot: { version }, consistent: true });
const stale = (version: number): RoundRead<Snapshot> => ({ snapshot: { version }, consistent: false });
const conflict = () =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'TransactionConflict' }],
  });

describe('readDecideWrite', () => {
  it('answers a decision that writes nothing at once when the read may answer', async () => {
    const { answer, told, written } = await run({
      reads: [consistent(1)],
      decisions: [{ kind: 'answer', answer: 'same' }],
    });
    await expect(answer).resolves.toBe('same');
    expect(told).toEqual([undefined]);
    expect(written).toEqual([]);
  });

  it('confirms an answer or a refusal taken on an eventually consistent read by reading again', async () => {
    const refusal = new Error('not found');
    const { answer, told } = await run({
      reads: [stale(1), consistent(2)],
      decisions: [
        { kind: 'refuse', refusal: new Error('stale refusal') },
        { kind: 'refuse', refusal },
      ],
    });
    await expect(answer).rejects.toBe(refusal);
    expect(told).toEqual([undefined, { round: 1, snapshot: { version: 1 }, reason: 'unconfirmed' }]);
  });

  it('writes a decision taken on any read, and answers what the write made', async () => {
    const { answer, told, written } = await run({
      reads: [stale(1)],
      decisions: [{ kind: 'write', write: 'v2' }],
      writes: [{ kind: 'written', answer: 'moved' }],
    });
    await expect(answer).resolves.toBe('moved');
    expect(told).toHaveLength(1);
    expect(written).toEqual(['v2']);
  });

  it('reads again after a lost race, telling the read what the refusal taught', async () => {
    const { answer, told, written } = await run({
      reads: [stale(1), consistent(2)],
      decisions: [
        { kind: 'write', write: 'on v1' },
        { kind: 'write', write: 'on v2' },
      ],
      writes: [
        { kind: 'lost-race', learned: 2 },
        { kind: 'written', answer: 'done' },
      ],
    });
    await expect(answer).resolves.toBe('done');
    expect(told[1]).toEqual({ round: 1, snapshot: { version: 1 }, reason: 'lost-race', learned: 2 });
    expect(written).toEqual(['on v1', 'on v2']);
  });

  it('reads again when the decision itself sees a write under way', async () => {
    const { answer, told } = await run({
      reads: [consistent(1), consistent(2)],
      decisions: [{ kind: 'lost-race' }, { kind: 'answer', answer: 'settled' }],
    });
    await expect(answer).resolves.toBe('settled');
    expect(told[1]).toMatchObject({ reason: 'lost-race', learned: undefined });
  });

  it('sends a write cancelled for a transaction conflict again, after a jittered pause, without reading again', async () => {
    const policy = policyOf();
    const { answer, told, written } = await run(
      {
        reads: [consistent(1)],
        decisions: [{ kind: 'write', write: 'w' }],
        writes: [conflict(), { kind: 'written', answer: 'ok' }],
      },
      policy,
    );
    await expect(answer).resolves.toBe('ok');
    expect(told).toHaveLength(1);
    expect(written).toEqual(['w', 'w']);
    expect(policy.conflicts.sleeps).toHaveLength(1);
    expect(policy.rounds.sleeps).toEqual([]);
  });

  it('lets any other error of a write through at once', async () => {
    const failure = new Error('throttled');
    const { answer, written } = await run({
      reads: [consistent(1)],
      decisions: [{ kind: 'write', write: 'w' }],
      writes: [failure],
    });
    await expect(answer).rejects.toBe(failure);
    expect(written).toEqual(['w']);
  });

  it('reads again at once after the first lost race, then after growing jittered pauses, and stops at its bound', async () => {
    const policy = policyOf(5);
    const { answer, told, written } = await run(
      { reads: [], decisions: Array.from({ length: 5 }, () => ({ kind: 'write', write: 'w' }) as const) },
      policy,
    );
    await expect(answer).rejects.toThrow('contended');
    expect(told).toHaveLength(5);
    expect(written).toHaveLength(5);
    // No pause before the second round; then one before each later round, below base × 2^round.
    expect(policy.rounds.sleeps).toHaveLength(3);
    policy.rounds.sleeps.forEach((ms, index) => expect(ms).toBeLessThan(10 * 2 ** (index + 2)));
  });
});
