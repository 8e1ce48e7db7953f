import type { Actor } from './event-records';
import { keys, type ItemKey } from './keys';

/**
 * Stored shapes of the records that live in their own partitions (see docs/data-model.md).
 * Prospects and candidates carry a `version` that every write raises: undo and the change log
 * condition on it.
 */
export type ProspectItem = {
  pk: string;
  sk: 'PROSPECT';
  type: 'prospect';
  id: string;
  workspace_id: string;
  pipeline_id: string | null;
  stage_id: string | null;
  setter_id: string | null;
  closer_id: string | null;
  next_follow_up_at: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  social_url: string | null;
  source: string | null;
  /** A DynamoDB string set: adding a present tag or removing an absent one is a no-op the condition sees. Absent when empty. */
  tag_ids?: Set<string>;
  version: number;
  created_at: string;
  updated_at: string;
  /** Who made the last write (every write sets it); absent on an item no write has touched since actors were stamped. */
  actor?: Actor;
  /** Index gsi3, "prospects of a workspace": `WS#<ws>#PROSPECTS`, `<created_at>#<id>`. */
  gsi3pk: string;
  gsi3sk: string;
};

export type CandidateItem = {
  pk: string;
  sk: 'CANDIDATE';
  type: 'candidate';
  id: string;
  workspace_id: string;
  pipeline_id: string;
  column_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  position: string | null;
  source: string;
  version: number;
  created_at: string;
  updated_at: string;
  /** The webhook endpoint that created it; absent on a candidate created before actors were stamped. */
  actor?: Actor;
};

/** In the prospect's (or candidate's) partition, sort key NOTE#<created_at>#<id>. */
export type NoteItem = {
  pk: string;
  sk: string;
  type: 'note';
  id: string;
  workspace_id: string;
  record_id: string;
  content: string;
  /** The note's date: backfilled when the caller gave a valid past one, else the reception time. */
  date: string;
  created_at: string;
  /** The API key that wrote it, or null for a webhook or the admin tool. */
  key_id: string | null;
  /** Who wrote it; absent on a note written before actors were stamped. */
  actor?: Actor;
  /**
   * A candidate's note only: written with the candidate's creation (`first`) or because a known
   * candidate applied again (`again`, which the event `candidate.application_received` tells).
   */
  application?: NoteApplication;
};

export type NoteApplication = 'first' | 'again';

export type ChangeLogField = 'stage' | 'setter' | 'closer' | 'follow_up' | 'tags' | 'note';

/**
 * In the prospect's partition, sort key PROSPECT#LOG#<at>#<id>; gsi1 lists a key's entries, gsi2 finds
 * one entry by id (admin undo).
 */
export type ChangeLogItem = {
  pk: string;
  sk: string;
  type: 'changelog';
  id: string;
  workspace_id: string;
  prospect_id: string;
  key_id: string;
  field: ChangeLogField;
  before: string | null;
  after: string | null;
  /** For a stage entry: the pipelines before and after, so an undo restores the pipeline too. */
  pipeline_before?: string | null;
  pipeline_after?: string | null;
  at: string;
  /**
   * The prospect's version right after this change: undo is refused once it moved on. Null for a
   * note entry, which is never undone (the API never deletes a note).
   */
  prospect_version: number | null;
  undone_at: string | null;
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

export type WebhookRoute = 'ingest-lead' | 'recruitment';

/** One call of a webhook, journaled for 30 days (docs/api.md#webhook-call-journal). */
export type WebhookCallItem = {
  pk: string;
  sk: string;
  type: 'webhook_call';
  id: string;
  workspace_id: string;
  endpoint_id: string;
  at: string;
  route: WebhookRoute;
  status: number;
  /** `created`, `existing`, or the error code answered. */
  outcome: string;
  record_id: string | null;
  placement: string | null;
  warnings: string[];
  request_id: string | null;
  /**
   * Kept only for an authenticated call that did not succeed: the body as received (its first
   * 64 KB, `body_truncated` when it was longer), and how to read it.
   */
  body?: string;
  body_base64?: boolean;
  body_truncated?: boolean;
  content_type?: string | null;
  /** On the entry that counts a minute's refusals past the 10th: how many it counts. Absent: 1. */
  count?: number;
  /** TTL: DynamoDB removes the entry 30 days after the call. */
  expires_at: number;
};
export type WebhookCall = Omit<WebhookCallItem, 'pk' | 'sk' | 'type' | 'expires_at'>;

/** How long the journal keeps a call (decisions 6.3). */
export const webhookCallRetentionSeconds = 30 * 24 * 3600;

/**
 * A record as the domain writes it: what it is, not where it is stored (storage adds keys). A new
 * write always names its actor, which items stored before actors were stamped lack.
 */
type Keyless<T> = Omit<T, 'pk' | 'sk' | 'type' | 'actor'> & { actor: Actor };
export type Prospect = Omit<Keyless<ProspectItem>, 'gsi3pk' | 'gsi3sk'>;
export type Candidate = Keyless<CandidateItem>;
export type Note = Keyless<NoteItem>;
export type ChangeLogEntry = Omit<ChangeLogItem, 'pk' | 'sk' | 'type' | 'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk'>;

/** The one builder of each stored item kind: keys and item shapes are storage's alone. */
export const items = {
  prospect: (prospect: Prospect): ProspectItem => ({
    ...keys.prospect(prospect.workspace_id, prospect.id),
    sk: 'PROSPECT',
    type: 'prospect',
    ...prospect,
    gsi3pk: keys.prospectsOfWorkspace(prospect.workspace_id),
    gsi3sk: keys.prospectInWorkspace(prospect.created_at, prospect.id),
  }),
  candidate: (candidate: Candidate): CandidateItem => ({
    ...keys.candidate(candidate.workspace_id, candidate.id),
    sk: 'CANDIDATE',
    type: 'candidate',
    ...candidate,
  }),
  /** Notes live in the partition of the record they are on. */
  note: (owner: 'prospect' | 'candidate', note: Note): NoteItem => ({
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
