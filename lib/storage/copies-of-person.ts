import type { Store } from './client';
import { readWorkspacePage, type ItemsPage } from './erasure';
import type { ItemKey } from './table-items';

/*
 * The copies of a person kept outside their record's partition (docs/data-model.md, "Copies of a person"): the
 * journaled webhook calls and the outbound deliveries live in the workspace's partitions, so an export walks the same
 * pages as the erasure does (`readWorkspacePage`), from the first to the last, and keeps what is the person's. A
 * filter expression would not lower the cost (DynamoDB charges what the Query reads, before the filter) and could not
 * tell a failed call's kept body that carries the person's phone in another format: the caller decides.
 */

/** Items asked of each page: one Query reads up to 1 MB whatever it asks, and reads on while it may. */
const itemsPerPage = 1000;

/**
 * Access patterns "the workspace's journal" (`CALL#<ws>`) and "the workspace's deliveries" (`DELIVERY#<ws>`), read
 * whole, oldest first, page after page; entries past their 30 days that TTL has not removed yet included.
 */
export async function* readWorkspaceCopies(
  store: Store,
  partition: 'calls' | 'deliveries',
  workspaceId: string,
): AsyncGenerator<ItemsPage['items']> {
  let resume: ItemKey | undefined;
  do {
    const page = await readWorkspacePage(store, partition, { workspace_id: workspaceId, resume }, itemsPerPage);
    yield page.items;
    resume = page.next;
  } while (resume !== undefined);
}
