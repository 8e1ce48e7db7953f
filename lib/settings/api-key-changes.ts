import type { Deps } from '../storage/client';
import { changeLogEntryView, type ChangeLogEntryView } from '../domain/prospect/read-views';
import { readKeyChangePage } from '../storage/key-changes';
import type { PagePosition, PageRequest } from '../storage/table-items';
import { requireApiKey } from './api-key-list';
import { checkedId } from './admin-input';

/**
 * `GET /api-keys/{k}/changes`: a page of the entries `changelog list --key` lists (tools/admin/use-cases/changelog.ts), newest
 * first, the key checked as there (another workspace's key: 404), read alongside the page; `next` is the position
 * the next page starts after, null when no entry follows.
 */
export async function apiKeyChangesPage(
  deps: Deps,
  input: { workspaceId: string; keyId: string; page: PageRequest },
): Promise<{ entries: ChangeLogEntryView[]; next: PagePosition | null }> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const keyId = checkedId('apiKey', input.keyId);
  const [found] = await Promise.all([
    readKeyChangePage(deps, keyId, input.page),
    requireApiKey(deps, workspaceId, keyId),
  ]);
  const last = found.items.at(-1);
  return {
    entries: found.items.map(changeLogEntryView),
    next: found.more && last ? { at: last.at, id: last.id } : null,
  };
}
