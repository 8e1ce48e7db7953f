import { batchGetItems, sameKey, type Store } from './client';
import { keys, type ItemKey, items, type MarkerItem, type ProspectItem } from './table-items';
import { prospectUpdate, type ProspectChange } from './prospect-writes';
import { putIfAbsent, transactWrite, type TransactItems } from './conditional-writes';
import { journalEntryPut } from './webhook-calls';
import { configOf } from './workspace-config';
import {
  type Actor,
  type PhoneSettings,
  type Prospect,
  type Stamped,
  type WebhookCall,
  type WorkspaceConfig,
  defaultPhoneSettings,
  phoneSettingsOf,
} from '../domain/model';

/**
 * The E.164 form a phone is matched by under `settings` (docs/api.md#phone-matching): undefined
 * when the workspace matches phones as sent or the phone does not parse as a valid number. The
 * domain's to say (lib/domain/phone.ts): storage only stores and finds the markers.
 */
export type E164Key = (phone: string, settings: PhoneSettings) => string | undefined;

/** How a workspace matches phones: its settings, and the reader of E.164 forms. */
export type PhoneMatching = { settings: PhoneSettings; e164Key: E164Key };

type TransactItem = TransactItems[number];

export type ContactValues = {
  email?: string | null | undefined;
  phone?: string | null | undefined;
  social_url?: string | null | undefined;
};
/** Where a prospect stands: a known contact's answer names it. */
export type Placement = { pipeline_id: string | null; stage_id: string | null };

/** A marker found: its key, and the placement it was last written with, when it has one (a hint). */
export type FoundMarker = { key: ItemKey; placement: Placement | undefined };

/**
 * `phone` is the marker a phone is matched by: its PHONE164 marker when the workspace matches in
 * E.164 and the phone parses valid, else its exact PHONE marker. In that E.164 case `phone_exact`
 * is the exact marker too, always written: read in the same BatchGetItem, it names the owner of
 * the very string sent when no prospect holds the E.164 form yet (a workspace being indexed).
 */
type ContactKind = 'email' | 'phone' | 'phone_exact' | 'social';

/** The prospect owning each contact value sent, and the marker that says so. */
export type ContactOwners = Partial<Record<ContactKind, string>> & {
  markers?: Partial<Record<ContactKind, FoundMarker>>;
};

type WantedMarker = { kind: ContactKind; key: ItemKey };

function markerKeys(workspaceId: string, contact: ContactValues, phone: PhoneMatching): WantedMarker[] {
  const found: WantedMarker[] = [];
  if (contact.email != null) found.push({ kind: 'email', key: keys.emailMarker(workspaceId, contact.email) });
  if (contact.phone != null) {
    const exact = keys.phoneMarker(workspaceId, contact.phone);
    const e164 = phone.e164Key(contact.phone, phone.settings);
    if (e164 !== undefined) {
      found.push({ kind: 'phone', key: keys.phoneE164Marker(workspaceId, e164) });
      found.push({ kind: 'phone_exact', key: exact });
    } else {
      found.push({ kind: 'phone', key: exact });
    }
  }
  if (contact.social_url != null) {
    found.push({ kind: 'social', key: keys.socialMarker(workspaceId, contact.social_url) });
  }
  return found;
}

/** Items by key, strongly consistent (a marker written a second ago must be found). */
const readItems = (store: Store, wanted: readonly ItemKey[]) => batchGetItems(store, wanted, { consistentRead: true });

/** Access pattern "contact by e-mail, phone, social_url": the contact's markers in one BatchGetItem. */
export async function findContactOwners(
  store: Store,
  workspaceId: string,
  contact: ContactValues,
  phone: PhoneMatching,
): Promise<ContactOwners> {
  const wanted = markerKeys(workspaceId, contact, phone);
  const found = await readItems(
    store,
    wanted.map((entry) => entry.key),
  );
  const owners: ContactOwners = {};
  ownersAmong(wanted, found, owners);
  return owners;
}

function ownersAmong(
  wanted: readonly WantedMarker[],
  found: readonly (ItemKey & Record<string, unknown>)[],
  owners: ContactOwners,
): void {
  for (const item of found as (MarkerItem & ItemKey)[]) {
    for (const entry of wanted.filter((candidate) => sameKey(candidate.key, item))) {
      owners[entry.kind] = item.record_id;
      const placement =
        item.pipeline_id !== undefined && item.stage_id !== undefined
          ? { pipeline_id: item.pipeline_id, stage_id: item.stage_id }
          : undefined;
      owners.markers = { ...owners.markers, [entry.kind]: { key: entry.key, placement } };
    }
  }
}

/** What the look-up reads when the caller does not know the phone settings: the common E.164 case. */
const guessedPhoneSettings: PhoneSettings = { phone_matching: 'e164', phone_region: defaultPhoneSettings.phone_region };

/**
 * Access patterns "workspace configuration" and "contact by e-mail, phone, social_url" at once:
 * the configuration item and the contact's markers in one strongly consistent BatchGetItem
 * (a marker written a second ago must be found: docs/adr/0007-fewer-round-trips.md).
 *
 * `phone`: the workspace's phone settings when the caller knows them (the lead webhook, from its
 * endpoint). Unknown (the look-up route), the configuration item says them: the same BatchGetItem
 * reads both the exact and the E.164 marker read in the default region, which serves either mode
 * in that region; a workspace matching in E.164 in another region costs one more BatchGetItem,
 * for the marker of the phone read in that region.
 */
export async function loadConfigAndContactOwners(
  store: Store,
  workspaceId: string,
  contact: ContactValues,
  phone: { settings: PhoneSettings | undefined; e164Key: E164Key },
): Promise<{ config: WorkspaceConfig; phone: PhoneMatching; owners: ContactOwners }> {
  const configKey = keys.workspace(workspaceId);
  const { e164Key } = phone;
  const read = markerKeys(workspaceId, contact, { settings: phone.settings ?? guessedPhoneSettings, e164Key });
  const items = await readItems(store, [configKey, ...read.map((entry) => entry.key)]);
  const configItem = items.find((item) => sameKey(item, configKey));
  const settings = { settings: phone.settings ?? phoneSettingsOf(configItem), e164Key };
  const wanted = markerKeys(workspaceId, contact, settings);
  const unread = wanted.filter((entry) => !read.some((known) => sameKey(known.key, entry.key)));
  const found = [
    ...items.filter((item) => item !== configItem),
    ...(await readItems(
      store,
      unread.map((e) => e.key),
    )),
  ];
  const owners: ContactOwners = {};
  ownersAmong(wanted, found, owners);
  return { config: configOf(configItem), phone: settings, owners };
}

/**
 * The prospect, one marker per contact value and the call's journal entry, in one transaction:
 * each marker is created only if absent, so two concurrent creations of one contact cannot both
 * succeed. The markers carry the prospect's placement (a hint for the next known-contact call).
 */
export async function createProspectWithMarkers(
  store: Store,
  prospect: Stamped<Prospect>,
  journal: WebhookCall,
  phone: PhoneMatching,
): Promise<'created' | 'contact_taken'> {
  // The exact phone marker always; in E.164 matching, a valid phone's PHONE164 marker too: its
  // condition lets one of several concurrent leads of one number in different formats create it.
  const markers = markerKeys(prospect.workspace_id, prospect, phone).map((entry) =>
    items.marker(entry.key, prospect.workspace_id, prospect.id, prospect),
  );
  const outcome = await transactWrite(store, [
    putIfAbsent(store, items.prospect(prospect)),
    ...markers.map((item) => putIfAbsent(store, item)),
    journalEntryPut(store, journal),
  ]);
  return outcome.written ? 'created' : 'contact_taken';
}

export type KnownContactUpdate = {
  first_name?: string | undefined;
  last_name?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  tagIds: readonly string[];
  actor: Actor;
  now: string;
};

function knownContactChange(update: KnownContactUpdate): ProspectChange {
  const set: Record<string, string> = {};
  for (const field of ['first_name', 'last_name', 'email', 'phone'] as const) {
    const value = update[field];
    if (value !== undefined) set[field] = value;
  }
  return { set, addTags: update.tagIds, actor: update.actor, now: update.now };
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
 * (docs/adr/0008-webhook-call-journal.md), and a hint can never make an answer wrong.
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
  const outcome = await transactWrite(store, [
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
  ]);
  if (outcome.written) return { kind: 'updated' };
  const stored = outcome.failed[0] === 0 ? (outcome.found(0) as ProspectItem | undefined) : undefined;
  if (!stored) return { kind: 'changed_meanwhile' };
  return {
    kind: 'placed_elsewhere',
    placement: { pipeline_id: stored.pipeline_id ?? null, stage_id: stored.stage_id ?? null },
  };
}

/**
 * A known contact that takes a new e-mail or phone: the record (conditional on the version read),
 * the new markers (created only if absent) and the release of the old ones, in one transaction.
 * In E.164 matching a phone of the same E.164 form as the record's is no new phone: the record
 * keeps the phone as first sent. A really new phone moves its exact marker and, when valid, its
 * PHONE164 marker (the old one released only if it is the prospect's: a number two prospects
 * shared keeps matching the older one, docs/api.md#phone-matching).
 */
export async function updateKnownProspectContacts(
  store: Store,
  prospect: Prospect,
  update: KnownContactUpdate,
  journal: WebhookCall,
  phone: PhoneMatching,
): Promise<'updated' | 'changed_meanwhile'> {
  const e164 = (value: string | null | undefined) => (value == null ? undefined : phone.e164Key(value, phone.settings));
  const samePhone =
    update.phone !== undefined && e164(update.phone) !== undefined && e164(update.phone) === e164(prospect.phone);
  const written: KnownContactUpdate = samePhone ? { ...update, phone: undefined } : update;
  const replaced = (['email', 'phone'] as const).filter(
    (field) =>
      written[field] !== undefined &&
      markerOf(prospect, field, written[field]).pk !== markerOf(prospect, field, prospect[field]).pk,
  );
  const owner = prospect.id;
  const release = (key: ItemKey, condition: string) => ({
    Delete: {
      TableName: store.tableName,
      Key: key,
      ConditionExpression: condition,
      ExpressionAttributeValues: { ':owner': owner },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  });
  const take = (key: ItemKey) => putIfAbsent(store, items.marker(key, prospect.workspace_id, owner, prospect));
  const markerWrites = replaced.flatMap((field) => {
    const added = take(markerOf(prospect, field, written[field]));
    const previous = prospect[field];
    if (previous === null) return [added];
    return [added, release(markerOf(prospect, field, previous), 'record_id = :owner')];
  });
  // The PHONE164 markers of a replaced phone: the new one taken if valid, the old one released
  // when it is the prospect's (absent: nothing to release; another's: kept, see below).
  const e164Writes: { item: TransactItem; optional: boolean }[] = [];
  if (replaced.includes('phone')) {
    const added = e164(written.phone);
    const previous = e164(prospect.phone);
    if (added !== undefined)
      e164Writes.push({ item: take(keys.phoneE164Marker(prospect.workspace_id, added)), optional: false });
    if (previous !== undefined && previous !== added) {
      const key = keys.phoneE164Marker(prospect.workspace_id, previous);
      e164Writes.push({ item: release(key, 'attribute_not_exists(pk) OR record_id = :owner'), optional: true });
    }
  }
  const send = (withOptional: boolean) => {
    const extra = e164Writes.filter((write) => withOptional || !write.optional).map((write) => write.item);
    return transactWrite(store, [
      {
        Update: {
          TableName: store.tableName,
          Key: keys.prospect(prospect.workspace_id, prospect.id),
          ...prospectUpdate(knownContactChange(written), { ':version': prospect.version }),
          ConditionExpression: 'version = :version',
        },
      },
      ...markerWrites,
      ...extra,
      journalEntryPut(store, journal),
    ]);
  };
  const first = await send(true);
  if (first.written) return 'updated';
  const { failed } = first;
  // Only the release of an old PHONE164 marker another prospect holds (a shared number): write
  // again without it, the marker stays that prospect's.
  const optional = e164Writes.findIndex((write) => write.optional);
  const optionalIndex = 1 + markerWrites.length + optional;
  const heldByAnother = (first.found(optionalIndex) as MarkerItem | undefined)?.record_id;
  if (
    optional < 0 ||
    failed.length !== 1 ||
    failed[0] !== optionalIndex ||
    heldByAnother === undefined ||
    heldByAnother === owner
  ) {
    return 'changed_meanwhile';
  }
  return (await send(false)).written ? 'updated' : 'changed_meanwhile';
}

function markerOf(prospect: Prospect, field: 'email' | 'phone', value: string | null | undefined): ItemKey {
  if (value === null || value === undefined) return { pk: '', sk: '' };
  return field === 'email'
    ? keys.emailMarker(prospect.workspace_id, value)
    : keys.phoneMarker(prospect.workspace_id, value);
}
