import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { keys, type ItemKey, items, type MarkerItem } from '../../lib/storage/table-items';
import type { Store } from '../../lib/storage/client';
import { putIfAbsent } from '../../lib/storage/conditional-writes';
import type { Prospect } from '../../lib/domain/model';

/** Any item of a new workspace, as built by the storage builders (records, configItems, credentialItems). */
export type SeedItem = ItemKey & Record<string, unknown>;

/** TransactWriteItems accepts at most 100 actions. */
const transactionSize = 100;

/**
 * Access pattern "write a new workspace" (admin `seed`): every item put with
 * `attribute_not_exists(pk)`, in transactions of at most 100 actions. Transactions rather than
 * BatchWriteItem: a seed can never overwrite anything (BatchWriteItem has no conditions), and
 * there is no unprocessed-items retry loop to get right. Chunks are written in the given order,
 * so an item placed last (the workspace item) is written only once everything before it is.
 */
export async function writeSeedItems(store: Store, seedItems: readonly SeedItem[]): Promise<void> {
  for (let start = 0; start < seedItems.length; start += transactionSize) {
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: seedItems.slice(start, start + transactionSize).map((item) => putIfAbsent(store, item)),
      }),
    );
  }
}

export type ContactField = 'email' | 'phone' | 'social_url';

/**
 * The uniqueness markers of a prospect's contact values (one per e-mail, phone and social URL
 * present), each named by the field it stands for, so a caller can tell which value collides.
 */
export function contactMarkers(prospect: Prospect): { field: ContactField; item: MarkerItem }[] {
  const ws = prospect.workspace_id;
  const contacts = [
    ['email', prospect.email, (value: string) => keys.emailMarker(ws, value)],
    ['phone', prospect.phone, (value: string) => keys.phoneMarker(ws, value)],
    ['social_url', prospect.social_url, (value: string) => keys.socialMarker(ws, value)],
  ] as const;
  return contacts.flatMap(([field, value, markerKey]) =>
    value ? [{ field, item: items.marker(markerKey(value), ws, prospect.id, prospect) }] : [],
  );
}
