import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../../../lib/storage/client';
import { writeFollowUpSchedule } from '../../../lib/storage/follow-up-schedule';
import { keys, listIndexKeys, type ProspectItem } from '../../../lib/storage/table-items';
import { indexingConcurrency, inParallel, listProspectPhones } from './phone-index';

/**
 * What a deployment adds to the prospects of a workspace written before it (docs/deploy.md#new-indexes): each
 * prospect walked by gsi3 and read strongly is given
 * - the lists' index keys its builder writes (`listIndexKeys`, docs/adr/0017-lists-of-prospects.md) when it lacks
 *   them, on the condition that it did not change meanwhile (a change writes them itself);
 * - the schedule of its follow-up still ahead (docs/adr/0018-follow-up-due-from-a-minute-sweep-and-queue-delays.md)
 *   when it has none from this version (the stream handler writes it for every later change).
 * Not a change: no `version`, `updated_at` or event. Run again, it writes nothing.
 */
export async function reindexProspects(
  store: Store & { clock: () => Date },
  workspaceId: string,
): Promise<{ walked: number; written: number; scheduled: number }> {
  const prospects = await listProspectPhones(store, workspaceId);
  let [written, scheduled] = [0, 0];
  await inParallel(prospects, indexingConcurrency, async ({ id }) => {
    const { Item } = await store.db.send(
      new GetCommand({ TableName: store.tableName, Key: keys.prospect(workspaceId, id), ConsistentRead: true }),
    );
    if (!Item) return;
    const stored = Item as ProspectItem;
    const followUpAt = stored.next_follow_up_at;
    if (followUpAt !== null && Date.parse(followUpAt) > store.clock().getTime()) {
      const schedule = { workspaceId, prospectId: id, version: stored.version, followUpAt };
      if (await writeFollowUpSchedule(store, schedule)) scheduled += 1;
    }
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
  return { walked: prospects.length, written, scheduled };
}
