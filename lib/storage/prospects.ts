import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems, sameKey, type StoredItem, type Store } from './client';
import { keys, type ItemKey, type ProspectItem } from './table-items';
import { configOf } from './workspace-config';
import type { Prospect, WorkspaceConfig } from '../domain/model';

/**
 * Access pattern "prospect by id in a workspace": the prospect a contact's marker names (the lead
 * webhook, the look-up by contact; the admin's reads by id too). Another workspace's id is simply
 * not found.
 */
export async function getProspect(
  store: Store,
  workspaceId: string,
  prospectId: string,
): Promise<ProspectItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.prospect(workspaceId, prospectId), ConsistentRead: true }),
  );
  return Item as ProspectItem | undefined;
}

/**
 * Access patterns "workspace configuration" and "prospect by id" for a read route: one strongly
 * consistent BatchGetItem, so a prospect written a moment ago reads as written.
 */
export async function readProspectWithConfig(
  store: Store,
  workspaceId: string,
  prospectId: string,
): Promise<{ config: WorkspaceConfig; prospect: ProspectItem | undefined }> {
  const key = keys.prospect(workspaceId, prospectId);
  const { config, found } = await loadConfigWith(store, workspaceId, [key], { consistentRead: true });
  const prospect = found.find((item) => item.pk === key.pk && item.sk === key.sk);
  return { config, prospect: prospect as ProspectItem | undefined };
}

/** What a round of an optimistic prospect change reads: the configuration and the prospect. */
export type ConfigAndProspect = { config: WorkspaceConfig; prospect: Prospect | undefined };

/**
 * The read of an optimistic change of a prospect (PATCH, tags), a round of `readDecideWrite`.
 * First round: the configuration item and the prospect in one eventually consistent BatchGetItem,
 * half the read units of a strongly consistent one (docs/adr/0007-fewer-round-trips.md); the loop takes a decision that
 * writes nothing only on a strongly consistent read. Every later round (after a lost race, or to
 * confirm such a decision) reads the prospect alone, strongly consistently, by the BatchGetItem
 * action of the first read (the Prospect API routes need no GetItem grant: infra/cdk/route-grants.ts; same
 * round trip and cost as a GetItem); the configuration read first is passed back (`known`): it
 * does not change under a request. (The answer is the loop's `RoundRead`, spelt out: the read
 * routes that read prospects here do not open the loop's module.)
 */
export async function readConfigAndProspect(
  store: Store,
  workspaceId: string,
  prospectId: string,
  known: WorkspaceConfig | undefined,
): Promise<{ snapshot: ConfigAndProspect; consistent: boolean }> {
  const key = keys.prospect(workspaceId, prospectId);
  if (known) {
    const [prospect] = await batchGetItems(store, [key], { consistentRead: true });
    return { snapshot: { config: known, prospect: prospect as ProspectItem | undefined }, consistent: true };
  }
  const { config, found } = await loadConfigWith(store, workspaceId, [key], { consistentRead: false });
  const prospect = found.find((item) => item.pk === key.pk && item.sk === key.sk);
  return { snapshot: { config, prospect: prospect as ProspectItem | undefined }, consistent: false };
}

/**
 * The configuration item and other items of the same workspace, in one BatchGetItem: answers the
 * configuration and the other items found, with their keys.
 */
async function loadConfigWith(
  store: Store,
  workspaceId: string,
  otherKeys: readonly ItemKey[],
  consistency: { consistentRead: boolean },
): Promise<{ config: WorkspaceConfig; found: StoredItem[] }> {
  const configKey = keys.workspace(workspaceId);
  const items = await batchGetItems(store, [configKey, ...otherKeys], consistency);
  const configItem = items.find((item) => sameKey(item, configKey));
  return { config: configOf(configItem), found: items.filter((item) => item !== configItem) };
}
