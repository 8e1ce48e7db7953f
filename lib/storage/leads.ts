import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { keys, type ItemKey } from './keys';
import { items, type MarkerItem, type Prospect, type ProspectItem } from './records';
import { prospectUpdate, type ProspectChange } from './prospect-update';
import { untilProcessed } from './retry';
import { failedConditionIndexes, putIfAbsent } from './transactions';
import { loadConfigWith, type WorkspaceConfig } from './workspace-config';

export type ContactValues = {
  email?: string | null | undefined;
  phone?: string | null | undefined;
  social_url?: string | null | undefined;
};
export type ContactOwners = { email?: string; phone?: string; social?: string };

type ContactKind = keyof ContactOwners;

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
    if (entry) owners[entry.kind] = item.record_id;
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
 * The prospect and one marker per contact value, in one transaction: each marker is created only
 * if absent, so two concurrent creations of one contact cannot both succeed.
 */
export async function createProspectWithMarkers(
  store: Store,
  prospect: Prospect,
): Promise<'created' | 'contact_taken'> {
  const markers = markerKeys(prospect.workspace_id, prospect).map((entry) =>
    items.marker(entry.key, prospect.workspace_id, prospect.id),
  );
  try {
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: [
          putIfAbsent(store, items.prospect(prospect)),
          ...markers.map((item) => putIfAbsent(store, item)),
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

/** A known contact whose markers stay as they are: one UpdateItem, which also returns the record. */
export async function updateKnownProspect(
  store: Store,
  workspaceId: string,
  prospectId: string,
  update: KnownContactUpdate,
): Promise<ProspectItem | undefined> {
  try {
    const { Attributes } = await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.prospect(workspaceId, prospectId),
        ...prospectUpdate(knownContactChange(update)),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as ProspectItem;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
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
): Promise<'updated' | 'changed_meanwhile'> {
  const replaced = (['email', 'phone'] as const).filter(
    (field) =>
      update[field] !== undefined &&
      markerOf(prospect, field, update[field]).pk !== markerOf(prospect, field, prospect[field]).pk,
  );
  const markerWrites = replaced.flatMap((field) => {
    const added = putIfAbsent(
      store,
      items.marker(markerOf(prospect, field, update[field]), prospect.workspace_id, prospect.id),
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
