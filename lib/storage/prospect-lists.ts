import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems, type Store } from './client';
import { indexes, keys, type ProspectItem } from './table-items';

/**
 * The indexes a list of prospects walks (docs/adr/0017-lists-of-prospects.md, docs/data-model.md#lists-of-prospects),
 * each an order of a workspace's prospects: by creation (`gsi3`, every prospect), by last change within a stage
 * (`gsi5`, one partition per stage) and by follow-up (`gsi6`, those with one).
 */
export type ListIndex = 'creation' | 'change' | 'follow-up';

const indexOf = {
  creation: { name: indexes.prospectPhonesOfWorkspace, pk: 'gsi3pk', sk: 'gsi3sk' },
  change: { name: indexes.prospectsOfStageByChange, pk: 'gsi5pk', sk: 'gsi5sk' },
  'follow-up': { name: indexes.prospectsByFollowUp, pk: 'gsi6pk', sk: 'gsi6sk' },
} as const;

/**
 * One partition of an index to walk, between two sort-key bounds (`from` inclusive, `to` exclusive: a key
 * `<instant>#<id>` sorts after its bare `<instant>`, so `to` written as an instant leaves that instant out), after
 * a position when resuming (exclusive).
 */
export type IndexSource = {
  index: ListIndex;
  /** The partition: `keys.prospectsOfWorkspace`, `keys.prospectsOfStage` or `keys.prospectsByFollowUp`. */
  partition: string;
  from?: string;
  to?: string;
};

export type IndexEntry = { prospectId: string; key: string };

/** Below every `<instant>#<id>` key (instants are written `YYYY-…`) and above them all. */
const [lowest, highest] = ['0', '~'];

/** A prospect's id is the last part of its table key `PROSPECT#<ws>#<id>`. */
const prospectIdOf = (pk: string): string => pk.slice(pk.lastIndexOf('#') + 1);

/**
 * Up to `limit` entries of one partition in key order (`descending` or not), after `after` (exclusive) and within
 * the source's bounds: one eventually consistent `Query` of keys only (an index is eventually consistent; the list
 * reads the prospects themselves strongly, `readProspects`).
 */
export async function readIndexEntries(
  store: Store,
  source: IndexSource,
  options: { descending: boolean; after?: string; limit: number },
): Promise<{ entries: IndexEntry[]; more: boolean }> {
  const index = indexOf[source.index];
  let [low, high] = [source.from ?? lowest, source.to ?? highest];
  // The position resumed from is a key that was read: the bound on its side moves to it, and the entry itself is
  // dropped below (BETWEEN is inclusive).
  if (options.after !== undefined) {
    if (options.descending) high = options.after < high ? options.after : high;
    else low = options.after > low ? options.after : low;
  }
  if (low > high) return { entries: [], more: false };
  const { Items = [], LastEvaluatedKey } = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: index.name,
      KeyConditionExpression: '#pk = :partition AND #sk BETWEEN :low AND :high',
      ExpressionAttributeNames: { '#pk': index.pk, '#sk': index.sk },
      ExpressionAttributeValues: { ':partition': source.partition, ':low': low, ':high': high },
      ScanIndexForward: !options.descending,
      // One more than asked when resuming: the entry at the position itself comes back first.
      Limit: options.limit + (options.after === undefined ? 0 : 1),
    }),
  );
  const entries = Items.map((item) => ({ prospectId: prospectIdOf(item.pk as string), key: item[index.sk] as string }))
    .filter((entry) => entry.key !== options.after)
    .slice(0, options.limit);
  return { entries, more: LastEvaluatedKey !== undefined };
}

/** At most 100 keys in one BatchGetItem (DynamoDB's limit). */
export const maxProspectsPerRead = 100;

/**
 * The prospects of a page, by id, read strongly (one BatchGetItem of at most 100 keys): what the list shows and
 * filters is what the last answered change left, never the index's copy. Ids of prospects that do not exist are
 * simply absent.
 */
export async function readProspects(
  store: Store,
  workspaceId: string,
  prospectIds: readonly string[],
): Promise<Map<string, ProspectItem>> {
  const distinct = [...new Set(prospectIds)];
  if (distinct.length > maxProspectsPerRead) throw new Error(`at most ${maxProspectsPerRead} prospects per read`);
  const found = await batchGetItems(
    store,
    distinct.map((id) => keys.prospect(workspaceId, id)),
    { consistentRead: true },
  );
  return new Map(found.map((item) => [(item as ProspectItem).id, item as ProspectItem]));
}
