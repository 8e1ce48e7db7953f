import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems, sameKey, type StoredItem } from './batch-get';
import type { Store } from './client';
import { keys, type ItemKey } from './keys';
import type { ProspectItem } from './records';
import { configOf, type WorkspaceConfig } from './workspace-config';

/** Access pattern "prospect by id in a workspace": another workspace's id is simply not found. */
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

/** What a round of an optimistic prospect change read, and whether the read was strongly consistent. */
export type ProspectRead = { config: WorkspaceConfig; prospect: ProspectItem | undefined; consistent: boolean };

/**
 * Access patterns "workspace configuration" and "prospect by id" at once: the configuration item
 * and the prospect in one eventually consistent BatchGetItem, half the read units of a strongly
 * consistent one (docs/adr/0007). The caller takes a decision that writes nothing only on a
 * strongly consistent read of the prospect (lib/domain/prospect/prospect-rounds.ts).
 */
async function loadConfigAndProspect(store: Store, workspaceId: string, prospectId: string): Promise<ProspectRead> {
  const key = keys.prospect(workspaceId, prospectId);
  const { config, found } = await loadConfigWith(store, workspaceId, [key], { consistentRead: false });
  const prospect = found.find((item) => item.pk === key.pk && item.sk === key.sk);
  return { config, prospect: prospect as ProspectItem | undefined, consistent: false };
}

/**
 * The prospect alone, read strongly consistently after a lost race or to confirm a decision
 * (the configuration is kept from the first read), by the BatchGetItem action of that read: the
 * Prospect API routes need no GetItem grant (lib/routes.ts). Same round trip and cost as a GetItem.
 */
async function rereadProspect(
  store: Store,
  workspaceId: string,
  prospectId: string,
): Promise<ProspectItem | undefined> {
  const [prospect] = await batchGetItems(store, [keys.prospect(workspaceId, prospectId)], { consistentRead: true });
  return prospect as ProspectItem | undefined;
}

/**
 * The reads of an optimistic change of a prospect: the first round gets the configuration and the
 * prospect in one eventually consistent BatchGetItem; every later round (after a lost race, or to
 * confirm a decision that writes nothing) reads the prospect alone, strongly consistently, the
 * configuration being kept (it does not change under a request).
 */
export function configAndProspectRounds(
  store: Store,
  workspaceId: string,
  prospectId: string,
): () => Promise<ProspectRead> {
  let config: WorkspaceConfig | undefined;
  return async () => {
    if (config) return { config, prospect: await rereadProspect(store, workspaceId, prospectId), consistent: true };
    const loaded = await loadConfigAndProspect(store, workspaceId, prospectId);
    config = loaded.config;
    return loaded;
  };
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
