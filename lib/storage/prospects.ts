import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems, sameKey, type StoredItem, type Store } from './client';
import { keys, type ItemKey, type MarkerItem, type ProspectItem } from './table-items';
import { configOf } from './workspace-config';
import {
  defaultPhoneSettings,
  phoneSettingsOf,
  type PhoneSettings,
  type Prospect,
  type WorkspaceConfig,
} from '../domain/model';

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

/**
 * The E.164 form a phone is matched by under `settings` (docs/api.md#phone-matching): undefined
 * when the workspace matches phones as sent or the phone does not parse as a valid number. The
 * domain's to say (lib/domain/phone.ts): storage only stores and finds the markers.
 */
export type E164Key = (phone: string, settings: PhoneSettings) => string | undefined;

/** How a workspace matches phones: its settings, and the reader of E.164 forms. */
export type PhoneMatching = { settings: PhoneSettings; e164Key: E164Key };

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

export function markerKeys(workspaceId: string, contact: ContactValues, phone: PhoneMatching): WantedMarker[] {
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
