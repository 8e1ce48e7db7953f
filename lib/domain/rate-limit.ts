/**
 * Section 8 with decisions 3: fixed one-minute windows per API key; 120 requests, of which
 * 30 PATCHes carrying `stage`. One counter item per key and window holds both counts, so one
 * conditional update checks and counts them together, atomically across concurrent Lambdas.
 */
export const requestLimit = 120;
export const stageChangeLimit = 30;
const windowMs = 60_000;

export type Window = { start: Date; end: Date };

export function windowOf(now: Date): Window {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start: new Date(start), end: new Date(start + windowMs) };
}

export type Counts = { requests: number; stageChanges: number };

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

/** The tighter of the limits that apply: the one with the fewest requests left. */
export function rateLimitState(counts: Counts, countsStageChange: boolean, now: Date): RateLimitState {
  const resetSeconds = Math.max(1, Math.ceil((windowOf(now).end.getTime() - now.getTime()) / 1000));
  const general = { limit: requestLimit, remaining: Math.max(0, requestLimit - counts.requests) };
  if (!countsStageChange) return { ...general, resetSeconds };
  const stage = { limit: stageChangeLimit, remaining: Math.max(0, stageChangeLimit - counts.stageChanges) };
  return { ...(stage.remaining <= general.remaining ? stage : general), resetSeconds };
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
  };
}
