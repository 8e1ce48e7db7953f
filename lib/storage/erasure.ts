import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { auditItem, type AuditEntry } from './audit-log';
import { putIfAbsent, transactWrite, type TransactItems } from './conditional-writes';
import { indexes, keys, type ItemKey } from './table-items';

/*
 * Erasure (docs/adr/0019-erasure-in-the-background.md; docs/data-model.md, "Erasure"): the transaction that erases a
 * prospect or a candidate at once (the record, its contact markers, its follow-up schedule) and leaves the job that
 * deletes the other copies; then the job's own access patterns, each a bounded page that a later run repeats or goes
 * on from. Every delete here is of an erased record's copies, conditional where another writer could meanwhile have
 * given the key to someone else.
 */

export type ErasedKind = 'prospect' | 'candidate';

/**
 * Where a job stands: the record's partition (notes, change log), the answers kept for its Idempotency-Keys, the
 * webhook journal, the deliveries, in that order.
 */
export type ErasureStep = 'records' | 'answers' | 'calls' | 'deliveries';

/** The contact values the journal's kept bodies are searched for; gone with the job. */
export type ErasedContacts = {
  emails: string[];
  /** As stored, and in E.164 when it reads as one. */
  phones: string[];
  /** The workspace's phone region: national numbers of a kept body are read in it. */
  phone_region: string;
};

export type Erasure = {
  workspace_id: string;
  kind: ErasedKind;
  record_id: string;
  erased_at: string;
  /** The member who erased it through the settings API; null for the command line and the retention. */
  member_id: string | null;
  contacts: ErasedContacts;
  step: ErasureStep;
  /** Where the step's walk of a partition stopped (its last evaluated key), absent at the step's start. */
  resume?: ItemKey;
};

type ErasureItem = Erasure & ItemKey & { type: 'erasure'; gsi4pk: string; gsi4sk: string };

export const erasureKey = (job: Pick<Erasure, 'workspace_id' | 'kind' | 'record_id'>): ItemKey =>
  keys.erasure(job.workspace_id, job.kind, job.record_id);

const recordKey = (job: Pick<Erasure, 'workspace_id' | 'kind' | 'record_id'>): ItemKey =>
  job.kind === 'prospect'
    ? keys.prospect(job.workspace_id, job.record_id)
    : keys.candidate(job.workspace_id, job.record_id);

/** The record to erase as stored, strongly consistent (undefined: unknown, or erased already). */
export async function readRecord(
  store: Store,
  workspaceId: string,
  kind: ErasedKind,
  recordId: string,
): Promise<Record<string, unknown> | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({
      TableName: store.tableName,
      Key: recordKey({ workspace_id: workspaceId, kind, record_id: recordId }),
      ConsistentRead: true,
    }),
  );
  return Item;
}

/** The contact values a record holds, as stored. */
export type ContactValues = {
  email?: string | null;
  phone?: string | null;
  social_url?: string | null;
  pipeline_id?: string;
};

/**
 * The contact markers that may name the record (docs/data-model.md, "Contact marker", "Candidate marker"): a
 * prospect's e-mail, phone as sent, phone in E.164 (`e164`, when it reads as one in the workspace's region) and social
 * profile; a candidate's e-mail in its recruitment pipeline.
 */
export function contactMarkers(
  workspaceId: string,
  kind: ErasedKind,
  contact: ContactValues,
  e164: string | undefined,
): ItemKey[] {
  if (kind === 'candidate') {
    return contact.email && contact.pipeline_id
      ? [keys.candidateMarker(workspaceId, contact.pipeline_id, contact.email)]
      : [];
  }
  return [
    ...(contact.email ? [keys.emailMarker(workspaceId, contact.email)] : []),
    ...(contact.phone ? [keys.phoneMarker(workspaceId, contact.phone)] : []),
    ...(e164 ? [keys.phoneE164Marker(workspaceId, e164)] : []),
    ...(contact.social_url ? [keys.socialMarker(workspaceId, contact.social_url)] : []),
  ];
}

/** What erasing a record deletes at once, beside the record itself, and writes with it. */
export type ErasurePlan = {
  job: Erasure;
  /** The record's `version` as read: a write since refuses the erasure, which is then decided again. */
  version: number;
  /** The contact markers the record owns (each deleted only while it still names the record). */
  markers: readonly ItemKey[];
  /** Answers kept for its Idempotency-Keys, found in the index: deleted at once, so none is replayed. */
  answers: readonly ItemKey[];
  audit: AuditEntry;
};

export type ErasureOutcome = 'erased' | 'changed_meanwhile' | { markerTaken: ItemKey };

/**
 * Access pattern "erase a record" (one TransactWriteItems): the record deleted if its version is the one read, each
 * contact marker deleted if it is absent or still names the record, a prospect's follow-up schedule deleted (its
 * pending event with it), the job put (absent: an erasure already under way refuses), the audit entry put. From then
 * on the record is not found, its contact is free for a new lead, and nothing is left of it that a read route shows
 * but the copies the job deletes.
 */
export async function eraseRecord(store: Store, plan: ErasurePlan): Promise<ErasureOutcome> {
  const { job } = plan;
  const item: ErasureItem = {
    ...erasureKey(job),
    type: 'erasure',
    ...job,
    gsi4pk: keys.erasures,
    gsi4sk: new Date(job.erased_at).toISOString(),
  };
  const markerDeletes: TransactItems = plan.markers.map((key) => ({
    Delete: {
      TableName: store.tableName,
      Key: key,
      ConditionExpression: 'attribute_not_exists(pk) OR record_id = :record',
      ExpressionAttributeValues: { ':record': job.record_id },
    },
  }));
  const transaction: TransactItems = [
    {
      Delete: {
        TableName: store.tableName,
        Key: recordKey(job),
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': plan.version },
      },
    },
    ...markerDeletes,
    ...plan.answers.map((key) => ({ Delete: { TableName: store.tableName, Key: key } })),
    ...(job.kind === 'prospect'
      ? [{ Delete: { TableName: store.tableName, Key: keys.followUpSchedule(job.workspace_id, job.record_id) } }]
      : []),
    putIfAbsent(store, item),
    putIfAbsent(store, auditItem(plan.audit)),
  ];
  const outcome = await transactWrite(store, transaction);
  if (outcome.written) return 'erased';
  const marker = outcome.failed.find((index) => index >= 1 && index <= plan.markers.length);
  if (marker !== undefined) return { markerTaken: plan.markers[marker - 1] as ItemKey };
  return 'changed_meanwhile';
}

/**
 * Access pattern "erasures under way" (index gsi4, partition `ERASURE`): the keys of the jobs of records erased at
 * `before` or earlier, oldest first, at most `limit`. Eventually consistent: a job just finished may still be listed,
 * and `readErasure` then finds none.
 */
export async function listErasures(store: Store, before: Date, limit: number): Promise<ItemKey[]> {
  const { Items = [] } = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: indexes.pendingWorkByTime,
      KeyConditionExpression: 'gsi4pk = :erasures AND gsi4sk <= :before',
      ExpressionAttributeValues: { ':erasures': keys.erasures, ':before': before.toISOString() },
      ProjectionExpression: 'pk, sk',
      Limit: limit,
    }),
  );
  return Items.map((item) => ({ pk: item.pk as string, sk: item.sk as string }));
}

/** The job, strongly consistent (its progress as last recorded); undefined once finished. */
export async function readErasure(store: Store, key: ItemKey): Promise<Erasure | undefined> {
  const { Item } = await store.db.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true }));
  return Item as ErasureItem | undefined;
}

/**
 * Records where the job stands, on the condition that it still stands where it was read: two runs on one job (an
 * overlap) cannot move it back. False when that condition failed.
 */
export async function recordErasureProgress(
  store: Store,
  job: Erasure,
  next: Pick<Erasure, 'step' | 'resume'>,
): Promise<boolean> {
  return refusedAsFalse(
    store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: erasureKey(job),
        UpdateExpression: next.resume ? 'SET #step = :step, #resume = :resume' : 'SET #step = :step REMOVE #resume',
        ConditionExpression: job.resume
          ? '#step = :was AND #resume = :wasResume'
          : '#step = :was AND attribute_not_exists(#resume)',
        ExpressionAttributeNames: { '#step': 'step', '#resume': 'resume' },
        ExpressionAttributeValues: {
          ':step': next.step,
          ':was': job.step,
          ...(next.resume ? { ':resume': next.resume } : {}),
          ...(job.resume ? { ':wasResume': job.resume } : {}),
        },
      }),
    ),
  );
}

/** The end of a job: deleted with the contact values it held. */
export async function finishErasure(store: Store, job: Erasure): Promise<void> {
  await store.db.send(new DeleteCommand({ TableName: store.tableName, Key: erasureKey(job) }));
}

/** A page of items: their keys and attributes as read, and where the next page starts (none: the last page). */
export type ItemsPage = { items: Record<string, unknown>[]; next?: ItemKey };

/**
 * Access pattern "a record's partition" (`PROSPECT#<ws>#<id>` or `CANDIDATE#<ws>#<id>`: its notes and change-log
 * entries, the record itself being deleted already): the keys of at most `limit` items, strongly consistent.
 */
export async function readRecordPartition(store: Store, job: Erasure, limit: number): Promise<ItemKey[]> {
  const { Items = [] } = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': recordKey(job).pk },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return Items.map((item) => ({ pk: item.pk as string, sk: item.sk as string }));
}

/**
 * Access pattern "answers kept for a record's Idempotency-Keys" (index gsi4, `IDEMOF#<ws>#<kind>#<id>`): their keys,
 * at most `limit`.
 */
export async function readAnswersAbout(
  store: Store,
  job: Pick<Erasure, 'workspace_id' | 'kind' | 'record_id'>,
  limit: number,
): Promise<ItemKey[]> {
  const { Items = [] } = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: indexes.pendingWorkByTime,
      KeyConditionExpression: 'gsi4pk = :answers',
      ExpressionAttributeValues: { ':answers': keys.answersAbout(job.workspace_id, job.kind, job.record_id) },
      ProjectionExpression: 'pk, sk',
      Limit: limit,
    }),
  );
  return Items.map((item) => ({ pk: item.pk as string, sk: item.sk as string }));
}

/**
 * Access patterns "the workspace's journal" (`CALL#<ws>`) and "the workspace's deliveries" (`DELIVERY#<ws>`), walked
 * page by page from `resume`: every item kept there (30 days at most), strongly consistent; the caller (an erasure's
 * job, an export: ./copies-of-person.ts) decides which are the record's copies.
 */
export async function readWorkspacePage(
  store: Store,
  partition: 'calls' | 'deliveries',
  job: Pick<Erasure, 'workspace_id' | 'resume'>,
  limit: number,
): Promise<ItemsPage> {
  const pk = partition === 'calls' ? keys.webhookCallsPk(job.workspace_id) : keys.deliveriesPk(job.workspace_id);
  const { Items = [], LastEvaluatedKey } = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
      Limit: limit,
      ...(job.resume ? { ExclusiveStartKey: job.resume } : {}),
    }),
  );
  return { items: Items, ...(LastEvaluatedKey ? { next: LastEvaluatedKey as ItemKey } : {}) };
}

/** Deletes one copy (a note, an entry, a kept answer, a delivery, a schedule); one already gone is no error. */
export async function deleteCopy(store: Store, key: ItemKey): Promise<void> {
  await store.db.send(new DeleteCommand({ TableName: store.tableName, Key: key }));
}

/** A prospect's follow-up schedule, which a write made just before its erasure may have set again since. */
export async function deleteFollowUpScheduleOf(store: Store, job: Erasure): Promise<void> {
  if (job.kind === 'prospect') await deleteCopy(store, keys.followUpSchedule(job.workspace_id, job.record_id));
}

/**
 * What the erasure removes of one journaled call: `record_id` while it still names the record (the call stays, without
 * it), and the kept body of a failed call that carries the person's e-mail or phone. Conditional on the call still
 * being kept, so that an entry TTL has just deleted is not written back.
 */
export async function clearCall(
  store: Store,
  key: ItemKey,
  clear: { recordId?: string; body: boolean },
): Promise<void> {
  const removed = [
    ...(clear.recordId ? ['record_id'] : []),
    ...(clear.body ? ['body', 'body_base64', 'body_truncated', 'content_type'] : []),
  ];
  if (removed.length === 0) return;
  await refusedAsFalse(
    store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: key,
        UpdateExpression: `REMOVE ${removed.join(', ')}`,
        ConditionExpression: clear.recordId ? 'record_id = :record' : 'attribute_exists(pk)',
        ...(clear.recordId ? { ExpressionAttributeValues: { ':record': clear.recordId } } : {}),
      }),
    ),
  );
}

async function refusedAsFalse(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
