import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { messages } from '../messages';
import type { RetryPolicy, Store } from './client';
import { auditPut, type AuditEntry } from './audit-log';
import { membershipDelete, membershipPut, type Membership } from './memberships';
import { keys } from './table-items';
import { defaultRetryPolicy, readDecideWrite, transactWrite } from './conditional-writes';
import {
  configItemMaxBytes,
  configItems,
  configOf,
  estimatedItemBytes,
  fieldPurgeIndexOf,
  type ConfigParts,
  type WorkspaceConfigItem,
} from './workspace-config';
import type { WorkspaceConfig, WorkspaceSettingsChange } from '../domain/model';

/** The configuration of an existing workspace, as an edit receives it. */
export type ExistingWorkspaceConfig = WorkspaceConfig & { workspace: NonNullable<WorkspaceConfig['workspace']> };

/**
 * What lands in the same transaction as an edit of the configuration item (docs/adr/0013-member-sign-in.md,
 * docs/api.md#audit-log): a person's membership written or deleted with the member it mirrors, the audit entry of the
 * change. Either all of them and the edit are written, or none.
 */
export type ConfigCompanion =
  | { kind: 'put-membership'; email: string; membership: Membership }
  | { kind: 'delete-membership'; email: string; workspaceId: string }
  | { kind: 'audit'; entry: AuditEntry };

/**
 * An edit's decision: the new members, tags and pipelines (absent: the lists stay as stored, unwritten), the settings
 * it sets (each attribute given replaced, or removed when given null; the others left as stored), and what is written
 * with them.
 */
export type ConfigChange = {
  parts?: ConfigParts;
  settings?: WorkspaceSettingsChange;
  companions: readonly ConfigCompanion[];
};

/**
 * What an edit decides from the configuration it is given: the new members, tags and pipelines
 * (alone), a change with its settings and companions, or `unchanged` (nothing to write: the configuration read is the
 * answer, read strongly consistent). It may throw to refuse (nothing is written); it runs again on the
 * fresh configuration after a lost race, so it must decide from its argument only.
 */
export type ConfigEdit = (config: ExistingWorkspaceConfig) => ConfigParts | ConfigChange | 'unchanged';

export type EditedConfig = { config: ExistingWorkspaceConfig; configVersion: number };

/** The configuration item would exceed `configItemMaxBytes`: nothing was written. */
export class ConfigTooLargeError extends Error {
  override readonly name = 'ConfigTooLargeError';
  constructor(
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(messages.admin.config.tooLarge(bytes, maxBytes));
  }
}

/** Every optimistic round lost to a concurrent edit: nothing was written. */
export class ConfigEditContendedError extends Error {
  override readonly name = 'ConfigEditContendedError';
  constructor(readonly rounds: number) {
    super(messages.admin.config.contended(rounds));
  }
}

/**
 * Rounds of an edit of the configuration item. Concurrent admins are few, but a script adding tags
 * at once must settle: an edit loses a round only to another edit's success, so up to 16 edits at
 * once always settle, and the jitter spreads more (twenty at once on DynamoDB Local: 8 rounds at
 * most, in tests). Pauses are capped at a second, so a hopelessly contended edit gives up after
 * about ten seconds.
 */
export const configEditPolicy: RetryPolicy = {
  attempts: 16,
  baseDelayMs: 10,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 1000))),
};

/**
 * The attributes an edit of the lists replaces, besides the settings an edit names; every other attribute of the
 * workspace item is left as stored.
 */
const editedAttributes = ['members', 'tags', 'sales_pipelines', 'recruitment_pipelines', 'fields'] as const;

/**
 * And the index attributes derived from `fields` (`fieldPurgeIndexOf`): set while a tombstone is `purging`, removed
 * by the edit that leaves none, so the purge's list of workspaces follows the tombstones edit by edit.
 */
const purgeIndexAttributes = ['gsi4pk', 'gsi4sk'] as const;

/** The members, tags and pipelines of a configuration, as an edit returns them when it changes nothing else. */
export const partsOf = (config: WorkspaceConfig): ConfigParts => ({
  members: config.members,
  tags: config.tags,
  salesPipelines: config.salesPipelines,
  recruitmentPipelines: config.recruitmentPipelines,
  fields: config.fields,
});

type StoredConfigItem = WorkspaceConfigItem & Record<string, unknown>;

/** The configuration item read for an edit (none: no such workspace), to hand back as that edit's first read. */
export type ConfigRead = { readonly workspaceId: string; readonly stored: StoredConfigItem | undefined };

const readStoredConfig = async (store: Store, workspaceId: string): Promise<StoredConfigItem | undefined> => {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.workspace(workspaceId), ConsistentRead: true }),
  );
  return Item as StoredConfigItem | undefined;
};

/**
 * Access pattern "edit the workspace configuration", its read alone: the strongly consistent GetItem of an edit's
 * first round, for an edit that acts outside the table between its read and its write (an invitation to the
 * identity provider, lib/settings/members.ts). Passed to `editWorkspaceConfig`, it is that edit's first read: the
 * write stays conditional on the version read, so an edit made meanwhile is seen (the round is lost and decided
 * again), never overwritten; and the edit costs the same two calls.
 */
export async function readConfigForEdit(store: Store, workspaceId: string): Promise<ConfigRead> {
  return { workspaceId, stored: await readStoredConfig(store, workspaceId) };
}

/** The configuration a read holds, as an edit receives it; none for a workspace that does not exist. */
export function configOfRead(read: ConfigRead): ExistingWorkspaceConfig | undefined {
  return read.stored === undefined ? undefined : editedConfig(read.stored, versionOf(read.stored) ?? 0).config;
}

/**
 * Access pattern "edit the workspace configuration" (docs/data-model.md, "Configuration edits"):
 * optimistic concurrency on `config_version`. A strongly consistent GetItem, `edit` applied to what
 * it read, then one UpdateItem that sets the five lists (or the settings the edit names, or both) and
 * `config_version + 1`, conditional on the item existing with the version read. The update, not a PutItem, leaves
 * every other attribute as stored at the time of the write (name, `created_at`, an `endpoint_id` that `webhook
 * generate` set meanwhile without touching the version, the settings the edit does not name, any attribute to come).
 *
 * A lost race (another edit won) returns the current item with the refusal
 * (`ReturnValuesOnConditionCheckFailure`): the second round, which follows at once, applies `edit`
 * to it without another read; later rounds follow a jittered pause and read the item again. After
 * `policy.attempts` rounds, ConfigEditContendedError. An item that would exceed `configItemMaxBytes`
 * is refused with ConfigTooLargeError; an absent workspace is `workspace_missing`. Nothing is
 * written in these cases, nor when `edit` throws. `firstRead` (`readConfigForEdit`) is the first
 * round's read, made by the caller before it.
 */
export async function editWorkspaceConfig(
  store: Store,
  workspaceId: string,
  edit: ConfigEdit,
  policy: RetryPolicy = configEditPolicy,
  firstRead?: ConfigRead,
): Promise<EditedConfig | 'workspace_missing'> {
  if (firstRead !== undefined && firstRead.workspaceId !== workspaceId) {
    throw new Error(`The read given is of workspace ${firstRead.workspaceId}, not ${workspaceId}`);
  }
  type Stored = StoredConfigItem | undefined;
  return readDecideWrite<Stored, EditedItem, EditedConfig | 'workspace_missing', Stored>(
    {
      // The second round follows at once: the item refused with the first write is current. Later
      // rounds follow a pause, during which others write: they read again.
      read: async (previous) => {
        if (previous === undefined && firstRead !== undefined) return { snapshot: firstRead.stored, consistent: true };
        return previous?.round === 1 && previous.reason === 'lost-race'
          ? { snapshot: previous.learned, consistent: true }
          : { snapshot: await readStoredConfig(store, workspaceId), consistent: true };
      },
      decide: (stored) => {
        if (!stored) return { kind: 'answer', answer: 'workspace_missing' };
        const edited = editedItem(stored, edit);
        if (edited === 'unchanged') {
          return { kind: 'answer', answer: editedConfig(stored, versionOf(stored) ?? 0) };
        }
        return { kind: 'write', write: edited };
      },
      write: async (edited) => {
        const outcome = await writeEdit(store, edited);
        if ('refusedBecause' in outcome) return { kind: 'lost-race', learned: outcome.refusedBecause };
        return { kind: 'written', answer: outcome };
      },
      contended: () => new ConfigEditContendedError(policy.attempts),
    },
    { rounds: policy, conflicts: defaultRetryPolicy },
  );
}

const versionOf = (stored: StoredConfigItem): number | undefined =>
  typeof stored.config_version === 'number' ? stored.config_version : undefined;

/**
 * The item an edit makes of the item read, the version it was read with, the attributes the edit sets (besides the
 * version) and removes, and its companions.
 */
type EditedItem = {
  edited: StoredConfigItem;
  readVersion: number | undefined;
  sets: readonly string[];
  removes: readonly string[];
  companions: readonly ConfigCompanion[];
};

/** `edit` applied to the item read (it may throw to refuse); refused past the size budget. */
function editedItem(stored: StoredConfigItem, edit: ConfigEdit): EditedItem | 'unchanged' {
  const read = configOf(stored);
  const decided = edit({ ...read, workspace: read.workspace as ExistingWorkspaceConfig['workspace'] });
  if (decided === 'unchanged') return decided;
  const {
    parts,
    settings = {},
    companions,
  }: ConfigChange = 'companions' in decided ? decided : { parts: decided, companions: [] };
  const readVersion = versionOf(stored);
  const nextVersion = (readVersion ?? 0) + 1;
  const edited: StoredConfigItem = { ...stored, config_version: nextVersion };
  const sets: string[] = [];
  const removes: string[] = [];
  if (parts !== undefined) {
    const built = configItems.workspace(
      { id: stored.id, name: stored.name, created_at: stored.created_at },
      parts,
      nextVersion,
    );
    for (const attribute of editedAttributes) Object.assign(edited, { [attribute]: built[attribute] });
    for (const attribute of purgeIndexAttributes) delete edited[attribute];
    const purgeIndex = fieldPurgeIndexOf(parts.fields);
    Object.assign(edited, purgeIndex);
    sets.push(...editedAttributes);
    (purgeIndex === undefined ? removes : sets).push(...purgeIndexAttributes);
  }
  // A setting given null goes back to its default: removed, so that the item reads as one that never set it.
  for (const [attribute, value] of Object.entries(settings)) {
    if (value === null) {
      delete edited[attribute];
      removes.push(attribute);
    } else {
      Object.assign(edited, { [attribute]: value });
      sets.push(attribute);
    }
  }
  const bytes = estimatedItemBytes(edited);
  if (bytes > configItemMaxBytes) throw new ConfigTooLargeError(bytes, configItemMaxBytes);
  return { edited, readVersion, sets, removes, companions };
}

/**
 * The conditional update of the configuration item: what the edit sets (the five lists and the purge's index
 * attributes, set or removed; the settings it names, set or removed) and the next version, if the version read is
 * still stored.
 */
function configUpdate(store: Store, { edited, readVersion, sets, removes }: EditedItem) {
  const removed = removes.length === 0 ? '' : ` REMOVE ${removes.map((name) => `#${name}`).join(', ')}`;
  return {
    TableName: store.tableName,
    Key: keys.workspace(edited.id),
    UpdateExpression: `SET ${[...sets.map((name) => `#${name} = :${name}`), '#version = :next'].join(', ')}${removed}`,
    ConditionExpression:
      readVersion === undefined
        ? 'attribute_exists(pk) AND attribute_not_exists(#version)'
        : 'attribute_exists(pk) AND #version = :read',
    ExpressionAttributeNames: {
      ...Object.fromEntries([...sets, ...removes].map((name) => [`#${name}`, name])),
      '#version': 'config_version',
    },
    ExpressionAttributeValues: {
      ...Object.fromEntries(sets.map((name) => [`:${name}`, edited[name]])),
      ':next': edited.config_version,
      ...(readVersion === undefined ? {} : { ':read': readVersion }),
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
}

const companionWrite = (store: Store, companion: ConfigCompanion) => {
  switch (companion.kind) {
    case 'put-membership':
      return membershipPut(store, companion.email, companion.membership);
    case 'delete-membership':
      return membershipDelete(store, companion.email, companion.workspaceId);
    case 'audit':
      return auditPut(store, companion.entry);
  }
};

const editedConfig = (item: Record<string, unknown> | undefined, configVersion: number): EditedConfig => {
  const config = configOf(item);
  return { config: { ...config, workspace: config.workspace as ExistingWorkspaceConfig['workspace'] }, configVersion };
};

/**
 * One round: the edited item written on the condition that the version read is still stored. Alone,
 * one UpdateItem; with companions, one transaction of the same update and them, whose refusal on
 * the configuration item returns that item as the lone update's does ("TransactWriteItems",
 * `ReturnValuesOnConditionCheckFailure` of an Update action, DynamoDB API Reference:
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html). A
 * transaction cancelled for a conflict goes up as is: readDecideWrite sends it again.
 */
async function writeEdit(
  store: Store,
  edit: EditedItem,
): Promise<EditedConfig | { refusedBecause: StoredConfigItem | undefined }> {
  const nextVersion = edit.edited.config_version;
  if (edit.companions.length === 0) {
    try {
      const { Attributes } = await store.db.send(
        new UpdateCommand({ ...configUpdate(store, edit), ReturnValues: 'ALL_NEW' }),
      );
      return editedConfig(Attributes, nextVersion);
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return { refusedBecause: error.Item ? (unmarshall(error.Item) as StoredConfigItem) : undefined };
    }
  }
  const outcome = await transactWrite(store, [
    { Update: configUpdate(store, edit) },
    ...edit.companions.map((companion) => companionWrite(store, companion)),
  ]);
  if (outcome.written) return editedConfig(edit.edited, nextVersion);
  if (!outcome.failed.includes(0)) throw outcome.cancellation;
  return { refusedBecause: outcome.found(0) as StoredConfigItem | undefined };
}
