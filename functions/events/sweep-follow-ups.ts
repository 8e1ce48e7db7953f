import type { Context } from 'aws-lambda';
import { sweepFollowUps, type FollowUpSweepOutcome } from '../../lib/domain/follow-ups/sweep-follow-ups';
import type { FollowUpDeps } from '../../lib/domain/follow-ups/ports';
import { productionFollowUpDeps } from '../../lib/follow-up-deps';
import { observeInvocation } from '../../lib/observability';

/**
 * The follow-up sweep, run by an EventBridge schedule every minute (infra/cdk/constructs/follow-ups-due.ts): queues
 * the follow-ups falling due within the next minutes, each with the delay to its second. The scheduled event carries
 * nothing it needs; a failed run is not retried, the next one queues the same minutes from the clock it left.
 */
export const createHandler =
  (deps: FollowUpDeps) =>
  (_event: unknown, context?: Context): Promise<FollowUpSweepOutcome> =>
    observeInvocation(deps.metrics, { context }, () => sweepFollowUps(deps));

export const handler = createHandler(productionFollowUpDeps());
