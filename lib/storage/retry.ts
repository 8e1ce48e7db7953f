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
