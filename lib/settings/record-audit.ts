import type { Deps } from '../deps';
import { newAuditEntry, type ActingMemberId } from '../domain/audit';
import { writeAuditEntry, type AuditAction } from '../storage/audit-log';

/**
 * The entry of a change that is not one transaction, written right after it (decisions 7.4): a
 * change the entry could not join, or a call of the webhook's own handler (a replay).
 */
export async function recordAudit(
  deps: Pick<Deps, 'db' | 'tableName' | 'clock'>,
  entry: {
    workspaceId: string;
    memberId: ActingMemberId;
    action: AuditAction;
    targetId: string | null;
    summary: string;
  },
): Promise<void> {
  await writeAuditEntry(deps, newAuditEntry(deps.clock(), entry));
}
