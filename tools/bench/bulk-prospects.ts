import { newProspect } from '../../lib/domain/lead/new-prospect';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../lib/deps';
import { keys, items, type MarkerItem, type ProspectItem } from '../../lib/storage/table-items';

/** A prospect and its e-mail and phone markers. */
export const itemsPerProspect = 3;
/** BatchWriteItem takes 25 puts. */
const prospectsPerBatch = Math.floor(25 / itemsPerProspect);
/** DynamoDB Local (one JVM) stops going faster beyond a few concurrent batches on two cores. */
const concurrentBatches = 4;

export type BulkPlacement = { workspaceId: string; pipelineId: string; stageId: string };

export const bulkEmail = (index: number) => `volume-${index}@banc.test`;

/**
 * Writes `count` prospects, each with its e-mail and phone markers, as the lead webhook would
 * have left them, straight into the table (BatchWriteItem, unconditional: the workspace is the
 * bench's own and every value is new). Returns how long it took.
 */
export async function seedProspects(
  deps: Pick<Deps, 'db' | 'tableName' | 'newId'>,
  placement: BulkPlacement,
  count: number,
): Promise<number> {
  const started = performance.now();
  const createdAt = new Date().toISOString();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const first = next;
      next = Math.min(count, next + prospectsPerBatch);
      const items = [];
      for (let index = first; index < next; index += 1) items.push(...prospectItems(deps, placement, index, createdAt));
      await writeAll(deps, items);
    }
  };
  await Promise.all(Array.from({ length: concurrentBatches }, worker));
  return performance.now() - started;
}

function prospectItems(
  deps: Pick<Deps, 'newId'>,
  placement: BulkPlacement,
  index: number,
  createdAt: string,
): (ProspectItem | MarkerItem)[] {
  const { workspaceId } = placement;
  const id = deps.newId();
  const email = bulkEmail(index);
  const phone = `+337${String(index).padStart(8, '0')}`;
  const prospect = newProspect(
    id,
    workspaceId,
    {
      first_name: 'Prénom',
      last_name: `Volume ${index}`,
      email,
      phone,
      source: 'Import du banc de mesure',
      tag_ids: [],
    },
    placement,
    [],
    { kind: 'admin', id: null },
    createdAt,
  );
  return [
    items.prospect(prospect),
    items.marker(keys.emailMarker(workspaceId, email), workspaceId, id, prospect),
    items.marker(keys.phoneMarker(workspaceId, phone), workspaceId, id, prospect),
  ];
}

async function writeAll(deps: Pick<Deps, 'db' | 'tableName'>, items: readonly object[]): Promise<void> {
  let pending = items.map((item) => ({ PutRequest: { Item: item as Record<string, unknown> } }));
  for (let round = 0; pending.length > 0; round += 1) {
    if (round > 8) throw new Error('BatchWriteItem kept items unprocessed');
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** round));
    const { UnprocessedItems } = await deps.db.send(
      new BatchWriteCommand({ RequestItems: { [deps.tableName]: pending } }),
    );
    pending = (UnprocessedItems?.[deps.tableName] ?? []) as typeof pending;
  }
}
