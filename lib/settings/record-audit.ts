import type { Deps } from '../deps';
import { newAuditEntry, type AuditRecord } from '../domain/audit';
import { writeAuditEntry } from '../storage/audit-log';

/**
 * The entry of a change that is not one transaction, written right after it (docs/api.md#audit-log): a
 * change the entry could not join, or a call of the webhook's own handler (a replay).
 */
export async function recordAudit(deps: Pick<Deps, 'db' | 'tableName' | 'clock'>, entry: AuditRecord): Promise<void> {
  await writeAuditEntry(deps, newAuditEntry(deps.clock(), entry));
}
