import { BatchGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { keys, type ItemKey } from './keys';
import { items, type MarkerItem, type Prospect, type ProspectItem, type WebhookCall } from './records';
import { prospectUpdate, type ProspectChange } from './prospect-update';
import { untilProcessed } from './retry';
import { failedConditionIndexes, putIfAbsent, refusedItem } from './transactions';
import { journalEntryPut } from './webhook-calls';
import { loadConfigWith, type WorkspaceConfig } from './workspace-config';

export type ContactValues = {
  email?: string | null | undefined;
  phone?: string | null | undefined;
  social_url?: string | null | undefined;
};
/** Where a prospect stands: a known contact's answer names it. */
export type Placement = { pipeline_id: string | null; stage_id: string | null };

/** A marker found: its key, and the placement it was last written with, when it has one (a hint). */
export type FoundMarker = { key: ItemKey; placement: Placement | undefined };

type ContactKind = 'email' | 'phone' | 'social';

/** The prospect owning each contact value sent, and the marker that says so. */
export type ContactOwners = Partial<Record<ContactKind, string>> & {
  markers?: Partial<Record<ContactKind, FoundMarker>>;
};

function markerKeys(workspaceId: string, contact: ContactValues): { kind: ContactKind; key: ItemKey }[] {
  const found: { kind: ContactKind; key: ItemKey }[] = [];
  if (contact.email != null) found.push({ kind: 'email', key: keys.emailMarker(workspaceId, contact.email) });
  if (contact.phone != null) found.push({ kind: 'phone', key: keys.phoneMarker(workspaceId, contact.phone) });
  if (contact.social_url != null) {
    found.push({ kind: 'social', key: keys.socialMarker(workspaceId, contact.social_url) });
  }
  return found;
}

/** Access pattern "contact by e-mail, phone, social_url": the three markers in one BatchGetItem. */
export async function findContactOwners(
  store: Store,
  workspaceId: string,
  contact: ContactValues,
): Promise<ContactOwners> {
  const wanted = markerKeys(workspaceId, contact);
  const owners: ContactOwners = {};
  if (wanted.length === 0) return owners;
  await untilProcessed(
    wanted.map((entry) => entry.key),
    async (part) => {
      const result = await store.db.send(
        new BatchGetCommand({ RequestItems: { [store.tableName]: { Keys: [...part], ConsistentRead: true } } }),
      );
      ownersAmong(wanted, (result.Responses?.[store.tableName] ?? []) as (ItemKey & Record<string, unknown>)[], owners);
      return (result.UnprocessedKeys?.[store.tableName]?.Keys ?? []) as ItemKey[];
    },
  );
  return owners;
}

function ownersAmong(
  wanted: readonly { kind: ContactKind; key: ItemKey }[],
  found: readonly (ItemKey & Record<string, unknown>)[],
  owners: ContactOwners,
): void {
  for (const item of found as (MarkerItem & ItemKey)[]) {
    const entry = wanted.find((candidate) => candidate.key.pk === item.pk);
    if (!entry) continue;
    owners[entry.kind] = item.record_id;
    const placement =
      item.pipeline_id !== undefined && item.stage_id !== undefined
        ? { pipeline_id: item.pipeline_id, stage_id: item.stage_id }
        : undefined;
    owners.markers = { ...owners.markers, [entry.kind]: { key: entry.key, placement } };
  }
}

/**
 * Access patterns "workspace configuration" and "contact by e-mail, phone, social_url" at once:
 * the configuration item and the contact's markers in one strongly consistent BatchGetItem.
 */
export async function loadConfigAndContactOwners(
  store: Store,
  workspaceId: string,
  contact: ContactValues,
): Promise<{ config: WorkspaceConfig; owners: ContactOwners }> {
  const wanted = markerKeys(workspaceId, contact);
  const { config, found } = await loadConfigWith(
    store,
    workspaceId,
    wanted.map((entry) => entry.key),
    // A marker written a second ago must be found: strongly consistent (docs/adr/0007).
    { consistentRead: true },
  );
  const owners: ContactOwners = {};
  ownersAmong(wanted, found, owners);
  return { config, owners };
}

/**
 * The prospect, one marker per contact value and the call's journal entry, in one transaction:
 * each marker is created only if absent, so two concurrent creations of one contact cannot both
 * succeed. The markers carry the prospect's placement (a hint for the next known-contact call).
 */
export async function createProspectWithMarkers(
  store: Store,
  prospect: Prospect,
  journal: WebhookCall,
): Promise<'created' | 'contact_taken'> {
  const markers = markerKeys(prospect.workspace_id, prospect).map((entry) =>
    items.marker(entry.key, prospect.workspace_id, prospect.id, prospect),
  );
  try {
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: [
          putIfAbsent(store, items.prospect(prospect)),
          ...markers.map((item) => putIfAbsent(store, item)),
          journalEntryPut(store, journal),
        ],
      }),
    );
    return 'created';
  } catch (error) {
    if (failedConditionIndexes(error).length > 0) return 'contact_taken';
    throw error;
  }
}

export type KnownContactUpdate = {
  first_name?: string | undefined;
  last_name?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  tagIds: readonly string[];
  now: string;
};

function knownContactChange(update: KnownContactUpdate): ProspectChange {
  const set: Record<string, string> = {};
  for (const field of ['first_name', 'last_name', 'email', 'phone'] as const) {
    const value = update[field];
    if (value !== undefined) set[field] = value;
  }
  return { set, addTags: update.tagIds, now: update.now };
}

export type KnownContactWrite =
  { kind: 'updated' } | { kind: 'placed_elsewhere'; placement: Placement } | { kind: 'changed_meanwhile' };

/**
 * A known contact whose markers stay as they are, with the call's journal entry, in one
 * transaction. The answer names the prospect's placement, which a transaction cannot return: the
 * update is conditional on the placement `expected` (the matched marker's hint), so a success
 * proves it. A prospect placed elsewhere fails the condition and comes back with the refusal
 * (`ReturnValuesOnConditionCheckFailure`): the caller writes again expecting that placement and
 * `refresh`es the marker's hint in the same transaction. So a known contact stays one write
 * (docs/adr/0008), and a hint can never make an answer wrong.
 */
export async function updateKnownProspect(
  store: Store,
  target: { workspaceId: string; prospectId: string; marker: ItemKey },
  update: KnownContactUpdate,
  placement: { expected: Placement; refresh: boolean },
  journal: WebhookCall,
): Promise<KnownContactWrite> {
  const { expected } = placement;
  const change = prospectUpdate(knownContactChange(update), {
    ':pipeline': expected.pipeline_id,
    ':stage': expected.stage_id,
  });
  const markerRefresh = {
    Update: {
      TableName: store.tableName,
      Key: target.marker,
      UpdateExpression: 'SET pipeline_id = :pipeline, stage_id = :stage',
      ConditionExpression: 'record_id = :owner',
      ExpressionAttributeValues: {
        ':pipeline': expected.pipeline_id,
        ':stage': expected.stage_id,
        ':owner': target.prospectId,
      },
    },
  };
  try {
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: store.tableName,
              Key: keys.prospect(target.workspaceId, target.prospectId),
              ...change,
              ExpressionAttributeNames: {
                ...change.ExpressionAttributeNames,
                '#pipeline': 'pipeline_id',
                '#stage': 'stage_id',
              },
              ConditionExpression: 'attribute_exists(pk) AND #pipeline = :pipeline AND #stage = :stage',
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          journalEntryPut(store, journal),
          ...(placement.refresh ? [markerRefresh] : []),
        ],
      }),
    );
    return { kind: 'updated' };
  } catch (error) {
    const [failed] = failedConditionIndexes(error);
    if (failed === undefined) throw error;
    const stored = failed === 0 ? (refusedItem(error, 0) as ProspectItem | undefined) : undefined;
    if (!stored) return { kind: 'changed_meanwhile' };
    return {
      kind: 'placed_elsewhere',
      placement: { pipeline_id: stored.pipeline_id ?? null, stage_id: stored.stage_id ?? null },
    };
  }
}

/**
 * A known contact that takes a new e-mail or phone: the record (conditional on the version read),
 * the new markers (created only if absent) and the release of the old ones, in one transaction.
 */
export async function updateKnownProspectContacts(
  store: Store,
  prospect: ProspectItem,
  update: KnownContactUpdate,
  journal: WebhookCall,
): Promise<'updated' | 'changed_meanwhile'> {
  const replaced = (['email', 'phone'] as const).filter(
    (field) =>
      update[field] !== undefined &&
      markerOf(prospect, field, update[field]).pk !== markerOf(prospect, field, prospect[field]).pk,
  );
  const markerWrites = replaced.flatMap((field) => {
    const added = putIfAbsent(
      store,
      items.marker(markerOf(prospect, field, update[field]), prospect.workspace_id, prospect.id, prospect),
    );
    const previous = prospect[field];
    if (previous === null) return [added];
    const released = {
      Delete: {
        TableName: store.tableName,
        Key: markerOf(prospect, field, previous),
        ConditionExpression: 'record_id = :owner',
        ExpressionAttributeValues: { ':owner': prospect.id },
      },
    };
    return [added, released];
  });
  try {
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: store.tableName,
              Key: keys.prospect(prospect.workspace_id, prospect.id),
              ...prospectUpdate(knownContactChange(update), { ':version': prospect.version }),
              ConditionExpression: 'version = :version',
            },
          },
          ...markerWrites,
          journalEntryPut(store, journal),
        ],
      }),
    );
    return 'updated';
  } catch (error) {
    if (failedConditionIndexes(error).length > 0) return 'changed_meanwhile';
    throw error;
  }
}

function markerOf(prospect: ProspectItem, field: 'email' | 'phone', value: string | null | undefined): ItemKey {
  if (value === null || value === undefined) return { pk: '', sk: '' };
  return field === 'email'
    ? keys.emailMarker(prospect.workspace_id, value)
    : keys.phoneMarker(prospect.workspace_id, value);
}
