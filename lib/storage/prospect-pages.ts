import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import {
  changeLogPrefix,
  keys,
  notePrefix,
  type ChangeLogItem,
  type NoteItem,
  type PageRequest,
  type ProspectItem,
} from './table-items';

/**
 * A page of a prospect's notes or change log, newest first. `prospectFound` is false only when
 * the prospect does not exist in the workspace; `more` says that another item follows the page, `following` is
 * that item (a listing that leaves some entries out tells by it whether a listed one follows).
 */
export type ProspectPage<T> = { prospectFound: boolean; items: T[]; more: boolean; following: T | undefined };

/**
 * The two lists of a prospect's partition (docs/data-model.md, "A prospect's partition"): each a
 * sort-key range that also holds the prospect item, so one Query tells a missing prospect (nothing
 * in the range) from a prospect with an empty list (the prospect item alone).
 */
const lists = {
  notes: { from: notePrefix, to: 'PROSPECT', sortKey: keys.noteSk },
  // `$` sorts right after `#`: the range ends with the last PROSPECT#LOG#… key.
  changes: { from: 'PROSPECT', to: `${changeLogPrefix.slice(0, -1)}$`, sortKey: keys.changeLogSk },
} as const;

/**
 * Access patterns "notes of a prospect" and "change log of a prospect", a page at a time: one
 * strongly consistent Query, newest first, of `limit` items plus the prospect item and one more
 * (which tells whether a next page exists). The start key is built from the caller's workspace and
 * prospect, never from the client: a position can only move within this prospect's list. A page
 * larger than a Query's 1 MB reads on from where DynamoDB stopped.
 */
export async function readProspectPage<K extends keyof typeof lists>(
  store: Store,
  list: K,
  of: { workspaceId: string; prospectId: string },
  page: PageRequest,
): Promise<ProspectPage<K extends 'notes' ? NoteItem : ChangeLogItem>> {
  type Child = K extends 'notes' ? NoteItem : ChangeLogItem;
  const range = lists[list];
  const pk = keys.prospectPk(of.workspaceId, of.prospectId);
  const wanted = page.limit + 2;
  const read: (ProspectItem | Child)[] = [];
  let startKey: Record<string, unknown> | undefined = page.after
    ? { pk, sk: range.sortKey(page.after.at, page.after.id) }
    : undefined;
  do {
    const result = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': range.from, ':to': range.to },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: wanted - read.length,
        ExclusiveStartKey: startKey,
      }),
    );
    read.push(...((result.Items ?? []) as (ProspectItem | Child)[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey !== undefined && read.length < wanted);

  const children = read.filter((item): item is Child => item.type !== 'prospect');
  return {
    // After a position, the page starts past the prospect item (notes) or may end before it
    // (changes): a position is only ever issued for a prospect that exists, and none is deleted.
    prospectFound: page.after !== undefined || read.length > 0,
    items: children.slice(0, page.limit),
    more: children.length > page.limit,
    following: children[page.limit],
  };
}
