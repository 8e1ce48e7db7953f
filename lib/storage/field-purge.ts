import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { changeLogPrefix, indexes, keys } from './table-items';

/*
 * The purge of a deleted custom field, its access patterns (docs/data-model.md, "The purge of a deleted field"):
 * the workspaces with a purge to make (index gsi4), a page of a workspace's prospects (index gsi3), and per prospect
 * the one read that finds its value and entries of the key, then the conditional writes that remove them. None of
 * them writes `version`, `updated_at`, `actor` or an entry: the removal is no change of the prospect.
 */

/** How the change log names a change of a custom field's value (docs/api.md#change-log). */
const entryFieldOf = (key: string): string => `fields.${key}`;

/**
 * Access pattern "workspaces with a purge to make" (index gsi4, partition `FIELDPURGE`): the workspaces whose oldest
 * purging tombstone was deleted at `settledAt` or before, oldest first, at most `limit`. The index projects the
 * configuration item's `id`, the workspace's. Eventually consistent, as any index: a workspace whose purge has just
 * ended may still be listed, and its configuration, read strongly consistent, then shows nothing to do.
 */
export async function listWorkspacesToPurge(store: Store, settledAt: Date, limit: number): Promise<string[]> {
  const { Items = [] } = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: indexes.pendingWorkByTime,
      KeyConditionExpression: 'gsi4pk = :purges AND gsi4sk <= :settled',
      ExpressionAttributeValues: { ':purges': keys.fieldPurges, ':settled': settledAt.toISOString() },
      ProjectionExpression: 'id',
      Limit: limit,
    }),
  );
  return Items.map((item) => item.id as string);
}

/** A page of a workspace's prospects: their ids, where the page ended, and whether prospects may follow it. */
export type ProspectsPage = { ids: string[]; through: string | undefined; more: boolean };

/**
 * Access pattern "prospects of a workspace, oldest first, after a position" (index gsi3, `WS#<ws>#PROSPECTS`): at most
 * `limit` ids after `after` (a `gsi3sk`, `<created_at>#<id>`; none: from the first), and the `gsi3sk` of the last,
 * where the next page starts. `more` is false once the index had nothing past the page.
 */
export async function readProspectsAfter(
  store: Store,
  workspaceId: string,
  after: string | undefined,
  limit: number,
): Promise<ProspectsPage> {
  const { Items = [], LastEvaluatedKey } = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: indexes.prospectPhonesOfWorkspace,
      KeyConditionExpression: after === undefined ? 'gsi3pk = :pk' : 'gsi3pk = :pk AND gsi3sk > :after',
      ExpressionAttributeValues: {
        ':pk': keys.prospectsOfWorkspace(workspaceId),
        ...(after === undefined ? {} : { ':after': after }),
      },
      ProjectionExpression: 'id, gsi3sk',
      Limit: limit,
    }),
  );
  return {
    ids: Items.map((item) => item.id as string),
    through: Items.at(-1)?.gsi3sk as string | undefined,
    more: LastEvaluatedKey !== undefined,
  };
}

/** What the purge removed of one prospect: its value of the key (or none), and how many entries of the key. */
export type ProspectPurged = { value: boolean; entries: number };

/**
 * Removes `fields.<key>` from a prospect and deletes its change-log entries of the key. One strongly consistent Query
 * of the range that holds the prospect item and its change log (`PROSPECT` to `PROSPECT#LOG$`), filtered to the
 * prospect item if it holds a value of the key and the entries named `fields.<key>`, only their sort keys; then one
 * conditional write per item found. The value is removed on the condition that it is there, writing nothing else;
 * an entry is deleted on the condition that it is an entry of the key: IAM cannot tell it from the prospect item or
 * a note of the partition (docs/adr/0016-custom-fields-storage.md), this condition does. A condition that no longer
 * holds (the value cleared, the entry deleted meanwhile) leaves nothing to do: a page done twice removes nothing more.
 */
export async function purgeProspectField(
  store: Store,
  workspaceId: string,
  prospectId: string,
  key: string,
): Promise<ProspectPurged> {
  const pk = keys.prospectPk(workspaceId, prospectId);
  const names = { '#fields': 'fields', '#key': key, '#field': 'field' };
  const found: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        // `$` sorts right after `#`: the range ends with the last PROSPECT#LOG#… key.
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        FilterExpression: 'attribute_exists(#fields.#key) OR #field = :field',
        ProjectionExpression: 'sk',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: {
          ':pk': pk,
          ':from': 'PROSPECT',
          ':to': `${changeLogPrefix.slice(0, -1)}$`,
          ':field': entryFieldOf(key),
        },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...(page.Items ?? []).map((item) => item.sk as string));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);

  const done = await Promise.all(
    found.map((sk) =>
      madeUnlessRefused(() =>
        sk === 'PROSPECT'
          ? store.db.send(
              new UpdateCommand({
                TableName: store.tableName,
                Key: { pk, sk },
                UpdateExpression: 'REMOVE #fields.#key',
                ConditionExpression: 'attribute_exists(#fields.#key)',
                ExpressionAttributeNames: { '#fields': 'fields', '#key': key },
              }),
            )
          : store.db.send(
              new DeleteCommand({
                TableName: store.tableName,
                Key: { pk, sk },
                ConditionExpression: '#type = :entry AND #field = :field',
                ExpressionAttributeNames: { '#type': 'type', '#field': 'field' },
                ExpressionAttributeValues: { ':entry': 'changelog', ':field': entryFieldOf(key) },
              }),
            ),
      ),
    ),
  );
  return {
    value: found.some((sk, index) => sk === 'PROSPECT' && done[index]),
    entries: found.filter((sk, index) => sk !== 'PROSPECT' && done[index]).length,
  };
}

/** True when the conditional write was made; false when its condition no longer held (someone was there first). */
async function madeUnlessRefused(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
