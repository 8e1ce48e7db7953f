import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { RetryPolicy, Store } from './client';

/*
 * Conditional writes and what follows their refusal: the reasons of a cancelled transaction, the
 * create-if-absent item, a transaction sent again after a conflict, and the read → decide → write
 * loop of every optimistic change (docs/architecture.md, "Optimistic changes").
 */

export type CancellationCode = string | undefined;

/** The per-item reasons DynamoDB gives for a cancelled transaction, in the order of its items. */
export function cancellationCodes(error: unknown): CancellationCode[] | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  return (error.CancellationReasons ?? []).map((reason) => reason.Code);
}

/** Another transaction held one of the items: worth trying again after a pause. */
export function isTransactionConflict(error: unknown): boolean {
  const codes = cancellationCodes(error);
  return codes !== undefined && codes.some((code) => code === 'TransactionConflict');
}

/**
 * The item a refused transaction item found, as DynamoDB returns it with the cancellation when
 * that item asked for `ReturnValuesOnConditionCheckFailure: ALL_OLD` (none: nothing was stored).
 */
export function refusedItem(error: unknown, index: number): Record<string, unknown> | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const item = error.CancellationReasons?.[index]?.Item;
  return item ? unmarshall(item) : undefined;
}

/** One of the transaction's conditions did not hold: a fact to act on, never retried blindly. */
export function failedConditionIndexes(error: unknown): number[] {
  const codes = cancellationCodes(error) ?? [];
  return codes.flatMap((code, index) => (code === 'ConditionalCheckFailed' ? [index] : []));
}

export type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/**
 * What a transaction did: written, or refused by the conditions of its items at `failed` (their indexes), and then
 * nothing was written. `found(index)` is what a refused item found, when it asked for it (`ALL_OLD`); `cancellation`
 * the error itself, for a caller to throw when the refusal is not one it expects.
 */
export type TransactOutcome =
  | { written: true }
  | {
      written: false;
      failed: number[];
      found: (index: number) => Record<string, unknown> | undefined;
      cancellation: unknown;
    };

/**
 * The one way a transaction is sent, all or nothing ("TransactWriteItems", DynamoDB API Reference,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html): a cancellation for
 * failed conditions (`TransactionCanceledException` whose reasons say `ConditionalCheckFailed`) is a value; any other
 * failure (a conflict with another transaction, throttling) is thrown.
 */
export async function transactWrite(store: Pick<Store, 'db'>, items: TransactItems): Promise<TransactOutcome> {
  try {
    await store.db.send(new TransactWriteCommand({ TransactItems: items }));
    return { written: true };
  } catch (error) {
    const failed = failedConditionIndexes(error);
    if (failed.length === 0) throw error;
    return { written: false, failed, found: (index) => refusedItem(error, index), cancellation: error };
  }
}

/**
 * One transaction: true when written, false when the condition of its item at `refusedBy` failed and nothing was
 * written; any other failure is thrown.
 */
export async function transactUnlessRefused(
  store: Pick<Store, 'db'>,
  items: TransactItems,
  refusedBy: number,
): Promise<boolean> {
  const outcome = await transactWrite(store, items);
  if (outcome.written) return true;
  if (outcome.failed.includes(refusedBy)) return false;
  throw outcome.cancellation;
}

/**
 * A transaction item that creates `item` only if nothing is stored under its key: uniqueness and
 * "never overwrite" both rest on it. With `returnExisting`, a refusal sends back what is stored.
 */
export const putIfAbsent = (store: Store, item: object, options: { returnExisting?: boolean } = {}) => ({
  Put: {
    TableName: store.tableName,
    Item: item as Record<string, unknown>,
    ConditionExpression: 'attribute_not_exists(pk)',
    ...(options.returnExisting ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
  },
});

export const defaultRetryPolicy: RetryPolicy = {
  attempts: 5,
  baseDelayMs: 25,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Runs `attempt` again when DynamoDB cancelled its transaction for a conflict with another one,
 * at most `attempts` times, waiting a random time below an exponentially growing bound ("full
 * jitter"), so that concurrent callers spread out instead of colliding again. Other errors,
 * failed conditions included, go straight to the caller.
 */
export async function retryOnTransactionConflict<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy = defaultRetryPolicy,
): Promise<T> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransactionConflict(error) || tried >= policy.attempts) throw error;
      await policy.sleep(Math.random() * policy.baseDelayMs * 2 ** tried);
    }
  }
}

/**
 * Rounds of an optimistic change (`readDecideWrite`, below), and the
 * pauses between them. The first re-read runs at once (a lost race usually settles
 * in one round); after that, callers contending for one record spread out instead of colliding in
 * lockstep: twenty calls at once sharing a phone, each moving the record's e-mail, settle.
 */
export const defaultRoundPolicy: RetryPolicy = {
  attempts: 8,
  baseDelayMs: 5,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * What a round read. `consistent`: the snapshot may answer without writing. So is a strongly
 * consistent read ("returns a response with the most up-to-date data, reflecting the updates from
 * all prior write operations that were successful", where an eventually consistent one "may not
 * reflect the results of a recently completed write operation": "DynamoDB read consistency",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.ReadConsistency.html);
 * so is what a refused write returned, the stored item its condition was checked against
 * (`ReturnValuesOnConditionCheckFailure`, "UpdateItem", DynamoDB API Reference:
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html); and so is the
 * workspace configuration alone, which the routes that read it alone read eventually consistently
 * (docs/adr/0007-fewer-round-trips.md: it changes only through the admin tool).
 */
export type RoundRead<Snapshot> = { snapshot: Snapshot; consistent: boolean };

/**
 * What a decision taken on a snapshot says: answer without writing, refuse (the error the caller
 * gets, as a value), write (conditional on what was read), or `lost-race`: the snapshot itself
 * shows a concurrent write under way, read again.
 */
export type Decision<Write, Answer> =
  | { kind: 'answer'; answer: Answer }
  | { kind: 'refuse'; refusal: Error }
  | { kind: 'write'; write: Write }
  | { kind: 'lost-race' };

/**
 * What a conditional write did: written (and the answer it makes), or nothing written because a
 * concurrent write won (`learned`: what the refusal told of the stored state, when it told any).
 */
export type WriteOutcome<Answer, Learned> =
  { kind: 'written'; answer: Answer } | { kind: 'lost-race'; learned?: Learned };

/** The round before, passed to the next read: why it did not end the loop, and what it read. */
export type PreviousRound<Snapshot, Learned> = {
  round: number;
  snapshot: Snapshot;
} & ({ reason: 'unconfirmed' } | { reason: 'lost-race'; learned: Learned | undefined });

export type ReadDecideWrite<Snapshot, Write, Answer, Learned = never> = {
  /**
   * The round's read. `previous` is undefined on the first round; later, it says why the round
   * before did not end the loop: `unconfirmed`, a decision that writes nothing taken on a read that
   * may not answer (read strongly consistently now), or `lost-race`.
   */
  read: (previous: PreviousRound<Snapshot, Learned> | undefined) => Promise<RoundRead<Snapshot>>;
  /**
   * A pure function of the snapshot (whatever else it needs, the caller binds). What it throws goes
   * to the caller as is: only a decision taken on reads that may all answer may refuse by throwing
   * (the admin's configuration edits); otherwise a refusal is a value the loop must see.
   */
  decide: (snapshot: Snapshot) => Decision<Write, Answer>;
  /** The write, conditional on what was read: a failed condition is a `lost-race`, never an error. */
  write: (write: Write, snapshot: Snapshot) => Promise<WriteOutcome<Answer, Learned>>;
  /** The error thrown when every round lost its race: the record is contended. */
  contended: () => Error;
};

/** How many rounds, and how a transaction cancelled for a conflict with another one is tried again. */
export type LoopPolicy = { rounds: RetryPolicy; conflicts: RetryPolicy };

export const defaultLoopPolicy: LoopPolicy = { rounds: defaultRoundPolicy, conflicts: defaultRetryPolicy };

/**
 * Optimistic concurrency, the one loop of every read → decide → write change: read, decide, and
 * write on the condition that what was read has not changed.
 * - A decision that writes is safe on any read: its write is conditional, so a stale read only loses
 *   the race. A decision that writes nothing (an answer, a refusal) has no condition behind it: it is
 *   taken only on a `consistent` read, else the next round reads again (strongly consistently).
 * - A write cancelled for a conflict with another transaction is sent again after a jittered pause
 *   (`retryOnTransactionConflict`, `policy.conflicts`); past those attempts the error goes to the caller.
 * - A lost race (a failed condition, or a decision seeing a write under way) starts a new round: the
 *   first at once (a lost race usually settles in one round), later ones after a jittered pause, so
 *   callers contending for one record spread out. After `policy.rounds.attempts` rounds, `contended()`.
 */
export async function readDecideWrite<Snapshot, Write, Answer, Learned = never>(
  steps: ReadDecideWrite<Snapshot, Write, Answer, Learned>,
  policy: LoopPolicy = defaultLoopPolicy,
): Promise<Answer> {
  let previous: PreviousRound<Snapshot, Learned> | undefined;
  for (let round = 1; ; round += 1) {
    const { snapshot, consistent } = await steps.read(previous);
    const decision = steps.decide(snapshot);
    if (decision.kind === 'write') {
      const outcome = await retryOnTransactionConflict(() => steps.write(decision.write, snapshot), policy.conflicts);
      if (outcome.kind === 'written') return outcome.answer;
      previous = { round, snapshot, reason: 'lost-race', learned: outcome.learned };
    } else if (decision.kind === 'lost-race') {
      previous = { round, snapshot, reason: 'lost-race', learned: undefined };
    } else if (consistent) {
      if (decision.kind === 'answer') return decision.answer;
      throw decision.refusal;
    } else {
      previous = { round, snapshot, reason: 'unconfirmed' };
    }
    if (round >= policy.rounds.attempts) throw steps.contended();
    if (round > 1) await policy.rounds.sleep(Math.random() * policy.rounds.baseDelayMs * 2 ** round);
  }
}
