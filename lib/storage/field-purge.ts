import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Store } from './client';
import { changeLogPrefix, indexes, keys, type ItemKey } from './table-items';
import { fieldChangeName, type FieldValues } from '../domain/model';

/*
 * The purge of a deleted custom field, its access patterns (docs/data-model.md, "The purge of a deleted field"):
 * the workspaces with a purge to make (index gsi4), a page of a workspace's prospects (index gsi3), and per prospect
 * the one read that finds its value and entries of the key, then the conditional writes that remove them. None of
 * them writes `version`, `updated_at`, `actor` or an entry: the removal is no change of the prospect.
 */

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
 * prospect item if it holds a value of the key and the entries named `fields.<key>`; then one conditional write per
 * item found (`removeValue`, `deleteEntry`). A condition that no longer holds (the value cleared, the entry deleted
 * meanwhile) leaves nothing to do: a page done twice removes nothing more.
 */
export async function purgeProspectField(
  store: Store,
  workspaceId: string,
  prospectId: string,
  key: string,
): Promise<ProspectPurged> {
  const pk = keys.prospectPk(workspaceId, prospectId);
  const found: { sk: string; fields?: FieldValues }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        // `$` sorts right after `#`: the range ends with the last PROSPECT#LOG#… key.
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        FilterExpression: 'attribute_exists(#fields.#key) OR #field = :field',
        ProjectionExpression: 'sk, #fields',
        ExpressionAttributeNames: { '#fields': 'fields', '#key': key, '#field': 'field' },
        ExpressionAttributeValues: {
          ':pk': pk,
          ':from': 'PROSPECT',
          ':to': `${changeLogPrefix.slice(0, -1)}$`,
          ':field': fieldChangeName(key),
        },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...((page.Items ?? []) as typeof found));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);

  const prospect = found.find((item) => item.sk === 'PROSPECT');
  const entries = found.filter((item) => item.sk !== 'PROSPECT');
  const [value, ...deleted] = await Promise.all([
    prospect?.fields === undefined ? false : removeValue(store, pk, key, prospect.fields),
    ...entries.map((entry) => deleteEntry(store, { pk, sk: entry.sk }, key)),
  ]);
  return { value: value ?? false, entries: deleted.filter(Boolean).length };
}

/** Rounds of `removeValue` lost to writes that changed how many values the prospect holds, before it gives up. */
const valueRounds = 3;

/**
 * The value removed, and nothing else written (no `version`, `updated_at`, `actor`): the removal is no change of the
 * prospect. The key's value alone, or the whole `fields` map when it is the prospect's only value: a prospect without
 * values has no `fields` (lib/domain/model.ts), never an empty map, which DynamoDB Local's stream moreover reports
 * without its type. Conditional on the value being there and on the count of values read, so a value written or
 * cleared meanwhile is never lost nor left an empty map: a refusal returns the item (`ALL_OLD`), decided again on it.
 * False when the value is gone meanwhile; a prospect that keeps changing under it fails the run (its page is walked
 * again by the next one).
 */
async function removeValue(store: Store, pk: string, key: string, read: FieldValues): Promise<boolean> {
  let values: FieldValues | undefined = read;
  for (let round = 0; round < valueRounds; round += 1) {
    if (values?.[key] === undefined) return false;
    const alone = Object.keys(values).length === 1;
    try {
      await store.db.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: { pk, sk: 'PROSPECT' },
          UpdateExpression: alone ? 'REMOVE #fields' : 'REMOVE #fields.#key',
          ConditionExpression: `attribute_exists(#fields.#key) AND size(#fields) ${alone ? '=' : '>'} :one`,
          ExpressionAttributeNames: { '#fields': 'fields', '#key': key },
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      values = error.Item === undefined ? undefined : (unmarshall(error.Item).fields as FieldValues | undefined);
    }
  }
  throw new Error(`Valeur du champ ${key} toujours modifiée pendant sa purge (${valueRounds} essais)`);
}

/**
 * A change-log entry of the key deleted, on the condition that it is one: IAM cannot tell it from the prospect item
 * or a note of the partition (docs/adr/0016-custom-fields-storage.md), this condition does. False when it was gone.
 */
async function deleteEntry(store: Store, entry: ItemKey, key: string): Promise<boolean> {
  try {
    await store.db.send(
      new DeleteCommand({
        TableName: store.tableName,
        Key: entry,
        ConditionExpression: '#type = :entry AND #field = :field',
        ExpressionAttributeNames: { '#type': 'type', '#field': 'field' },
        ExpressionAttributeValues: { ':entry': 'changelog', ':field': fieldChangeName(key) },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
