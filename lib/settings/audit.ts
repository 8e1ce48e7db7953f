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
import { readAuditPage, type AuditEntry } from '../storage/audit-log';
import { checkedId } from './admin-input';

/** One entry as `GET /audit` answers it (docs/api.md#settings-api). */
export type AuditEntryView = Pick<AuditEntry, 'id' | 'at' | 'member_id' | 'action' | 'target_id' | 'summary'>;

const entryView = (entry: AuditEntry): AuditEntryView => ({
  id: entry.id,
  at: entry.at,
  member_id: entry.member_id,
  action: entry.action,
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
