import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Store, Deps } from './client';
import { putIfAbsent } from './conditional-writes';
import { epochSeconds, stillKeptFilter, keys, type ItemKey, timeOrderedId } from './table-items';

/**
 * The audit log of a workspace (docs/api.md#audit-log; docs/data-model.md, "Members, sessions and the audit
 * log"): one partition `AUDIT#<ws>` sorted by the entries' time-ordered ids (UUID v7), read
 * backwards for newest first, kept one year by the table's TTL.
 */

/** What an entry records: the actions docs/api.md#audit-log lists, no other. */
export type AuditAction =
  | 'api_key.created'
  | 'api_key.revoked'
  | 'webhook.token_generated'
  | 'webhook.enabled'
  | 'webhook.disabled'
  | 'webhook_call.replayed'
  | 'member.invited'
  | 'member.role_changed'
  | 'member.removed'
  | 'tag.created'
  | 'tag.renamed'
  | 'field.created'
  | 'field.changed'
  | 'field.deleted'
  | 'subscription.created'
  | 'subscription.enabled'
  | 'subscription.disabled'
  | 'subscription.events_changed'
  | 'subscription.deleted'
  | 'subscription.secret_rotated'
  | 'delivery.redelivered'
  | 'change.undone'
  | 'prospect.erased'
  | 'candidate.erased'
  | 'workspace.time_zone_changed'
  | 'workspace.retention_changed'
  | 'prospect.exported'
  | 'candidate.exported';

/**
 * Names entries were written under before each of these changes had its own action: the listing reads them as today's
 * (lib/settings/audit.ts), so that it answers only the actions docs/api.md#audit-log lists.
 */
export type FormerAuditAction = 'subscription.changed' | 'workspace.changed';

/** One entry: never a secret (the summary names records, never a key, token, password or signing secret). */
export type AuditEntry = {
  id: string;
  workspace_id: string;
  at: string;
  /** The member who acted through the settings API; null for the admin command line. */
  member_id: string | null;
  action: AuditAction;
  target_id: string | null;
  summary: string;
};

export type AuditItem = AuditEntry & ItemKey & { type: 'audit'; expires_at: number };

/** An entry as the table may hold it: written by this version, or under a former name. */
export type StoredAuditEntry = Omit<AuditEntry, 'action'> & { action: AuditAction | FormerAuditAction };

/**
 * Kept one year (docs/api.md#audit-log): 365 days, in the table's TTL attribute `expires_at` (epoch seconds).
 * TTL deletes an expired item in the background, not at once: the listing filters on it, as
 * lib/storage/table-items.ts explains with AWS's pages.
 */
const auditRetentionSeconds = 31_536_000;

export const auditItem = (entry: AuditEntry): AuditItem => ({
  ...keys.auditEntry(entry.workspace_id, entry.id),
  type: 'audit',
  ...entry,
  expires_at: epochSeconds(new Date(entry.at)) + auditRetentionSeconds,
});

/** The entry as one more item of the change's own transaction: the change and its entry land together or not at all. */
export const auditPut = (store: Store, entry: AuditEntry) => putIfAbsent(store, auditItem(entry));

/**
 * An entry written on its own, right after a change that is not one transaction (docs/api.md#audit-log:
 * the entry follows the change it records). Ids are fresh UUID v7: the condition only guards against overwriting.
 */
export async function writeAuditEntry(store: Store, entry: AuditEntry): Promise<void> {
  const { Put } = auditPut(store, entry);
  await store.db.send(new PutCommand(Put));
}

/** A page of the log: at most `limit` entries older than the entry `after`; `more` says another one follows. */
export type AuditPage = { entries: StoredAuditEntry[]; more: boolean };

/**
 * Access pattern "the audit log of a workspace, newest first, by pages": one Query of `AUDIT#<ws>`
 * read backwards, strongly consistent, for `limit` entries and one more (which tells whether a next
 * page exists), without the entries past their `expires_at`. The start key is built from the
 * caller's workspace and the previous page's last id, never from the client: a position can only
 * move within this workspace's log. A filter applies after each page is read
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.FilterExpression.html),
 * and expired entries sit at the old end: pages are read on until enough are found or the log ends.
 */
export async function readAuditPage(
  store: Store,
  workspaceId: string,
  page: { limit: number; afterId?: string | undefined; now: Date },
): Promise<AuditPage> {
  const kept = stillKeptFilter(page.now);
  const wanted = page.limit + 1;
  const found: StoredAuditEntry[] = [];
  let startKey: Record<string, unknown> | undefined = page.afterId
    ? keys.auditEntry(workspaceId, page.afterId)
    : undefined;
  do {
    const result = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: kept.expression,
        ExpressionAttributeNames: kept.names,
        ExpressionAttributeValues: { ':pk': keys.auditPk(workspaceId), ...kept.values },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: wanted - found.length,
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...((result.Items ?? []) as StoredAuditEntry[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey !== undefined && found.length < wanted);
  return { entries: found.slice(0, page.limit).map(entryOf), more: found.length > page.limit };
}

const entryOf = (item: StoredAuditEntry): StoredAuditEntry => ({
  id: item.id,
  workspace_id: item.workspace_id,
  at: item.at,
  member_id: item.member_id,
  action: item.action,
  target_id: item.target_id,
  summary: item.summary,
});

/**
 * Who made a change the audit log records (docs/api.md#audit-log): the member signed in to the settings
 * API, or the platform team's admin command line (`null`).
 */
export type ActingMemberId = string | null;

/** The command line acts as no member. */
export const commandLine: ActingMemberId = null;

/** What an audit entry records: in which workspace, who did what to which record, said how. */
export type AuditRecord = {
  workspaceId: string;
  memberId: ActingMemberId;
  action: AuditAction;
  targetId: string | null;
  summary: string;
};

/**
 * A new audit entry, its id a UUID v7 of its time (lib/storage/table-items.ts), so the log sorts newest first by
 * sort key as the webhook call journal does. `summary` comes from the catalogue's `audit` texts,
 * which name records and never a secret.
 */
export function newAuditEntry(now: Date, entry: AuditRecord): AuditEntry {
  return {
    id: timeOrderedId(now),
    workspace_id: entry.workspaceId,
    at: now.toISOString(),
    member_id: entry.memberId,
    action: entry.action,
    target_id: entry.targetId,
    summary: entry.summary,
  };
}

/**
 * The entry of a change that is not one transaction, written right after it (docs/api.md#audit-log): a
 * change the entry could not join, or a call of the webhook's own handler (a replay).
 */
export async function recordAudit(deps: Pick<Deps, 'db' | 'tableName' | 'clock'>, entry: AuditRecord): Promise<void> {
  await writeAuditEntry(deps, newAuditEntry(deps.clock(), entry));
}
