import type { Deps } from '../storage/client';
import { liveFields } from '../domain/model';
import { changeLogEntryView, pageOfListedChanges, type ChangeLogEntryView } from '../domain/prospect/read-views';
import { readKeyChangePage } from '../storage/key-changes';
import { readFieldEntries } from '../storage/workspace-config';
import type { PagePosition, PageRequest } from '../storage/table-items';
import { requireApiKey } from './api-key-list';
import { checkedId } from './admin-input';

/**
 * `GET /api-keys/{k}/changes`: a page of the entries `changelog list --key` lists (tools/admin/use-cases/changelog.ts), newest
 * first, without the entries of a deleted custom field, the key checked as there (another workspace's key: 404), read
 * alongside the first page; `next` is the position the next page starts after, null when no entry follows. Only a
 * page holding a custom field's entry reads the workspace's fields (one GetItem), and only a page that left entries
 * out reads on.
 */
export async function apiKeyChangesPage(
  deps: Deps,
  input: { workspaceId: string; keyId: string; page: PageRequest },
): Promise<{ entries: ChangeLogEntryView[]; next: PagePosition | null }> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const keyId = checkedId('apiKey', input.keyId);
  const [{ entries, next }] = await Promise.all([
    pageOfListedChanges(
      (after) => readKeyChangePage(deps, keyId, { limit: input.page.limit, after }),
      input.page,
      async () => liveFields({ fields: await readFieldEntries(deps, workspaceId) }),
    ),
    requireApiKey(deps, workspaceId, keyId),
  ]);
  return { entries: entries.map(changeLogEntryView), next };
}
