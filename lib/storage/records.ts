import type { Candidate, ChangeLogEntry, Note, Prospect, Stamped, WebhookCall } from '../domain/model';
import { keys, type ItemKey } from './keys';

/**
 * Stored shapes of the records that live in their own partitions (see docs/data-model.md): the
 * domain's model (lib/domain/model.ts) with its keys, item type and index attributes.
 */
export type ProspectItem = Prospect & {
  pk: string;
  sk: 'PROSPECT';
  type: 'prospect';
  /** Index gsi3, "prospects of a workspace": `WS#<ws>#PROSPECTS`, `<created_at>#<id>`. */
  gsi3pk: string;
  gsi3sk: string;
};

export type CandidateItem = Candidate & { pk: string; sk: 'CANDIDATE'; type: 'candidate' };

/** In the prospect's (or candidate's) partition, sort key NOTE#<created_at>#<id>. */
export type NoteItem = Note & { pk: string; sk: string; type: 'note' };

/**
 * In the prospect's partition, sort key PROSPECT#LOG#<at>#<id>; gsi1 lists a key's entries, gsi2 finds
 * one entry by id (admin undo).
 */
export type ChangeLogItem = ChangeLogEntry & {
  pk: string;
  sk: string;
  type: 'changelog';
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk: string;
  gsi2sk: string;
};

/** Uniqueness marker (UNIQ# partition): points at the record that owns the contact value. */
/**
 * A contact marker names the prospect owning the value. A prospect's marker also carries where the
 * prospect stood when the marker was last written (`pipeline_id`, `stage_id`): a hint, never
 * trusted, which the known-contact write checks by its condition (lib/storage/leads.ts).
 */
export type MarkerItem = {
  pk: string;
  sk: 'UNIQ';
  type: 'marker';
  record_id: string;
  workspace_id: string;
  pipeline_id?: string | null;
  stage_id?: string | null;
};

/** One call of a webhook, journaled for 30 days (docs/api.md#webhook-call-journal). */
export type WebhookCallItem = WebhookCall & {
  pk: string;
  sk: string;
  type: 'webhook_call';
  /** TTL: DynamoDB removes the entry 30 days after the call. */
  expires_at: number;
};

/** How long the journal keeps a call (decisions 6.3). */
export const webhookCallRetentionSeconds = 30 * 24 * 3600;

/** The one builder of each stored item kind: keys and item shapes are storage's alone. */
export const items = {
  prospect: (prospect: Stamped<Prospect>): ProspectItem => ({
    ...keys.prospect(prospect.workspace_id, prospect.id),
    sk: 'PROSPECT',
    type: 'prospect',
    ...prospect,
    gsi3pk: keys.prospectsOfWorkspace(prospect.workspace_id),
    gsi3sk: keys.prospectInWorkspace(prospect.created_at, prospect.id),
  }),
  candidate: (candidate: Stamped<Candidate>): CandidateItem => ({
    ...keys.candidate(candidate.workspace_id, candidate.id),
    sk: 'CANDIDATE',
    type: 'candidate',
    ...candidate,
  }),
  /** Notes live in the partition of the record they are on. */
  note: (owner: 'prospect' | 'candidate', note: Stamped<Note>): NoteItem => ({
    pk:
      owner === 'prospect'
        ? keys.prospectPk(note.workspace_id, note.record_id)
        : keys.candidatePk(note.workspace_id, note.record_id),
    sk: keys.noteSk(note.created_at, note.id),
    type: 'note',
    ...note,
  }),
  changeLogEntry: (entry: ChangeLogEntry): ChangeLogItem => ({
    pk: keys.prospectPk(entry.workspace_id, entry.prospect_id),
    sk: keys.changeLogSk(entry.at, entry.id),
    type: 'changelog',
    ...entry,
    gsi1pk: keys.changeLogOfKey(entry.key_id),
    gsi1sk: `${entry.at}#${entry.id}`,
    gsi2pk: keys.changeLogEntryRef(entry.workspace_id, entry.id),
    gsi2sk: 'LOG',
  }),
  marker: (
    key: ItemKey,
    workspaceId: string,
    recordId: string,
    placement?: { pipeline_id: string | null; stage_id: string | null },
  ): MarkerItem => ({
    pk: key.pk,
    sk: 'UNIQ',
    type: 'marker',
    record_id: recordId,
    workspace_id: workspaceId,
    ...(placement ? { pipeline_id: placement.pipeline_id, stage_id: placement.stage_id } : {}),
  }),
  webhookCall: (call: WebhookCall): WebhookCallItem => ({
    ...keys.webhookCall(call.workspace_id, call.id),
    type: 'webhook_call',
    ...call,
    expires_at: Math.floor(Date.parse(call.at) / 1000) + webhookCallRetentionSeconds,
  }),
};
