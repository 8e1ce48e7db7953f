/**
 * When a failed delivery is tried again (docs/api.md#outbound-events): about 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h and 10 h after the attempt before. Step 0 is the first attempt; a failure at step k waits
 * `retryDelaysSeconds[k]`; a failure at the last step (7, the eighth attempt) ends `failed`.
 */
export const retryDelaysSeconds: readonly number[] = [5, 300, 1800, 7200, 18000, 36000, 36000];

export const lastStep = retryDelaysSeconds.length;

/** The delay after a failure at `step`, or undefined when no attempt follows. */
export const delayAfterStep = (step: number): number | undefined => retryDelaysSeconds[step];

/** An attempt answered 2xx within this time is a success; a slower receiver is a failure. */
export const deliveryTimeoutMs = 10_000;

/** Deliveries (and their events) are kept this long (docs/api.md#outbound-events), as DynamoDB TTL. */
export const deliveryRetentionSeconds = 30 * 24 * 3600;
