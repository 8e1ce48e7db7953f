import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../../../lib/storage/client';
import { keys, listIndexKeys, type ProspectItem } from '../../../lib/storage/table-items';
import { indexingConcurrency, inParallel, listProspectPhones } from './phone-index';

/**
 * The lists' index keys on the prospects of a workspace written before them (docs/deploy.md#new-indexes,
 * docs/adr/0017-lists-of-prospects.md): each prospect walked by gsi3, read strongly, and given the keys its builder
 * writes (`listIndexKeys`) when it lacks them, on the condition that it did not change meanwhile (a change writes
 * them itself). Not a change: no `version`, `updated_at` or event. Run again, it writes nothing.
 */
export async function reindexProspects(
  store: Store,
  workspaceId: string,
): Promise<{ walked: number; written: number }> {
  const prospects = await listProspectPhones(store, workspaceId);
  let written = 0;
  await inParallel(prospects, indexingConcurrency, async ({ id }) => {
    const { Item } = await store.db.send(
      new GetCommand({ TableName: store.tableName, Key: keys.prospect(workspaceId, id), ConsistentRead: true }),
    );
    if (!Item) return;
    const stored = Item as ProspectItem;
    const wanted = listIndexKeys(stored);
    const attributes = ['gsi5pk', 'gsi5sk', 'gsi6pk', 'gsi6sk'] as const;
    if (attributes.every((name) => stored[name] === wanted[name])) return;
    const set = attributes.filter((name) => wanted[name] !== undefined);
    const removed = attributes.filter((name) => wanted[name] === undefined && stored[name] !== undefined);
    try {
      await store.db.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: keys.prospect(workspaceId, id),
          UpdateExpression: [
            `SET ${set.map((name) => `${name} = :${name}`).join(', ')}`,
            ...(removed.length > 0 ? [`REMOVE ${removed.join(', ')}`] : []),
          ].join(' '),
          ConditionExpression: 'version = :version AND updated_at = :updatedAt',
          ExpressionAttributeValues: {
            ...Object.fromEntries(set.map((name) => [`:${name}`, wanted[name]])),
            ':version': stored.version,
            ':updatedAt': stored.updated_at,
          },
        }),
      );
      written += 1;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  });
  return { walked: prospects.length, written };
}
