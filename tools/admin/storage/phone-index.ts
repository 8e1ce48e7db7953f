import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Store } from '../../../lib/storage/client';
import { indexes, items, keys, type MarkerItem } from '../../../lib/storage/table-items';

/**
 * Indexing a workspace's prospects by the E.164 form of their phones (docs/api.md#workspaces, admin
 * `workspace set`; docs/data-model.md, "Phone matching in E.164"). The exact `PHONE` markers are
 * never touched: the `PHONE164` markers written here are only read while the workspace matches in
 * E.164, so turning it off goes back to the exact ones.
 */

/** A prospect as index gsi3 projects it: what the indexing needs, nothing else. */
export type ProspectPhone = {
  id: string;
  phone: string | null;
  created_at: string;
};

/** A number several prospects share in E.164 form: the one whose marker holds it, and the others. */
export type SharedNumber = { phone_e164: string; kept: string; others: string[] };

/**
 * A phone's E.164 form in the region indexed, undefined when it is no valid number there (the
 * domain's `e164Of` with the region: storage knows nothing of phone numbers).
 */
export type E164Form = (phone: string) => string | undefined;

/** Called as the indexing goes: numbers done out of the total. */
export type IndexProgress = (done: number, total: number) => void;

/** Writes in flight at once: modest, so a big workspace does not throttle the table for the API. */
export const indexingConcurrency = 16;

/**
 * Access pattern "prospects of a workspace" (index gsi3, `WS#<ws>#PROSPECTS`, oldest first): every
 * prospect's id, phone and creation date, without a Scan. Eventually consistent, as every
 * index read: a prospect written in the last instant may be missing (the command can be run again).
 */
export async function listProspectPhones(store: Store, workspaceId: string): Promise<ProspectPhone[]> {
  const listed: ProspectPhone[] = [];
  const pages = paginateQuery(
    { client: store.db },
    {
      TableName: store.tableName,
      IndexName: indexes.prospectPhonesOfWorkspace,
      KeyConditionExpression: 'gsi3pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.prospectsOfWorkspace(workspaceId) },
      ProjectionExpression: 'id, phone, created_at',
      ScanIndexForward: true,
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      listed.push({
        id: item.id as string,
        phone: typeof item.phone === 'string' ? item.phone : null,
        created_at: item.created_at as string,
      });
    }
  }
  return listed;
}

/** The prospects by the E.164 form of their phone, oldest first in each; invalid phones left out. */
export function groupByE164(prospects: readonly ProspectPhone[], e164Of: E164Form): Map<string, ProspectPhone[]> {
  const groups = new Map<string, ProspectPhone[]>();
  for (const prospect of prospects) {
    const e164 = prospect.phone === null ? undefined : e164Of(prospect.phone);
    if (e164 === undefined) continue;
    const group = groups.get(e164);
    if (group) group.push(prospect);
    else groups.set(e164, [prospect]);
  }
  return groups;
}

/** Runs `work` on every entry, `concurrency` at a time. */
export async function inParallel<T>(entries: readonly T[], concurrency: number, work: (entry: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const entry = entries[next++] as T;
      await work(entry);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
}

/** Puts a marker only if nothing holds its key; a refusal answers who holds it. */
async function putMarkerIfAbsent(
  store: Store,
  marker: MarkerItem,
  condition: { owner: string } | 'absent',
): Promise<'written' | { owner: string | undefined }> {
  try {
    await store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: marker,
        ...(condition === 'absent'
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : {
              ConditionExpression: 'record_id = :owner',
              ExpressionAttributeValues: { ':owner': condition.owner },
            }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'written';
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const stored = error.Item ? (unmarshall(error.Item) as Partial<MarkerItem>) : undefined;
    return { owner: stored?.record_id };
  }
}

/**
 * Indexes the prospects (as listed, oldest first) in E.164 form (`e164Of`, one region's): for each number,
 * the `PHONE164` marker of the oldest prospect having it, put only if absent. A marker already there
 * is left as it is when it names a prospect having that number (this one: a run again, or an
 * interrupted run completed; another: the number is shared, its holder keeps it) or one unknown here
 * (written meanwhile by the lead webhook); a marker naming a listed prospect whose phone no longer
 * gives that number (written in another region) is taken over, conditional on its holder. Answers
 * the numbers several prospects share, by the holder of the marker and the others, oldest first.
 */
export async function indexPhones(
  store: Store,
  workspaceId: string,
  prospects: readonly ProspectPhone[],
  e164Of: E164Form,
  progress: IndexProgress = () => {},
): Promise<SharedNumber[]> {
  const groups = [...groupByE164(prospects, e164Of)];
  const e164ById = new Map<string, string>();
  for (const [e164, group] of groups) for (const prospect of group) e164ById.set(prospect.id, e164);
  const listedIds = new Set(prospects.map((prospect) => prospect.id));
  const holders = new Map<string, string>();
  let done = 0;
  progress(0, groups.length);
  await inParallel(groups, indexingConcurrency, async ([e164, group]) => {
    const first = group[0] as ProspectPhone;
    // No placement hint: the index does not project it; the first known-contact call writes it.
    const marker = items.marker(keys.phoneE164Marker(workspaceId, e164), workspaceId, first.id);
    let condition: { owner: string } | 'absent' = 'absent';
    for (let tries = 0; tries < 4; tries += 1) {
      const outcome = await putMarkerIfAbsent(store, marker, condition);
      if (outcome === 'written') {
        holders.set(e164, first.id);
        break;
      }
      const owner = outcome.owner;
      if (owner === undefined) {
        condition = 'absent'; // deleted meanwhile: put it again
        continue;
      }
      const stale = listedIds.has(owner) && e164ById.get(owner) !== e164;
      if (!stale) {
        holders.set(e164, owner);
        break;
      }
      condition = { owner };
    }
    if (!holders.has(e164)) holders.set(e164, await markerOwner(store, workspaceId, e164, first.id));
    done += 1;
    progress(done, groups.length);
  });
  const shared: SharedNumber[] = [];
  for (const [e164, group] of groups) {
    const kept = holders.get(e164) as string;
    const others = group.map((prospect) => prospect.id).filter((id) => id !== kept);
    if (others.length > 0) shared.push({ phone_e164: e164, kept, others });
  }
  return shared;
}

/** Who holds a number after contended rounds: as stored (`fallback` if nothing is). */
async function markerOwner(store: Store, workspaceId: string, e164: string, fallback: string): Promise<string> {
  const { Item } = await store.db.send(
    new GetCommand({
      TableName: store.tableName,
      Key: keys.phoneE164Marker(workspaceId, e164),
      ConsistentRead: true,
    }),
  );
  return (Item?.record_id as string | undefined) ?? fallback;
}

/**
 * After a region change: deletes each prospect's `PHONE164` marker computed in the old region when
 * it differs from the one in the new region, conditional on the marker still naming that prospect
 * (one taken over by another prospect is left). Run once the new region is in force, so the
 * matching never lacks a marker it reads.
 */
export async function removeOldRegionMarkers(
  store: Store,
  workspaceId: string,
  prospects: readonly ProspectPhone[],
  regions: { old: E164Form; new: E164Form },
): Promise<number> {
  const stale = prospects.flatMap((prospect) => {
    if (prospect.phone === null) return [];
    const old = regions.old(prospect.phone);
    return old !== undefined && old !== regions.new(prospect.phone) ? [{ id: prospect.id, e164: old }] : [];
  });
  let removed = 0;
  await inParallel(stale, indexingConcurrency, async ({ id, e164 }) => {
    try {
      await store.db.send(
        new DeleteCommand({
          TableName: store.tableName,
          Key: keys.phoneE164Marker(workspaceId, e164),
          ConditionExpression: 'record_id = :owner',
          ExpressionAttributeValues: { ':owner': id },
        }),
      );
      removed += 1;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  });
  return removed;
}
