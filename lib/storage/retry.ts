import { isTransactionConflict } from './transactions';

export type RetryPolicy = { attempts: number; baseDelayMs: number; sleep: (ms: number) => Promise<void> };

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
 * Rounds of an optimistic change (`readDecideWrite`, lib/storage/read-decide-write.ts), and the
 * pauses between them. The first re-read runs at once (a lost race usually settles
 * in one round); after that, callers contending for one record spread out instead of colliding in
 * lockstep: twenty calls at once sharing a phone, each moving the record's e-mail, settle.
 */
export const defaultRoundPolicy: RetryPolicy = {
  attempts: 8,
  baseDelayMs: 5,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Pauses between the rounds of a batch call whose unprocessed part is sent again. */
export const defaultBatchPolicy: RetryPolicy = {
  attempts: 6,
  baseDelayMs: 20,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * A batch call (BatchGetItem, BatchWriteItem) may leave part of its request unprocessed under
 * load; AWS asks callers to send that part again with exponential backoff. `round` sends a part
 * and answers what is left; after `policy.attempts` rounds with something left, it fails.
 */
export async function untilProcessed<T>(
  pending: readonly T[],
  round: (part: readonly T[]) => Promise<readonly T[]>,
  policy: RetryPolicy = defaultBatchPolicy,
): Promise<void> {
  let left = pending;
  for (let tried = 1; left.length > 0; tried += 1) {
    if (tried > policy.attempts) throw new Error('DynamoDB kept part of a batch unprocessed');
    if (tried > 1) await policy.sleep(policy.baseDelayMs * 2 ** tried);
    left = await round(left);
  }
}
