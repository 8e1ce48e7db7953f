import { createHash, randomBytes } from 'node:crypto';
import type { Candidate, ChangeLogEntry, Note, Prospect, Stamped, WebhookCall } from '../domain/model';

/**
 * The table's items (docs/data-model.md): every key of the single table, and of the signing-secrets
 * table, is built here; below the keys, the items of the records that live in their own partitions,
 * their types and builders; then what sort keys are made of: time-ordered ids, the position a page
 * starts after, and the expiry (`expires_at`) of the items kept for a time.
 *
 * Partition-key prefixes carry the write policy the stack enforces with dynamodb:LeadingKeys
 * (infra/cdk/table-access.ts): each function may write only the prefixes it declares in
 * infra/cdk/route-grants.ts, and only UNIQ#, RATE#, IDEM# and PERSON# items may ever be deleted (a membership goes
 * with its member's removal: docs/adr/0013-member-sign-in.md). Prospects, candidates,
 * their notes and change logs live under prefixes no role may delete, but for one function: the purge of a deleted
 * custom field deletes that field's change-log entries (`purgedPrefixes`). Within such a partition, IAM cannot tell a
 * note or an entry from its record, so every put there is conditional on absence, and every delete of the purge on
 * the item being an entry of the purged key.
 * User-supplied strings enter a key only as a SHA-256, so their length never reaches a key limit.
 */
export const deletablePrefixes = ['UNIQ#', 'RATE#', 'IDEM#', 'PERSON#'] as const;

/**
 * Where the purge of a deleted custom field deletes (docs/adr/0016-custom-fields-storage.md): the change-log entries
 * of the purged key, in their prospects' partitions. Granted to the function that declares it
 * (`TableKeys.purgesDeletedFields`, infra/cdk/route-grants.ts) and no other.
 */
export const purgedPrefixes = ['PROSPECT#'] as const;

/**
 * Where erasing a prospect or a candidate deletes (docs/adr/0019-erasure-in-the-background.md): the record and its
 * partition (notes, change-log entries), its deliveries, its follow-up schedule and the erasure's own job. Granted to
 * the erasing functions, which declare it (`TableKeys.erasesRecords`, infra/cdk/route-grants.ts), and no other.
 */
export const erasedPrefixes = ['PROSPECT#', 'CANDIDATE#', 'DELIVERY#', 'FOLLOWUP#', 'ERASURE#'] as const;

export type ItemKey = { pk: string; sk: string };

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/**
 * The table's indexes by the access patterns they serve (docs/data-model.md, "Access patterns"): the storage modules
 * query them by these names, and the table's definition (infra/cdk/table-definition.ts) declares them from here. The
 * physical names are the deployed table's: renaming an index would delete and rebuild it.
 */
export const indexes = {
  /** Lists in creation order: a workspace's API keys, every workspace, an API key's changes. */
  listsInCreationOrder: 'gsi1',
  /** A change-log entry by its id. */
  changeLogEntryById: 'gsi2',
  /** A workspace's prospects with their phone, oldest first (phone indexing in E.164). */
  prospectPhonesOfWorkspace: 'gsi3',
  /**
   * Work waiting for a scheduled function, by time: pending deliveries by their next attempt, over 16 shards (the
   * sweep), and the workspaces with a deleted custom field to purge, by the oldest deletion (the field purge).
   */
  pendingWorkByTime: 'gsi4',
  /**
   * Records in the order of their last change, keys only: a workspace's prospects by stage (lists by last change, by
   * stage, by pipeline: docs/adr/0017-lists-of-prospects.md; the retention), and its candidates by recruitment
   * pipeline (the retention: docs/adr/0019-erasure-in-the-background.md). Their partitions never meet (`WS#…#STAGE#…`,
   * `CANDIDATES#…`), so no list of prospects reads a candidate.
   */
  recordsByLastChange: 'gsi5',
  /** A workspace's prospects with a follow-up, soonest first (lists by follow-up). */
  prospectsByFollowUp: 'gsi6',
} as const;

/**
 * Two addresses are the same contact (docs/api.md#e-mail-addresses) when equal after NFC, trimming and lower-casing
 * whatever the locale (`HÉLÈNE@EXEMPLE.FR` is `hélène@exemple.fr`, decomposed or not). The e-mail
 * markers are keyed by it, so the webhooks' matching is this comparison.
 */
export const emailKey = (email: string): string => email.normalize('NFC').trim().toLowerCase();

export const notePrefix = 'NOTE#';
export const changeLogPrefix = 'PROSPECT#LOG#';

export const workspaceConfigPk = (workspaceId: string): string => `WS#${workspaceId}`;

export const keys = {
  /**
   * A person (one e-mail, `emailKey`) across workspaces (docs/adr/0013-member-sign-in.md): sk `WS#<ws>` per membership,
   * `SIGNOUT` for the last sign-out. Read strongly consistent by the authorizer on every settings call.
   */
  personPk: (email: string): string => `PERSON#${sha256Hex(emailKey(email))}`,
  membership: (email: string, workspaceId: string): ItemKey => ({
    pk: keys.personPk(email),
    sk: workspaceConfigPk(workspaceId),
  }),
  signOut: (email: string): ItemKey => ({ pk: keys.personPk(email), sk: 'SIGNOUT' }),
  /** A session opened by `POST /session`, known by its refresh token's fingerprint. */
  session: (refreshToken: string): ItemKey => ({ pk: `SESSION#${sha256Hex(refreshToken)}`, sk: 'SESSION' }),
  /** Failed sign-ins of one e-mail in a 15-minute window (a counter: RATE#, deletable). */
  signInFailures: (email: string, windowStart: string): ItemKey => ({
    pk: `RATE#SIGNIN#${sha256Hex(emailKey(email))}#${windowStart}`,
    sk: 'RATE',
  }),
  /**
   * The audit log of a workspace (docs/api.md#audit-log): sorted by time-ordered ids, newest first when read backwards.
   */
  auditPk: (workspaceId: string): string => `AUDIT#${workspaceId}`,
  auditEntry: (workspaceId: string, entryId: string): ItemKey => ({
    pk: keys.auditPk(workspaceId),
    sk: `AUDIT#${entryId.toLowerCase()}`,
  }),
  /**
   * Where the local run's identity provider is (docs/adr/0013-member-sign-in.md): written by `npm start`, read by the
   * command line.
   */
  localIdentityProvider: (): ItemKey => ({ pk: 'IDP#LOCAL', sk: 'IDP' }),

  workspace: (workspaceId: string): ItemKey => ({ pk: workspaceConfigPk(workspaceId), sk: 'CFG#WORKSPACE' }),

  apiKey: (fingerprint: string): ItemKey => ({ pk: `APIKEY#${fingerprint}`, sk: 'APIKEY' }),
  apiKeysOfWorkspace: (workspaceId: string): string => `WS#${workspaceId}#APIKEYS`,
  /** `indexes.prospectPhonesOfWorkspace`: `WS#<ws>#PROSPECTS`, `<created_at>#<id>` (oldest first). */
  prospectsOfWorkspace: (workspaceId: string): string => `WS#${workspaceId}#PROSPECTS`,
  prospectInWorkspace: (createdAt: string, prospectId: string): string => `${createdAt}#${prospectId}`,
  /** `indexes.recordsByLastChange`: one partition per stage, `-` for a prospect without one. */
  prospectsOfStage: (workspaceId: string, stageId: string | null): string =>
    `WS#${workspaceId}#STAGE#${stageId ?? '-'}`,
  /** `indexes.recordsByLastChange`: one partition per recruitment pipeline. */
  candidatesOfPipeline: (workspaceId: string, pipelineId: string): string => `CANDIDATES#${workspaceId}#${pipelineId}`,
  /** `indexes.recordsByLastChange`'s sort key, a prospect's or a candidate's: its `updated_at` first. */
  recordByChange: (updatedAt: string, recordId: string): string => `${updatedAt}#${recordId}`,
  /** `indexes.prospectsByFollowUp`: one partition per workspace, only prospects with a follow-up. */
  prospectsByFollowUp: (workspaceId: string): string => `WS#${workspaceId}#FOLLOWUP`,
  prospectByFollowUp: (followUpAt: string, prospectId: string): string => `${followUpAt}#${prospectId}`,

  endpoint: (endpointId: string): ItemKey => ({ pk: `ENDPOINT#${endpointId}`, sk: 'ENDPOINT' }),

  prospectPk: (workspaceId: string, prospectId: string): string => `PROSPECT#${workspaceId}#${prospectId}`,
  prospect: (workspaceId: string, prospectId: string): ItemKey => ({
    pk: keys.prospectPk(workspaceId, prospectId),
    sk: 'PROSPECT',
  }),
  candidatePk: (workspaceId: string, candidateId: string): string => `CANDIDATE#${workspaceId}#${candidateId}`,
  candidate: (workspaceId: string, candidateId: string): ItemKey => ({
    pk: keys.candidatePk(workspaceId, candidateId),
    sk: 'CANDIDATE',
  }),
  /**
   * A record's partition sorts NOTE#… < PROSPECT < PROSPECT#LOG#… (docs/data-model.md, "A
   * prospect's partition"): one Query from NOTE# to PROSPECT reads the prospect and its notes, one
   * from PROSPECT to the end of PROSPECT#LOG# the prospect and its change log, so a page of either
   * also tells whether the prospect exists. Both sort by reception time.
   */
  noteSk: (createdAt: string, noteId: string): string => `${notePrefix}${createdAt}#${noteId}`,
  changeLogSk: (at: string, entryId: string): string => `${changeLogPrefix}${at}#${entryId}`,
  changeLogOfKey: (keyId: string): string => `APIKEYLOG#${keyId}`,
  changeLogEntryRef: (workspaceId: string, entryId: string): string => `LOGENTRY#${workspaceId}#${entryId}`,

  /** Uniqueness markers: one item per contact value, created with attribute_not_exists. */
  emailMarker: (workspaceId: string, email: string): ItemKey => marker(workspaceId, 'EMAIL', emailKey(email)),
  phoneMarker: (workspaceId: string, phone: string): ItemKey => marker(workspaceId, 'PHONE', phone),
  /**
   * A phone's E.164 form, for workspaces matching phones in E.164 (docs/api.md#phone-matching): a
   * kind of its own, so that turning E.164 matching off goes back to the exact markers, always kept.
   */
  phoneE164Marker: (workspaceId: string, e164: string): ItemKey => marker(workspaceId, 'PHONE164', e164),
  socialMarker: (workspaceId: string, socialUrl: string): ItemKey => marker(workspaceId, 'SOCIAL', socialUrl),
  candidateMarker: (workspaceId: string, pipelineId: string, email: string): ItemKey =>
    marker(workspaceId, `CANDIDATE#${pipelineId}`, emailKey(email)),

  /**
   * The webhook call journal of a workspace (docs/data-model.md, "Webhook call journal"): one
   * partition per workspace, sorted by the calls' time-ordered ids, newest first when read backwards.
   */
  webhookCallsPk: (workspaceId: string): string => `CALL#${workspaceId}`,
  webhookCall: (workspaceId: string, callId: string): ItemKey => ({
    pk: keys.webhookCallsPk(workspaceId),
    sk: `CALL#${callId.toLowerCase()}`,
  }),
  /**
   * How many calls of an endpoint and route were refused for their token in one minute (UTC,
   * `YYYY-MM-DDTHH:MM`): a partition of its own beside the journal, under the journal's prefix.
   */
  refusedCalls: (workspaceId: string, endpointId: string, route: string, minute: string): ItemKey => ({
    pk: `${keys.webhookCallsPk(workspaceId)}#REFUSED#${endpointId.toLowerCase()}#${route}#${minute}`,
    sk: 'REFUSED',
  }),

  /** A workspace's subscriptions sit in its configuration partition: one Query reads both (fan-out). */
  subscriptionSkPrefix: 'SUB#',
  subscription: (workspaceId: string, subscriptionId: string): ItemKey => ({
    pk: workspaceConfigPk(workspaceId),
    sk: `SUB#${subscriptionId.toLowerCase()}`,
  }),
  /**
   * A subscription's signing secrets (docs/data-model.md, "Signing secrets"): never in this table,
   * whose change stream any stream reader may read whole, but in the signing-secrets table
   * (docs/adr/0012-signing-secrets-table.md), under the subscription's own key.
   */
  signingSecrets: (workspaceId: string, subscriptionId: string): ItemKey =>
    keys.subscription(workspaceId, subscriptionId),
  /**
   * The deliveries of a workspace (docs/data-model.md, "Outbound events"): one partition, sorted by
   * the deliveries' time-ordered ids, newest first when read backwards; one is read by its id alone.
   */
  deliveriesPk: (workspaceId: string): string => `DELIVERY#${workspaceId}`,
  delivery: (workspaceId: string, deliveryId: string): ItemKey => ({
    pk: keys.deliveriesPk(workspaceId),
    sk: `DELIVERY#${deliveryId.toLowerCase()}`,
  }),

  /**
   * Index gsi4, "pending deliveries by next attempt" (docs/data-model.md, "Pending deliveries"):
   * `PENDING#<shard>`, the shard a hexadecimal digit taken from the delivery id (its last, drawn
   * from a hash: deliveries spread evenly), sorted by the next attempt's time.
   */
  pendingDeliveryShards: Array.from({ length: 16 }, (_, shard) => `PENDING#${shard.toString(16)}`),
  pendingDeliveries: (deliveryId: string): string => `PENDING#${deliveryId.toLowerCase().slice(-1)}`,
  /** ISO 8601 UTC with milliseconds, whatever form the time was written in: the sort compares strings. */
  pendingDeliveryDue: (nextAttemptAt: string): string => new Date(nextAttemptAt).toISOString(),
  /**
   * Index gsi4, "workspaces with a field purge to make" (docs/data-model.md, "The purge of a deleted field"): the
   * configuration item of a workspace holding a tombstone still `purging` is in this partition, sorted by the oldest
   * such deletion's time (ISO 8601 UTC with milliseconds, as `pendingDeliveryDue`).
   */
  fieldPurges: 'FIELDPURGE',
  fieldPurgeSince: (deletedAt: string): string => new Date(deletedAt).toISOString(),

  /**
   * A prospect's follow-up schedule (docs/data-model.md, "Follow-ups falling due"): the time its `prospect.follow_up_due`
   * waits for, kept from the change stream. In a partition of its own, not the prospect's, so that the stream handler
   * that writes it is granted nothing under `PROSPECT#`.
   */
  followUpSchedule: (workspaceId: string, prospectId: string): ItemKey => ({
    pk: `FOLLOWUP#${workspaceId}#${prospectId}`,
    sk: 'FOLLOWUP',
  }),
  /** The follow-up sweep's progress: every follow-up scheduled before `swept_to` is queued. */
  followUpClock: { pk: 'FOLLOWUP#CLOCK', sk: 'CLOCK' } satisfies ItemKey,
  /**
   * Index gsi4, "follow-ups waiting" (docs/data-model.md, "Follow-ups falling due"): 16 shards, the prospect's by a hash
   * of its id, sorted by the time (ISO 8601 UTC with milliseconds).
   */
  followUpShards: Array.from({ length: 16 }, (_, shard) => `FOLLOWUP#${shard.toString(16)}`),
  followUpShard: (prospectId: string): string => `FOLLOWUP#${sha256Hex(prospectId).slice(-1)}`,

  /**
   * An erasure under way (docs/adr/0019-erasure-in-the-background.md): the job that deletes the copies of one erased
   * prospect or candidate, in a partition of its own, deleted when every copy is gone.
   */
  erasure: (workspaceId: string, kind: 'prospect' | 'candidate', recordId: string): ItemKey => ({
    pk: `ERASURE#${workspaceId}#${kind}#${recordId}`,
    sk: 'ERASURE',
  }),
  /** Index gsi4, "erasures under way": one partition, sorted by the time of the erasure (ISO 8601 UTC). */
  erasures: 'ERASURE',
  /**
   * Index gsi4, "answers kept for a record's Idempotency-Keys": an idempotency record whose answer names a prospect or
   * a candidate is in its partition, so that the record's erasure finds and deletes it.
   */
  answersAbout: (workspaceId: string, kind: 'prospect' | 'candidate', recordId: string): string =>
    `IDEMOF#${workspaceId}#${kind}#${recordId}`,

  rateCounter: (keyId: string, windowStart: string): ItemKey => ({ pk: `RATE#${keyId}#${windowStart}`, sk: 'RATE' }),
  idempotency: (scope: string, idempotencyKey: string): ItemKey => ({
    pk: `IDEM#${sha256Hex(`${scope}\n${idempotencyKey}`)}`,
    sk: 'IDEM',
  }),
};

function marker(workspaceId: string, kind: string, value: string): ItemKey {
  return { pk: `UNIQ#${workspaceId}#${kind}#${sha256Hex(value)}`, sk: 'UNIQ' };
}

/**
 * Stored shapes of the records that live in their own partitions (see docs/data-model.md): the
 * domain's model (lib/domain/model.ts) with its keys, item type and index attributes.
 */
export type ProspectItem = Prospect & {
  pk: string;
  sk: 'PROSPECT';
  type: 'prospect';
  /** `indexes.prospectPhonesOfWorkspace`: `WS#<ws>#PROSPECTS`, `<created_at>#<id>`. */
  gsi3pk: string;
  gsi3sk: string;
  /** `indexes.recordsByLastChange`: `WS#<ws>#STAGE#<stage>`, `<updated_at>#<id>`. */
  gsi5pk: string;
  gsi5sk: string;
  /** `indexes.prospectsByFollowUp`, while a follow-up is set: `WS#<ws>#FOLLOWUP`, `<next_follow_up_at>#<id>`. */
  gsi6pk?: string;
  gsi6sk?: string;
};

export type CandidateItem = Candidate & {
  pk: string;
  sk: 'CANDIDATE';
  type: 'candidate';
  /**
   * `indexes.recordsByLastChange`: `CANDIDATES#<ws>#<pipeline>`, `<updated_at>#<id>`; absent on a candidate written
   * before the index and not reindexed yet (admin `candidate reindex`).
   */
  gsi5pk?: string;
  gsi5sk?: string;
};

/** In the prospect's (or candidate's) partition, sort key NOTE#<created_at>#<id>. */
export type NoteItem = Note & { pk: string; sk: string; type: 'note' };

/**
 * In the prospect's partition, sort key PROSPECT#LOG#<at>#<id>. `gsi1pk`/`gsi1sk` put the entry in its API key's
 * list (`indexes.listsInCreationOrder`, `APIKEYLOG#<key>`); `gsi2pk`/`gsi2sk` let an undo find it by its id alone
 * (`indexes.changeLogEntryById`, `LOGENTRY#<ws>#<id>`).
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

/**
 * Uniqueness marker (UNIQ# partition): points at the record that owns the contact value. A contact marker names the prospect owning the value. A prospect's marker also carries where the
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

/**
 * How long the journal keeps a call (docs/api.md#webhook-call-journal): 30 days, written as a literal, which bundling
 * drops where no call is journaled (a product of literals it keeps).
 */
const webhookCallRetentionSeconds = 2_592_000;

/**
 * A prospect's keys in the lists' indexes (docs/adr/0017-lists-of-prospects.md): its stage and last change; its
 * follow-up while it has one.
 */
export function listIndexKeys(
  prospect: Pick<Prospect, 'workspace_id' | 'id' | 'stage_id' | 'updated_at' | 'next_follow_up_at'>,
): Pick<ProspectItem, 'gsi5pk' | 'gsi5sk' | 'gsi6pk' | 'gsi6sk'> {
  return {
    gsi5pk: keys.prospectsOfStage(prospect.workspace_id, prospect.stage_id),
    gsi5sk: keys.recordByChange(prospect.updated_at, prospect.id),
    ...(prospect.next_follow_up_at
      ? {
          gsi6pk: keys.prospectsByFollowUp(prospect.workspace_id),
          gsi6sk: keys.prospectByFollowUp(prospect.next_follow_up_at, prospect.id),
        }
      : {}),
  };
}

/**
 * A candidate's key in `indexes.recordsByLastChange`: its recruitment pipeline and its last application
 * (`updated_at`, docs/data-model.md, "Candidate"), which the retention reads.
 */
export const candidateIndexKeys = (
  candidate: Pick<Candidate, 'workspace_id' | 'pipeline_id' | 'id' | 'updated_at'>,
): Required<Pick<CandidateItem, 'gsi5pk' | 'gsi5sk'>> => ({
  gsi5pk: keys.candidatesOfPipeline(candidate.workspace_id, candidate.pipeline_id),
  gsi5sk: keys.recordByChange(candidate.updated_at, candidate.id),
});

/** The one builder of each stored item kind: keys and item shapes are storage's alone. */
export const items = {
  prospect: (prospect: Stamped<Prospect>): ProspectItem => ({
    ...keys.prospect(prospect.workspace_id, prospect.id),
    sk: 'PROSPECT',
    type: 'prospect',
    ...prospect,
    gsi3pk: keys.prospectsOfWorkspace(prospect.workspace_id),
    gsi3sk: keys.prospectInWorkspace(prospect.created_at, prospect.id),
    ...listIndexKeys(prospect),
  }),
  candidate: (candidate: Stamped<Candidate>): CandidateItem => ({
    ...keys.candidate(candidate.workspace_id, candidate.id),
    sk: 'CANDIDATE',
    type: 'candidate',
    ...candidate,
    ...candidateIndexKeys(candidate),
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

/**
 * A UUID version 7 (RFC 9562, section 5.7): 48 bits of Unix milliseconds, then random bits, so
 * ids sort by creation time as text. Webhook calls take such ids: the journal lists them newest
 * first by sort key, and one is read back by its id alone.
 */
export function timeOrderedId(now: Date): string {
  return timeOrderedIdOf(now, randomBytes(10).toString('hex'));
}

/** The part of a time-ordered id that says its millisecond: every id of `at` or later sorts after it as text. */
export const timeOrderedIdPrefix = (at: Date): string => {
  const time = at.getTime().toString(16).padStart(12, '0').slice(-12);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}`;
};

const timeOrderedIdOf = (at: Date, hex: string): string => {
  const variant = ((parseInt(hex[3] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${timeOrderedIdPrefix(at)}-7${hex.slice(0, 3)}-${variant}${hex.slice(4, 7)}-${hex.slice(8, 20)}`;
};

/**
 * A UUID version 7 layout whose random part is derived from `seed`: the same write seen twice in
 * the change stream gives the same event id, and the same event and subscription the same delivery
 * id, so a record delivered twice by the stream is de-duplicated by a conditional put.
 */
export function derivedTimeOrderedId(at: Date, seed: string): string {
  return timeOrderedIdOf(at, createHash('sha256').update(seed, 'utf8').digest('hex'));
}

/**
 * Items kept for a time (the webhook call journal, the deliveries): their expiry, and their
 * partitions read newest first. They carry `expires_at`, the table's TTL attribute in epoch
 * seconds. TTL deletes an expired item in the background, typically within two days, and until
 * then reads, queries and scans still return it
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTimeToLive.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html): whoever
 * lists or shows them filters on it against the clock, as AWS shows in "Working with expired items"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html).
 */

/** `now` in the TTL attribute's unit. */
export const epochSeconds = (now: Date): number => Math.floor(now.getTime() / 1000);

/** An item is kept while its `expires_at` is still ahead of `now`; at that second or later it is gone. */
export const stillKept = (item: { expires_at: number }, now: Date): boolean => item.expires_at > epochSeconds(now);

/** The same rule as a Query filter (names `#expires_at`, value `:now`), with its placeholders. */
export const stillKeptFilter = (now: Date) => ({
  expression: '#expires_at > :now',
  names: { '#expires_at': 'expires_at' },
  values: { ':now': epochSeconds(now) },
});

/** Where a page starts: after the item of this reception time and id (the previous page's last). */
export type PagePosition = { at: string; id: string };

/** A page asked for: at most `limit` items, after the position the previous page ended on. */
export type PageRequest = { limit: number; after?: PagePosition };
