import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { keys, type ItemKey } from './keys';
import type { ProspectItem } from './records';
import { untilProcessed } from './retry';
import { loadConfigWith, type WorkspaceConfig } from './workspace-config';

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
 * Access patterns "workspace configuration" and "prospect by id" at once: the configuration item
 * and the prospect in one strongly consistent BatchGetItem.
 */
async function loadConfigAndProspect(
  store: Store,
  workspaceId: string,
  prospectId: string,
): Promise<{ config: WorkspaceConfig; prospect: ProspectItem | undefined }> {
  const key = keys.prospect(workspaceId, prospectId);
  const { config, found } = await loadConfigWith(store, workspaceId, [key]);
  const prospect = found.find((item) => item.pk === key.pk && item.sk === key.sk);
  return { config, prospect: prospect as ProspectItem | undefined };
}

/**
 * The prospect alone, read again after a lost race (the configuration is kept from the first
 * read), by the same strongly consistent BatchGetItem action as that read: the Prospect API
 * routes need no GetItem grant (lib/routes.ts). Same round trip and cost as a GetItem.
 */
async function rereadProspect(
  store: Store,
  workspaceId: string,
  prospectId: string,
): Promise<ProspectItem | undefined> {
  const key = keys.prospect(workspaceId, prospectId);
  let prospect: ProspectItem | undefined;
  await untilProcessed([key], async (part) => {
    const result = await store.db.send(
      new BatchGetCommand({ RequestItems: { [store.tableName]: { Keys: [...part], ConsistentRead: true } } }),
    );
    prospect = (result.Responses?.[store.tableName]?.[0] as ProspectItem | undefined) ?? prospect;
    return (result.UnprocessedKeys?.[store.tableName]?.Keys ?? []) as ItemKey[];
  });
  return prospect;
}

/**
 * The reads of an optimistic change of a prospect: the first round gets the configuration and the
 * prospect in one BatchGetItem; a round after a lost race reads the prospect alone, the
 * configuration being kept (it does not change under a request).
 */
export function configAndProspectRounds(
  store: Store,
  workspaceId: string,
  prospectId: string,
): () => Promise<{ config: WorkspaceConfig; prospect: ProspectItem | undefined }> {
  let config: WorkspaceConfig | undefined;
  return async () => {
    if (config) return { config, prospect: await rereadProspect(store, workspaceId, prospectId) };
    const loaded = await loadConfigAndProspect(store, workspaceId, prospectId);
    config = loaded.config;
    return loaded;
  };
}
