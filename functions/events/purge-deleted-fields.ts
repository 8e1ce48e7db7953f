import type { Context } from 'aws-lambda';
import { purgeDeletedFields, type FieldPurgeOutcome } from '../../lib/domain/fields/field-purge';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { observeInvocation } from '../../lib/observability';

/**
 * The purge of deleted custom fields, run by an EventBridge schedule every minute
 * (infra/cdk/constructs/outbound-events.ts): removes a deleted field's values and change-log entries from the table,
 * a bounded number of prospects a run (docs/data-model.md, "The purge of a deleted field"). The scheduled event
 * carries nothing it needs; a failed run is not retried, the next one goes on from where the last page was recorded.
 * No request id here: its lines carry no correlation id, only counts, ids and keys.
 */
export const createHandler =
  (deps: Deps) =>
  (_event: unknown, context?: Context): Promise<FieldPurgeOutcome> =>
    observeInvocation(deps.metrics, { context }, () => purgeDeletedFields(deps));

export const handler = createHandler(productionDeps());
