import type { Context } from 'aws-lambda';
import type { EventDeps } from '../../lib/domain/events/ports';
import { sweepPendingDeliveries, type SweepOutcome } from '../../lib/domain/events/sweep';
import { productionEventDeps } from '../../lib/event-deps';
import { observeInvocation } from '../../lib/observability';

/**
 * The sweep of pending deliveries, run by an EventBridge schedule every few minutes
 * (infra/cdk/constructs/outbound-events.ts): queues again the deliveries whose message was lost.
 * The scheduled event carries nothing it needs; a failed run is not retried, the next one does its work.
 * No request id here: its lines carry no correlation id, only counts and ids.
 */
export const createHandler =
  (deps: EventDeps) =>
  (_event: unknown, context?: Context): Promise<SweepOutcome> =>
    observeInvocation(deps.metrics, { context }, () => sweepPendingDeliveries(deps));

export const handler = createHandler(productionEventDeps());
