import type { Context } from 'aws-lambda';
import { continueErasures, type ErasureRun } from '../../lib/domain/erasure/continue-erasures';
import { applyRetention, retentionTask, type RetentionRun } from '../../lib/domain/erasure/apply-retention';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { observeInvocation } from '../../lib/observability';

/**
 * The erasures' background, run by two EventBridge schedules (infra/cdk/constructs/erasure.ts): every minute it deletes
 * the copies of the prospects and candidates erased, a bounded number of pages a run, each job from the step its last
 * run recorded; once a day (its event `{ "task": "retention" }`) it erases the prospects and candidates a workspace's
 * retention no longer keeps (docs/adr/0019-erasure-in-the-background.md). A failed run is not retried, the next one
 * goes on. Its lines carry counts only, never an id of a person.
 */
export const createHandler =
  (deps: Deps) =>
  (event: unknown, context?: Context): Promise<ErasureRun | RetentionRun> =>
    observeInvocation<ErasureRun | RetentionRun>(deps.metrics, { context }, () =>
      (event as { task?: unknown } | null)?.task === retentionTask ? applyRetention(deps) : continueErasures(deps),
    );

export const handler = createHandler(productionDeps());
