import type { Store } from './client';
import { putIfAbsent, transactWrite } from './conditional-writes';
import { keys, items, type ItemKey } from './table-items';
import type { Actor, ChangeLogEntry, FieldValue, Note, Stamped } from '../domain/model';

/**
 * The one update expression of a prospect record: every write raises `version` and `updated_at`
 * (undo and the change log condition on the version), stamps the `actor` who made it (the event
 * built from the change stream names it), sets the given attributes, adds or removes tags in
 * the `tag_ids` string set, and sets or removes custom fields' values in the map `fields`.
 */
export type ProspectChange = {
  /** Attribute name → new value (null clears it). */
  set: Record<string, string | null>;
  addTags?: readonly string[];
  removeTags?: readonly string[];
  fields?: CustomFieldValuesWrite;
  actor: Actor;
  now: string;
};

/**
 * Custom fields' values by key (null removes one), and whether the item read holds the map `fields`
 * (docs/adr/0016-custom-fields-storage.md). With the map, each key is set or removed alone, leaving the other keys
 * as stored. Without it, the map is set whole from the values given: DynamoDB sets no key of an absent map. The
 * version read does not prove the map is as read: the purge of a deleted field removes the whole map when that
 * field's value was its only one, without moving the version. So the write is also conditional on the map being
 * there, or absent, as read (`fieldsMapCondition`): otherwise the round is lost and decided again on a fresh read.
 */
export type CustomFieldValuesWrite = { values: Readonly<Record<string, FieldValue | null>>; mapExists: boolean };

export type UpdateParts = {
  UpdateExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
};

export function prospectUpdate(
  change: ProspectChange,
  target: Target,
  conditionValues: Record<string, unknown> = {},
): UpdateParts {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':now': change.now,
    ':one': 1,
    ':actor': change.actor,
    ':changeKey': keys.recordByChange(change.now, target.prospectId),
    ...conditionValues,
  };
  // The lists' index keys move with what they hold (docs/adr/0017-lists-of-prospects.md): the last change always, the
  // stage and the follow-up when set; a follow-up cleared takes the prospect out of the follow-up index.
  const sets = ['updated_at = :now', 'version = version + :one', 'actor = :actor', 'gsi5sk = :changeKey'];
  const removes: string[] = [];
  Object.entries(change.set).forEach(([attribute, value], index) => {
    names[`#f${index}`] = attribute;
    values[`:f${index}`] = value;
    sets.push(`#f${index} = :f${index}`);
  });
  if ('stage_id' in change.set) {
    values[':stageKey'] = keys.prospectsOfStage(target.workspaceId, change.set.stage_id ?? null);
    sets.push('gsi5pk = :stageKey');
  }
  if ('next_follow_up_at' in change.set) {
    const followUpAt = change.set.next_follow_up_at;
    if (followUpAt) {
      values[':followUps'] = keys.prospectsByFollowUp(target.workspaceId);
      values[':followUpKey'] = keys.prospectByFollowUp(followUpAt, target.prospectId);
      sets.push('gsi6pk = :followUps', 'gsi6sk = :followUpKey');
    } else {
      removes.push('gsi6pk', 'gsi6sk');
    }
  }
  if (change.fields) {
    names['#fields'] = 'fields';
    const entries = Object.entries(change.fields.values);
    if (change.fields.mapExists) {
      entries.forEach(([key, value], index) => {
        names[`#k${index}`] = key;
        if (value === null) {
          removes.push(`#fields.#k${index}`);
        } else {
          values[`:k${index}`] = value;
          sets.push(`#fields.#k${index} = :k${index}`);
        }
      });
    } else {
      values[':fields'] = Object.fromEntries(entries.filter(([, value]) => value !== null));
      sets.push('#fields = :fields');
    }
  }
  let expression = `SET ${sets.join(', ')}`;
  if (removes.length > 0) expression += ` REMOVE ${removes.join(', ')}`;
  if (change.addTags?.length) {
    expression += ' ADD tag_ids :added';
    values[':added'] = new Set(change.addTags);
  }
  if (change.removeTags?.length) {
    expression += ' DELETE tag_ids :removed';
    values[':removed'] = new Set(change.removeTags);
  }
  return {
    UpdateExpression: expression,
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
  };
}

/** The part of a change's condition that holds the map `fields` as the change was decided on (see above). */
export const fieldsMapCondition = (fields: CustomFieldValuesWrite | undefined): string =>
  fields === undefined
    ? ''
    : fields.mapExists
      ? ' AND attribute_exists(#fields)'
      : ' AND attribute_not_exists(#fields)';

type Target = { workspaceId: string; prospectId: string };

export type ProspectUpdate = ProspectChange & { expectedVersion: number };

/**
 * Another item of the same transaction: log entries to create, the entry an undo marks, or an item
 * created if absent (an undo's audit entry, built by lib/storage/audit-log.ts: this module, in the
 * Prospect API's functions, stays without the audit log).
 */
export type CompanionWrite =
  | { kind: 'create-entry'; entry: ChangeLogEntry }
  | { kind: 'mark-undone'; entry: ChangeLogEntry; at: string }
  | { kind: 'create-item'; item: ItemKey & Record<string, unknown> };

/**
 * A prospect change and its companions (log entries, or the undone entry) in one transaction,
 * conditional on the version read: a change made meanwhile by another call is never overwritten
 * unseen, and a log entry never exists without its change, or the reverse.
 */
export async function writeProspectChange(
  store: Store,
  target: Target,
  update: ProspectUpdate,
  companions: readonly CompanionWrite[],
): Promise<'written' | 'changed_meanwhile' | 'companion_refused'> {
  const outcome = await transactWrite(store, [
    {
      Update: {
        TableName: store.tableName,
        Key: keys.prospect(target.workspaceId, target.prospectId),
        ...prospectUpdate(update, target, { ':version': update.expectedVersion }),
        ConditionExpression: `version = :version${fieldsMapCondition(update.fields)}`,
      },
    },
    ...companions.map((companion) => companionWrite(store, companion)),
  ]);
  if (outcome.written) return 'written';
  // Every item past the first is a companion: a refusal not of the prospect is one of theirs.
  return outcome.failed.includes(0) ? 'changed_meanwhile' : 'companion_refused';
}

/** Where a change-log entry is stored: the key its item was written under (`items.changeLogEntry`). */
const changeLogEntryKey = (entry: ChangeLogEntry) => ({
  pk: keys.prospectPk(entry.workspace_id, entry.prospect_id),
  sk: keys.changeLogSk(entry.at, entry.id),
});

function companionWrite(store: Store, companion: CompanionWrite) {
  if (companion.kind === 'create-entry') return putIfAbsent(store, items.changeLogEntry(companion.entry));
  if (companion.kind === 'create-item') return putIfAbsent(store, companion.item);
  return {
    Update: {
      TableName: store.tableName,
      Key: changeLogEntryKey(companion.entry),
      UpdateExpression: 'SET undone_at = :at',
      ConditionExpression: 'attribute_exists(pk) AND undone_at = :notYet',
      ExpressionAttributeValues: { ':at': companion.at, ':notYet': null },
    },
  };
}

/**
 * A note and its log entry; the prospect's version rises in the same transaction (stamped with the
 * note's actor, as every prospect write is), whose condition also tells a prospect that does not
 * exist, without a read beforehand.
 */
export async function writeNote(
  store: Store,
  target: Target,
  note: Stamped<Note>,
  entry: ChangeLogEntry,
  now: string,
): Promise<'written' | 'already_written' | 'prospect_not_found'> {
  const outcome = await transactWrite(store, [
    {
      Update: {
        TableName: store.tableName,
        Key: keys.prospect(target.workspaceId, target.prospectId),
        ...prospectUpdate({ set: {}, actor: note.actor, now }, target),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    putIfAbsent(store, items.note('prospect', note)),
    companionWrite(store, { kind: 'create-entry', entry }),
  ]);
  if (outcome.written) return 'written';
  if (outcome.failed.includes(0)) return 'prospect_not_found';
  // Ids are random, or, for a request retried under its Idempotency-Key, those of its first
  // attempt: an existing note with this very key is that attempt's, which did land.
  if (outcome.failed.includes(1)) return 'already_written';
  throw outcome.cancellation;
}
