import { maxQueueDelaySeconds } from '../events/ports';

/**
 * The DelaySeconds that keeps a message out of the queue until `at` (epoch milliseconds): whole seconds rounded up, so
 * never before it; 0 for a time past; at most SQS's 900.
 */
export const delayUntil = (at: number, now: Date): number =>
  Math.min(maxQueueDelaySeconds, Math.max(0, Math.ceil((at - now.getTime()) / 1000)));
