import { timeOrderedId } from '../ids';
import type { AuditAction, AuditEntry } from '../storage/audit-log';

/**
 * Who made a change the audit log records (docs/api.md#audit-log): the member signed in to the settings
 * API, or the platform team's admin command line (`null`).
 */
export type ActingMemberId = string | null;

/** The command line acts as no member. */
export const commandLine: ActingMemberId = null;

/** What an audit entry records: in which workspace, who did what to which record, said how. */
export type AuditRecord = {
  workspaceId: string;
  memberId: ActingMemberId;
  action: AuditAction;
  targetId: string | null;
  summary: string;
};

/**
 * A new audit entry, its id a UUID v7 of its time (lib/ids.ts), so the log sorts newest first by
 * sort key as the webhook call journal does. `summary` comes from the catalogue's `audit` texts,
 * which name records and never a secret.
 */
export function newAuditEntry(now: Date, entry: AuditRecord): AuditEntry {
  return {
    id: timeOrderedId(now),
    workspace_id: entry.workspaceId,
    at: now.toISOString(),
    member_id: entry.memberId,
    action: entry.action,
    target_id: entry.targetId,
    summary: entry.summary,
  };
}
