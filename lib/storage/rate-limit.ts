import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { keys } from './table-items';
import type { MetricsSink } from '../observability';

/**
 * Rate limits (docs/api.md#rate-limits): fixed one-minute windows per API key; 120 requests, of which
 * 30 PATCHes carrying `stage`. One counter item per key and window holds both counts, so one
 * conditional update checks and counts them together, atomically across concurrent Lambdas: the
 * limits are that update's condition, so they live here with it.
 */
export const requestLimit = 120;
export const stageChangeLimit = 30;
const windowMs = 60_000;

export type Window = { start: Date; end: Date };

export function windowOf(now: Date): Window {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start: new Date(start), end: new Date(start + windowMs) };
}

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

/** The tighter of the limits that apply: the one with the fewest requests left. */
export function rateLimitState(counts: Counts, countsStageChange: boolean, now: Date): RateLimitState {
  const resetSeconds = Math.max(1, Math.ceil((windowOf(now).end.getTime() - now.getTime()) / 1000));
  const general = { limit: requestLimit, remaining: Math.max(0, requestLimit - counts.requests) };
  if (!countsStageChange) return { ...general, resetSeconds };
  const stage = { limit: stageChangeLimit, remaining: Math.max(0, stageChangeLimit - counts.stageChanges) };
  return { ...(stage.remaining <= general.remaining ? stage : general), resetSeconds };
}

/**
 * Counts one authenticated request in its key's window. With `enforce`, a request over either
 * limit is refused and counts nothing; without (a 403 still counts toward 120), it is counted.
 * A refusal is counted in RateLimited by the limit reached, the stage-change one when both are
 * (as its `X-RateLimit-Limit` header then says, `rateLimitState`).
 */
export async function admitRequest(
  deps: Store & { metrics: MetricsSink },
  request: { keyId: string; now: Date; stageChange: boolean; enforce: boolean },
): Promise<{ admitted: boolean; state: RateLimitState }> {
  const outcome = await countRequest(deps, {
    keyId: request.keyId,
    window: windowOf(request.now),
    stageChange: request.stageChange,
    limits: request.enforce ? { requests: requestLimit, stageChanges: stageChangeLimit } : undefined,
  });
  const state = rateLimitState(outcome.counts, request.stageChange, request.now);
  if (!outcome.counted) {
    const stageLimited = request.stageChange && outcome.counts.stageChanges >= stageChangeLimit;
    deps.metrics.count('RateLimited', { limit: stageLimited ? 'stage_changes' : 'requests' });
  }
  return { admitted: outcome.counted, state: outcome.counted ? state : { ...state, remaining: 0 } };
}

export type Counts = { requests: number; stageChanges: number };

export type CountOutcome = { counted: boolean; counts: Counts };

/** The counter outlives its window by an hour; TTL only cleans up, the window is in the key. */
const retentionSeconds = 3600;

/**
 * Access pattern "rate-limit counter per key and window": one UpdateItem. With `limits`, the
 * request is counted only while under both, and a refused request counts nothing; without, it is
 * counted whatever the counts.
 */
export async function countRequest(
  store: Store,
  input: {
    keyId: string;
    window: { start: Date; end: Date };
    stageChange: boolean;
    limits: Counts | undefined;
  },
): Promise<CountOutcome> {
  const { limits } = input;
  const conditions = ['(attribute_not_exists(requests) OR requests < :requestLimit)'];
  if (input.stageChange) conditions.push('(attribute_not_exists(stage_changes) OR stage_changes < :stageLimit)');
  try {
    const { Attributes } = await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.rateCounter(input.keyId, input.window.start.toISOString()),
        UpdateExpression: input.stageChange
          ? 'ADD requests :one, stage_changes :one SET expires_at = :expiresAt'
          : 'ADD requests :one SET expires_at = :expiresAt',
        ...(limits ? { ConditionExpression: conditions.join(' AND ') } : {}),
        ExpressionAttributeValues: {
          ':one': 1,
          ':expiresAt': Math.floor(input.window.end.getTime() / 1000) + retentionSeconds,
          ...(limits ? { ':requestLimit': limits.requests } : {}),
          ...(limits && input.stageChange ? { ':stageLimit': limits.stageChanges } : {}),
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { counted: true, counts: countsOf(Attributes) };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return { counted: false, counts: countsOf(error.Item) };
    throw error;
  }
}

function countsOf(item: Record<string, unknown> | undefined): Counts {
  const number = (value: unknown): number =>
    typeof value === 'number' ? value : Number((value as { N?: string })?.N ?? 0);
  return { requests: number(item?.requests), stageChanges: number(item?.stage_changes) };
}
