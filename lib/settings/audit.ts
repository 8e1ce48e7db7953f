import type { Deps } from '../storage/client';
import { InvalidInputError } from '../domain/model';
import {
  decodeCursor,
  encodeCursor,
  type CursorBinding,
  defaultPageLimit,
  maxPageLimit,
} from '../http/query-parameters';
import { messages } from '../messages';
import { readAuditPage, type AuditAction, type AuditEntry, type StoredAuditEntry } from '../storage/audit-log';
import { checkedId } from './admin-input';

/** One entry as `GET /audit` answers it (docs/api.md#settings-api). */
export type AuditEntryView = Pick<AuditEntry, 'id' | 'at' | 'member_id' | 'action' | 'target_id' | 'summary'>;

/**
 * The action an entry is listed under: one written under a former name (`FormerAuditAction`) is read as today's, so
 * that the listing answers only the actions docs/api.md#audit-log lists. A former `workspace.changed` held every
 * setting of one PATCH; it names the time zone unless its summary names only the retention (those written before
 * the retention existed all named the time zone).
 */
function listedAction(entry: Pick<StoredAuditEntry, 'action' | 'summary'>): AuditAction {
  switch (entry.action) {
    case 'subscription.changed':
      return 'subscription.events_changed';
    case 'workspace.changed':
      return entry.summary.includes(messages.audit.workspaceSettings.time_zone)
        ? 'workspace.time_zone_changed'
        : 'workspace.retention_changed';
    default:
      return entry.action;
  }
}

const entryView = (entry: StoredAuditEntry): AuditEntryView => ({
  id: entry.id,
  at: entry.at,
  member_id: entry.member_id,
  action: listedAction(entry),
  target_id: entry.target_id,
  summary: entry.summary,
});

/**
 * `GET /audit`: the workspace's audit log, newest first, `limit` entries (1 to 100, 50 when absent) from
 * the position of `cursor` (the opaque cursor of docs/api.md#pagination, bound to this workspace's log:
 * another list's or workspace's is a 400). One strongly consistent Query for a page.
 */
export async function listAudit(
  deps: Deps,
  input: { workspaceId: string; limit?: number | undefined; cursor?: string | undefined },
): Promise<{ entries: AuditEntryView[]; next_cursor: string | null }> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const limit = input.limit ?? defaultPageLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxPageLimit) {
    throw new InvalidInputError(messages.query.invalidLimit, { field: 'limit', message: messages.query.invalidLimit });
  }
  const binding: CursorBinding = { list: 'audit', workspaceId };
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor, binding);
  const page = await readAuditPage(deps, workspaceId, { limit, afterId: after?.id, now: deps.clock() });
  const last = page.entries.at(-1);
  return {
    entries: page.entries.map(entryView),
    next_cursor: page.more && last ? encodeCursor(binding, { at: last.at, id: last.id }) : null,
  };
}
