import type { Store } from './client';
import { keys, type ItemKey, items, type MarkerItem, type ProspectItem } from './table-items';
import { fieldsMapCondition, prospectUpdate, type ProspectChange } from './prospect-writes';
import { putIfAbsent, transactWrite, type TransactItems } from './conditional-writes';
import { journalEntryPut } from './webhook-calls';
import { markerKeys, type PhoneMatching, type Placement } from './prospects';
import { type Actor, type FieldValues, type Prospect, type Stamped, type WebhookCall } from '../domain/model';

type TransactItem = TransactItems[number];

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
  /**
   * Custom field values to set, by key, as answered: only on the version read (`updateKnownProspectContacts`), which
   * knows whether the prospect has a `fields` map to set them in.
   */
  fields?: FieldValues;
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
  | { kind: 'updated' }
  | { kind: 'unchanged' }
  | { kind: 'placed_elsewhere'; placement: Placement }
  | { kind: 'changed_meanwhile' };

/**
 * What a known contact's update would leave as it is: each value it sets already stored, each tag it adds already
 * carried. A condition expression, with its names and values.
 */
function unchangedCondition(change: ProspectChange) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const terms = Object.entries(change.set).map(([attribute, value], index) => {
    names[`#u${index}`] = attribute;
    values[`:u${index}`] = value;
    return `#u${index} = :u${index}`;
  });
  (change.addTags ?? []).forEach((tagId, index) => {
    values[`:t${index}`] = tagId;
    terms.push(`contains(tag_ids, :t${index})`);
  });
  return { terms, names, values };
}

/**
 * A known contact whose markers stay as they are, with the call's journal entry, and the answer's placement, which a
 * transaction cannot return: every write is conditional on the placement `expected` (the matched marker's hint), so a
 * success proves it, and a prospect placed elsewhere comes back with the refusal (`ReturnValuesOnConditionCheckFailure`):
 * the caller writes again expecting that placement and `refresh`es the marker's hint in the same transaction. So a
 * known contact stays one write (docs/adr/0008-webhook-call-journal.md), and a hint can never make an answer wrong.
 *
 * A match that changes nothing is no change of the prospect (docs/api.md#lists-of-prospects: its `updated_at` does not
 * move): the first transaction only checks that the prospect already holds what the lead would set, beside the
 * journal entry. When it does not, the prospect the refusal returned is changed on its version, the entry with it:
 * one more round trip, only for a lead that changes something.
 */
export async function updateKnownProspect(
  store: Store,
  target: { workspaceId: string; prospectId: string; marker: ItemKey },
  update: Omit<KnownContactUpdate, 'fields'>,
  placement: { expected: Placement; refresh: boolean },
  journal: WebhookCall,
): Promise<KnownContactWrite> {
  const { expected } = placement;
  const key = keys.prospect(target.workspaceId, target.prospectId);
  const change = knownContactChange(update);
  const unchanged = unchangedCondition(change);
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
  const companions = [journalEntryPut(store, journal), ...(placement.refresh ? [markerRefresh] : [])];
  const checked = await transactWrite(store, [
    {
      ConditionCheck: {
        TableName: store.tableName,
        Key: key,
        ConditionExpression: [
          'attribute_exists(pk)',
          '#pipeline = :pipeline',
          '#stage = :stage',
          ...unchanged.terms,
        ].join(' AND '),
        ExpressionAttributeNames: { ...unchanged.names, '#pipeline': 'pipeline_id', '#stage': 'stage_id' },
        ExpressionAttributeValues: {
          ...unchanged.values,
          ':pipeline': expected.pipeline_id,
          ':stage': expected.stage_id,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    ...companions,
  ]);
  if (checked.written) return { kind: 'unchanged' };
  const stored = checked.failed[0] === 0 ? (checked.found(0) as ProspectItem | undefined) : undefined;
  if (!stored) return { kind: 'changed_meanwhile' };
  const storedPlacement = { pipeline_id: stored.pipeline_id ?? null, stage_id: stored.stage_id ?? null };
  if (storedPlacement.pipeline_id !== expected.pipeline_id || storedPlacement.stage_id !== expected.stage_id) {
    return { kind: 'placed_elsewhere', placement: storedPlacement };
  }
  // Something the lead sets differs: the change, on the version the refusal showed (placement included).
  const written = await transactWrite(store, [
    {
      Update: {
        TableName: store.tableName,
        Key: key,
        ...prospectUpdate(change, target, { ':version': stored.version }),
        ConditionExpression: 'version = :version',
      },
    },
    ...companions,
  ]);
  return written.written ? { kind: 'updated' } : { kind: 'changed_meanwhile' };
}

/**
 * A known contact written on the version read: one that takes a new e-mail or phone, or custom
 * field values (`prospectUpdate`'s `fields`): the record (conditional on the version read), the new markers
 * (created only if absent) and the release of the old ones, in one transaction.
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
  // The values each set in the map the prospect read has, or the map set whole when it had none
  // (docs/adr/0016-custom-fields-storage.md), the condition holding the map as read (`fieldsMapCondition`).
  const values = written.fields ?? {};
  const fields = Object.keys(values).length === 0 ? undefined : { values, mapExists: prospect.fields !== undefined };
  const record = prospectUpdate(
    { ...knownContactChange(written), ...(fields ? { fields } : {}) },
    { workspaceId: prospect.workspace_id, prospectId: prospect.id },
    { ':version': prospect.version },
  );
  const send = (withOptional: boolean) => {
    const extra = e164Writes.filter((write) => withOptional || !write.optional).map((write) => write.item);
    return transactWrite(store, [
      {
        Update: {
          TableName: store.tableName,
          Key: keys.prospect(prospect.workspace_id, prospect.id),
          ...record,
          ConditionExpression: `version = :version${fieldsMapCondition(fields)}`,
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
