import type { Context } from 'aws-lambda';
import { continueErasures, type ErasureRun } from '../../lib/domain/erasure/continue-erasures';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { observeInvocation } from '../../lib/observability';

/**
 * The erasures' background, run by an EventBridge schedule every minute (infra/cdk/constructs/erasure.ts): deletes the
 * copies of the prospects and candidates erased (notes, change log, kept answers, the journal's mentions, deliveries),
 * a bounded number of pages a run, each job from the step its last run recorded
 * (docs/adr/0019-erasure-in-the-background.md). The scheduled event carries nothing it needs; a failed run is not
 * retried, the next one goes on. Its lines carry counts only, never an id of a person.
 */
export const createHandler =
  (deps: Deps) =>
  (_event: unknown, context?: Context): Promise<ErasureRun> =>
    observeInvocation(deps.metrics, { context }, () => continueErasures(deps));

export const handler = createHandler(productionDeps());
