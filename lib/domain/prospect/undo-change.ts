import * as z from 'zod/mini';
import type { Deps } from '../../storage/client';
import {
  ConflictError,
  NotFoundError,
  UnknownReferenceError,
  fieldChangeName,
  withFieldValues,
  type Actor,
  type ChangeLogEntry,
  type FieldDefinition,
  type Prospect,
} from '../model';
import { findChangeLogEntry } from '../../storage/changelog';
import { getProspect } from '../../storage/prospects';
import { writeProspectChange, type ProspectUpdate } from '../../storage/prospect-writes';
import { isListedChange } from './read-views';
import { messages as catalogue } from '../../messages';
import { newAuditEntry, type ActingMemberId, auditItem } from '../../storage/audit-log';

const messages = {
  unknownEntry: catalogue.changeLog.unknownEntry,
  note: catalogue.changeLog.noteNotUndone,
  alreadyUndone: catalogue.changeLog.alreadyUndone,
  moved: catalogue.changeLog.prospectMoved,
  missing: catalogue.changeLog.prospectMissing,
} as const;

/** The body of `POST /workspaces/{w}/changes/{entry}/undo`, when one is sent: an empty object (the entry says it all). */
export const undoRequestSchema = z.strictObject({});

type Reversal = Pick<ProspectUpdate, 'set' | 'addTags' | 'removeTags' | 'fields'>;

/** An id, a timestamp or a tag id, as an entry of the prospect's own field holds it. */
const textOf = (value: ChangeLogEntry['before']): string | null => (typeof value === 'string' ? value : null);

/**
 * How an entry is reverted, decided before the prospect is read (a note's entry is refused then): the field back to
 * its value before (a stage with its pipeline), given whether the prospect read holds the map of custom fields.
 */
function reversal(entry: ChangeLogEntry): (fieldsMapExists: boolean) => Reversal {
  const before = textOf(entry.before);
  const after = textOf(entry.after);
  switch (entry.field) {
    case 'stage':
      return () => ({ set: { stage_id: before, pipeline_id: entry.pipeline_before ?? null } });
    case 'setter':
      return () => ({ set: { setter_id: before } });
    case 'closer':
      return () => ({ set: { closer_id: before } });
    case 'follow_up':
      return () => ({ set: { next_follow_up_at: before } });
    case 'tags':
      if (after !== null) return () => ({ set: {}, removeTags: [after] });
      return () => ({ set: {}, addTags: before === null ? [] : [before] });
    case 'note':
      throw new UnknownReferenceError(messages.note);
    default: {
      // A custom field's value (`fields.<key>`): back to its value before, removed when it had none.
      const values = { [entry.field.slice(fieldChangeName('').length)]: entry.before };
      return (mapExists) => ({ set: {}, fields: { values, mapExists } });
    }
  }
}

/**
 * Undo (docs/api.md#undo): reverts one entry's field while the prospect's version is still the one the
 * entry left, marks the entry undone and writes no new entry, all in one transaction. Refused,
 * with nothing changed, for a note, an entry already undone, or a prospect changed since. An entry of a deleted
 * custom field is listed nowhere, hence not found (`definitions`: the workspace's live custom fields).
 */
export async function undoChange(
  deps: Pick<Deps, 'db' | 'tableName' | 'clock'>,
  workspace: { id: string; definitions: readonly FieldDefinition[] },
  entryId: string,
  actingMemberId: ActingMemberId,
): Promise<{ entry: ChangeLogEntry; prospect: Prospect }> {
  const workspaceId = workspace.id;
  const entry = await findChangeLogEntry(deps, workspaceId, entryId);
  if (!entry || !isListedChange(entry, workspace.definitions)) throw new NotFoundError(messages.unknownEntry(entryId));
  if (entry.undone_at) throw new ConflictError(messages.alreadyUndone(entry.undone_at));
  const revert = reversal(entry);
  const prospect = await getProspect(deps, workspaceId, entry.prospect_id);
  if (!prospect) throw new NotFoundError(messages.missing);
  if (entry.prospect_version === null || prospect.version !== entry.prospect_version)
    throw new ConflictError(messages.moved);
  const change = revert(prospect.fields !== undefined);

  const clock = deps.clock();
  const now = clock.toISOString();
  // The undone entry names the write (the change stream's event says which change was reverted), and the
  // member who undid through the settings API too (docs/api.md#outbound-events); the command line acts as no member.
  const actor: Actor =
    actingMemberId === null
      ? { kind: 'undo', id: entry.id }
      : { kind: 'undo', id: entry.id, member_id: actingMemberId };
  // The audit log's entry (docs/api.md#audit-log) lands with the undo, in its transaction.
  const audit = newAuditEntry(clock, {
    workspaceId,
    memberId: actingMemberId,
    action: 'change.undone',
    targetId: entry.id,
    summary: catalogue.audit.changeUndone(entry.field, prospect.id),
  });
  const outcome = await writeProspectChange(
    deps,
    { workspaceId, prospectId: prospect.id },
    { ...change, actor, expectedVersion: entry.prospect_version, now },
    [
      { kind: 'mark-undone', entry, at: now },
      { kind: 'create-item', item: auditItem(audit) },
    ],
  );
  if (outcome === 'changed_meanwhile') throw new ConflictError(messages.moved);
  if (outcome === 'companion_refused') throw new ConflictError(messages.alreadyUndone(now));
  const tags = new Set(prospect.tag_ids ?? []);
  change.addTags?.forEach((tag) => tags.add(tag));
  change.removeTags?.forEach((tag) => tags.delete(tag));
  return {
    entry: { ...entry, undone_at: now },
    prospect: {
      ...prospect,
      ...change.set,
      tag_ids: tags,
      fields: change.fields ? withFieldValues(prospect.fields, change.fields.values) : prospect.fields,
      version: prospect.version + 1,
      updated_at: now,
      actor,
    },
  };
}
