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
  change: { name: indexes.recordsByLastChange, pk: 'gsi5pk', sk: 'gsi5sk' },
  'follow-up': { name: indexes.prospectsByFollowUp, pk: 'gsi6pk', sk: 'gsi6sk' },
} as const;

/**
 * One partition of an index to walk, between two sort-key bounds (`from` inclusive, `to` exclusive: a key
 * `<instant>#<id>` sorts after its bare `<instant>`, so `to` written as an instant leaves that instant out).
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
export const [lowestKey, highestKey] = ['0', '~'];

/** A prospect's id is the last part of its table key `PROSPECT#<ws>#<id>`. */
const prospectIdOf = (pk: string): string => pk.slice(pk.lastIndexOf('#') + 1);

/**
 * Up to `limit` entries of one partition between `low` and `high` (both inclusive), in key order or the reverse: one
 * eventually consistent `Query` of keys only (an index is eventually consistent; the list reads the prospects
 * themselves strongly, `readProspects`).
 */
export async function readIndexEntries(
  store: Store,
  source: IndexSource,
  options: { descending: boolean; low: string; high: string; limit: number },
): Promise<{ entries: IndexEntry[]; more: boolean }> {
  if (options.low > options.high) return { entries: [], more: false };
  const index = indexOf[source.index];
  const { Items = [], LastEvaluatedKey } = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: index.name,
      KeyConditionExpression: '#pk = :partition AND #sk BETWEEN :low AND :high',
      ExpressionAttributeNames: { '#pk': index.pk, '#sk': index.sk },
      ExpressionAttributeValues: { ':partition': source.partition, ':low': options.low, ':high': options.high },
      ScanIndexForward: !options.descending,
      Limit: options.limit,
    }),
  );
  return { entries: Items.map((item) => entryOf(item, index.sk)), more: LastEvaluatedKey !== undefined };
}

/**
 * The entries of a partition at one instant (`<instant>#…`), by id ascending, after `afterId` when given, at most
 * `limit`: the prospects tying there, which a list shows by id ascending (docs/api.md#lists-of-prospects) also when it
 * reads the index the other way.
 */
export async function readEntriesAt(
  store: Store,
  source: IndexSource,
  instant: string,
  options: { afterId?: string; limit: number },
): Promise<{ entries: IndexEntry[]; more: boolean }> {
  const index = indexOf[source.index];
  const after = options.afterId === undefined ? undefined : `${instant}#${options.afterId}`;
  const { Items = [], LastEvaluatedKey } = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: index.name,
      KeyConditionExpression: '#pk = :partition AND #sk BETWEEN :low AND :high',
      ExpressionAttributeNames: { '#pk': index.pk, '#sk': index.sk },
      ExpressionAttributeValues: {
        ':partition': source.partition,
        ':low': after ?? `${instant}#`,
        ':high': `${instant}#${highestKey}`,
      },
      // The position's own entry comes back first when resuming after it.
      Limit: options.limit + (after === undefined ? 0 : 1),
    }),
  );
  const entries = Items.map((item) => entryOf(item, index.sk)).filter((entry) => entry.key !== after);
  return {
    entries: entries.slice(0, options.limit),
    more: LastEvaluatedKey !== undefined || entries.length > options.limit,
  };
}

const entryOf = (item: Record<string, unknown>, sortKey: string): IndexEntry => ({
  prospectId: prospectIdOf(item.pk as string),
  key: item[sortKey] as string,
});

/** At most 100 keys in one BatchGetItem (DynamoDB's limit): a page's batch of entries. */
export const maxProspectsPerRead = 100;

/**
 * The prospects of a page, by id, read strongly: what the list shows and filters is what the last answered change
 * left, never the index's copy. Ids of prospects that do not exist are simply absent.
 */
export async function readProspects(
  store: Store,
  workspaceId: string,
  prospectIds: readonly string[],
): Promise<Map<string, ProspectItem>> {
  const found = await batchGetItems(
    store,
    [...new Set(prospectIds)].map((id) => keys.prospect(workspaceId, id)),
    { consistentRead: true },
  );
  return new Map(found.map((item) => [(item as ProspectItem).id, item as ProspectItem]));
}
