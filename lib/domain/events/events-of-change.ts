import {
  derivedTimeOrderedId,
  keys,
  notePrefix,
  type ItemKey,
  type CandidateItem,
  type NoteItem,
  type ProspectItem,
} from '../../storage/table-items';
import type { StoredChange } from '../../storage/stream-records';
import type { FollowUpScheduleItem } from '../../storage/follow-up-schedule';
import { noteView, prospectReadView } from '../prospect/read-views';
import { candidateNoteView, candidateView } from '../recruitment/candidate-view';
import type { Actor, ActorKind, EventChange, EventType, OutboundEvent } from './event-types';
import { fieldChangeName, type FieldDefinition, type Tag } from '../model';
import { fieldsView } from '../fields/field-values';

/**
 * Which outbound events one stored write makes (docs/events.md): the difference between the item
 * before and after, as the change stream reports it. Ids and timestamps come from the item alone,
 * so the same record processed twice makes the same events.
 */

/**
 * What a write is about before anything is read: its workspace (proved by the item's key), the
 * types it may make, and for a note the record its event shows. The fan-out reads that record only
 * when an active subscription of the workspace wants the type.
 */
export type ChangeSubject = { workspaceId: string; types: readonly EventType[]; record?: ItemKey };

/**
 * What building the events needs besides the write: tag names, the live custom fields (a prospect's `fields`, and
 * which values' changes are shown), and the record a note event shows.
 */
export type ChangeContext = {
  tags: readonly Tag[];
  fields: readonly FieldDefinition[];
  record?: Record<string, unknown> | undefined;
};

type Classified =
  | { kind: 'prospect_created'; prospect: ProspectItem }
  | { kind: 'prospect_modified'; before: ProspectItem; prospect: ProspectItem }
  | { kind: 'prospect_note'; note: NoteItem; record: ItemKey }
  | { kind: 'follow_up_due'; schedule: SentFollowUp; record: ItemKey }
  | { kind: 'candidate_created'; candidate: CandidateItem }
  | { kind: 'candidate_application'; note: NoteItem; record: ItemKey }
  | { kind: 'erased'; erasure: ErasureItem };

export function subjectOfChange(change: StoredChange): ChangeSubject | undefined {
  const classified = classify(change);
  if (!classified) return undefined;
  switch (classified.kind) {
    case 'prospect_created':
      return { workspaceId: classified.prospect.workspace_id, types: ['prospect.created'] };
    case 'prospect_modified':
      return {
        workspaceId: classified.prospect.workspace_id,
        types: ['prospect.updated', 'prospect.tag_added', 'prospect.tag_removed'],
      };
    case 'prospect_note':
      return { workspaceId: classified.note.workspace_id, types: ['prospect.note_added'], record: classified.record };
    case 'follow_up_due':
      return {
        workspaceId: classified.schedule.workspace_id,
        types: ['prospect.follow_up_due'],
        record: classified.record,
      };
    case 'candidate_created':
      return { workspaceId: classified.candidate.workspace_id, types: ['candidate.created'] };
    case 'candidate_application':
      return {
        workspaceId: classified.note.workspace_id,
        types: ['candidate.application_received'],
        record: classified.record,
      };
    case 'erased':
      return { workspaceId: classified.erasure.workspace_id, types: [erasedType[classified.erasure.kind]] };
  }
}

const erasedType = { prospect: 'prospect.erased', candidate: 'candidate.erased' } as const;

/** The events of one write, in a fixed order; none for a write that changes nothing an event shows. */
export function eventsOfChange(change: StoredChange, context: ChangeContext): OutboundEvent[] {
  const classified = classify(change);
  if (!classified) return [];
  switch (classified.kind) {
    case 'prospect_created': {
      const { prospect } = classified;
      return [
        event(
          'prospect.created',
          prospect.workspace_id,
          prospect.updated_at,
          `${prospect.pk}#v${prospect.version}#prospect.created`,
          { prospect: prospectReadView(prospect, context.tags, context.fields), actor: actorOf(prospect) },
        ),
      ];
    }
    case 'prospect_modified':
      return modifiedProspectEvents(classified.before, classified.prospect, context);
    case 'prospect_note': {
      const { note } = classified;
      const prospect = context.record;
      if (!prospect || !isProspectItem(prospect, note.pk)) return [];
      return [
        event('prospect.note_added', note.workspace_id, note.created_at, `${note.pk}#${note.sk}`, {
          prospect: prospectReadView(prospect, context.tags, context.fields),
          note: noteView(note),
          changes: [{ field: 'note', before: null, after: note.id }],
          actor: actorOf(note),
        }),
      ];
    }
    case 'follow_up_due': {
      const { schedule } = classified;
      const prospect = context.record;
      if (!prospect || !isProspectItem(prospect, keys.prospectPk(schedule.workspace_id, schedule.id))) return [];
      const seed = `${keys.prospectPk(schedule.workspace_id, schedule.id)}#prospect.follow_up_due#${schedule.sent_for}`;
      return [
        event(
          'prospect.follow_up_due',
          schedule.workspace_id,
          schedule.sent_at,
          seed,
          {
            prospect: prospectReadView(prospect, context.tags, context.fields),
            follow_up_at: schedule.sent_for,
            late: schedule.late,
          },
          // The id from the prospect and the time alone: the same whatever sends it (docs/events.md).
          schedule.sent_for,
        ),
      ];
    }
    case 'candidate_created': {
      const { candidate } = classified;
      return [
        event('candidate.created', candidate.workspace_id, candidate.created_at, `${candidate.pk}#created`, {
          candidate: candidateView(candidate),
          actor: actorOf(candidate),
        }),
      ];
    }
    case 'candidate_application': {
      const { note } = classified;
      const candidate = context.record;
      if (!candidate || !isCandidate(candidate, note.pk)) return [];
      return [
        event('candidate.application_received', note.workspace_id, note.created_at, `${note.pk}#${note.sk}`, {
          candidate: candidateView(candidate),
          note: candidateNoteView(note),
          actor: actorOf(note),
        }),
      ];
    }
    case 'erased': {
      // The id alone (docs/events.md): the job also holds the person's contact values, which no event carries.
      const { erasure } = classified;
      const type = erasedType[erasure.kind];
      return [
        event(type, erasure.workspace_id, erasure.erased_at, `${erasure.pk}#${type}`, {
          [`${erasure.kind}_id`]: erasure.record_id,
        }),
      ];
    }
  }
}

/** A prospect's stored attribute → the field its change is named by (as in the change log, and the lead's contact fields). */
const updatedFields = [
  ['stage_id', 'stage'],
  ['setter_id', 'setter'],
  ['closer_id', 'closer'],
  ['next_follow_up_at', 'follow_up'],
  ['first_name', 'first_name'],
  ['last_name', 'last_name'],
  ['email', 'email'],
  ['phone', 'phone'],
] as const;

/**
 * A live custom field's value that changed, as answered before and after (`fields.<key>`); the values of a deleted
 * field are no change (their purge makes no event: docs/adr/0016-custom-fields-storage.md).
 */
function customFieldChanges(
  before: ProspectItem,
  after: ProspectItem,
  definitions: readonly FieldDefinition[],
): EventChange[] {
  const shownBefore = fieldsView(before.fields, definitions);
  const shownAfter = fieldsView(after.fields, definitions);
  return definitions
    .map(({ key }) => ({
      field: fieldChangeName(key),
      before: shownBefore[key] ?? null,
      after: shownAfter[key] ?? null,
    }))
    .filter((change) => JSON.stringify(change.before) !== JSON.stringify(change.after));
}

function modifiedProspectEvents(
  before: ProspectItem,
  after: ProspectItem,
  { tags, fields }: ChangeContext,
): OutboundEvent[] {
  const prospect = prospectReadView(after, tags, fields);
  const actor = actorOf(after);
  const at = after.updated_at;
  const seed = `${after.pk}#v${after.version}`;
  const events: OutboundEvent[] = [];
  const changes: EventChange[] = [
    ...updatedFields
      .map(([attribute, field]) => ({ field, before: textOf(before[attribute]), after: textOf(after[attribute]) }))
      .filter((change) => change.before !== change.after),
    ...customFieldChanges(before, after, fields),
  ];
  if (changes.length > 0) {
    events.push(
      event('prospect.updated', after.workspace_id, at, `${seed}#prospect.updated`, { prospect, changes, actor }),
    );
  }
  const tagsBefore = tagIdsOf(before);
  const tagsAfter = tagIdsOf(after);
  const names = new Map(tags.map((tag) => [tag.id, tag.name]));
  const tagEvent = (type: 'prospect.tag_added' | 'prospect.tag_removed', tagId: string) =>
    event(type, after.workspace_id, at, `${seed}#${type}#${tagId}`, {
      prospect,
      tag: { id: tagId, name: names.get(tagId) ?? null },
      changes: [
        type === 'prospect.tag_added'
          ? { field: 'tags', before: null, after: tagId }
          : { field: 'tags', before: tagId, after: null },
      ],
      actor,
    });
  for (const tagId of tagsAfter) if (!tagsBefore.includes(tagId)) events.push(tagEvent('prospect.tag_added', tagId));
  for (const tagId of tagsBefore) if (!tagsAfter.includes(tagId)) events.push(tagEvent('prospect.tag_removed', tagId));
  return events;
}

/**
 * `seed` names the event within the write (docs/adr/0010-outbound-events-from-the-change-stream.md): a record's key,
 * version and type (and tag), a note's key, a candidate's key; so two events never share an id, and one event keeps its
 * own.
 */
function event(
  type: EventType,
  workspaceId: string,
  writtenAt: string,
  seed: string,
  data: Record<string, unknown>,
  idTime: string = writtenAt,
): OutboundEvent {
  const at = new Date(writtenAt);
  const id = derivedTimeOrderedId(new Date(idTime), seed);
  return { id, workspaceId, body: { type, timestamp: at.toISOString(), data } };
}

function classify(change: StoredChange): Classified | undefined {
  const { after, before } = change;
  if (!after || change.eventName === 'REMOVE' || !hasTime(after)) return undefined;
  if (change.eventName === 'INSERT' && change.sk.startsWith(notePrefix) && isNote(after, change)) {
    const workspaceId = after.workspace_id;
    if (change.pk === keys.prospectPk(workspaceId, after.record_id)) {
      return { kind: 'prospect_note', note: after, record: keys.prospect(workspaceId, after.record_id) };
    }
    if (change.pk === keys.candidatePk(workspaceId, after.record_id) && after.application === 'again') {
      return { kind: 'candidate_application', note: after, record: keys.candidate(workspaceId, after.record_id) };
    }
    return undefined;
  }
  if (isProspectItem(after, change.pk)) {
    if (change.eventName === 'INSERT') return { kind: 'prospect_created', prospect: after };
    // Every change of a prospect raises its version; a write that leaves it where it was is no change: the purge of
    // a deleted field's value (docs/adr/0016-custom-fields-storage.md), and nothing else writes so.
    if (before && isProspectItem(before, change.pk) && before.version !== after.version)
      return { kind: 'prospect_modified', before, prospect: after };
    return undefined;
  }
  if (change.eventName === 'MODIFY' && isSentFollowUp(after, change.pk) && after.sent_for !== before?.sent_for) {
    return { kind: 'follow_up_due', schedule: after, record: keys.prospect(after.workspace_id, after.id) };
  }
  if (change.eventName === 'INSERT' && isCandidate(after, change.pk)) {
    return { kind: 'candidate_created', candidate: after };
  }
  if (change.eventName === 'INSERT' && isErasure(after, change.pk)) return { kind: 'erased', erasure: after };
  return undefined;
}

/** An erasure's job as the erasure's transaction puts it (lib/storage/erasure.ts): what its event reads of it. */
type ErasureItem = {
  pk: string;
  workspace_id: string;
  kind: 'prospect' | 'candidate';
  record_id: string;
  erased_at: string;
};

const isErasure = (item: Record<string, unknown>, pk: string): item is ErasureItem =>
  item.type === 'erasure' &&
  item.sk === 'ERASURE' &&
  typeof item.workspace_id === 'string' &&
  typeof item.record_id === 'string' &&
  (item.kind === 'prospect' || item.kind === 'candidate') &&
  pk === keys.erasure(item.workspace_id, item.kind, item.record_id).pk;

/** Recognised by key and type together: change-log entries, markers, deliveries and the rest make no event. */
export const isProspectItem = (item: Record<string, unknown>, pk: string): item is ProspectItem =>
  item.type === 'prospect' &&
  item.sk === 'PROSPECT' &&
  typeof item.workspace_id === 'string' &&
  typeof item.id === 'string' &&
  pk === keys.prospectPk(item.workspace_id, item.id);

/** A follow-up schedule marked sent (lib/storage/follow-up-schedule.ts, `markFollowUpSent`). */
type SentFollowUp = FollowUpScheduleItem & { sent_for: string; sent_at: string; late: boolean };

const isSentFollowUp = (item: Record<string, unknown>, pk: string): item is SentFollowUp =>
  item.type === 'follow_up_schedule' &&
  item.sk === 'FOLLOWUP' &&
  typeof item.workspace_id === 'string' &&
  typeof item.id === 'string' &&
  typeof item.sent_for === 'string' &&
  typeof item.sent_at === 'string' &&
  typeof item.late === 'boolean' &&
  pk === keys.followUpSchedule(item.workspace_id, item.id).pk;

const isCandidate = (item: Record<string, unknown>, pk: string): item is CandidateItem =>
  item.type === 'candidate' &&
  item.sk === 'CANDIDATE' &&
  typeof item.workspace_id === 'string' &&
  typeof item.id === 'string' &&
  pk === keys.candidatePk(item.workspace_id, item.id);

const isNote = (item: Record<string, unknown>, change: StoredChange): item is NoteItem & { application?: unknown } =>
  item.type === 'note' &&
  item.sk === change.sk &&
  typeof item.workspace_id === 'string' &&
  typeof item.record_id === 'string' &&
  typeof item.id === 'string';

/** The time of the write the event reports: a record's `updated_at`, a note's or candidate's `created_at`. */
function hasTime(item: Record<string, unknown>): boolean {
  const at =
    item.type === 'prospect'
      ? item.updated_at
      : item.type === 'follow_up_schedule'
        ? item.sent_at
        : item.type === 'erasure'
          ? item.erased_at
          : item.created_at;
  return typeof at === 'string' && !Number.isNaN(Date.parse(at));
}

const actorKinds: readonly ActorKind[] = ['api_key', 'webhook', 'undo', 'admin'];

/**
 * The writer's stamp (docs/adr/0010-outbound-events-from-the-change-stream.md), checked as read from the stream; null
 * on an item written before writers stamped one.
 */
function actorOf(item: ProspectItem | CandidateItem | NoteItem): Actor | null {
  const actor: unknown = item.actor;
  if (typeof actor !== 'object' || actor === null || !('kind' in actor) || !('id' in actor)) return null;
  const { kind, id } = actor;
  const known = actorKinds.find((candidate) => candidate === kind);
  if (known === undefined || (id !== null && typeof id !== 'string')) return null;
  // The member who undid through the settings API (docs/api.md#outbound-events); the command line's undo names none.
  const memberId = 'member_id' in actor ? actor.member_id : undefined;
  return known === 'undo' && typeof memberId === 'string'
    ? { kind: known, id, member_id: memberId }
    : { kind: known, id };
}

const textOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A string set read from the stream; sorted, so one write's events come in the same order every time. */
const tagIdsOf = (prospect: ProspectItem): string[] =>
  prospect.tag_ids instanceof Set ? [...prospect.tag_ids].sort() : [];
