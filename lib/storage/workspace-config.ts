import { GetCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { keys, type ItemKey, indexes } from './table-items';
import type { Store } from './client';
import {
  isDeletedField,
  phoneSettingsOf,
  type FieldEntry,
  type Member,
  type PhoneSettings,
  type RecruitmentPipeline,
  type SalesPipeline,
  type Tag,
  type Workspace,
  type WorkspaceConfig,
  type WorkspaceSettings,
  defaultWorkspaceSettings,
  workspaceSettingsOf,
} from '../domain/model';

/** The configuration's entries as the configuration item embeds them: the domain's, each with its `type`. */
export type MemberItem = Member & { type: 'member' };
export type TagItem = Tag & { type: 'tag' };
export type SalesPipelineItem = SalesPipeline & { type: 'pipeline' };
export type RecruitmentPipelineItem = RecruitmentPipeline & { type: 'recruitment_pipeline' };
export type WorkspaceItem = Workspace & { type: 'workspace' };

/** What a workspace's configuration item embeds besides the workspace's own attributes. */
export type ConfigParts = {
  members: readonly Member[];
  tags: readonly Tag[];
  salesPipelines: readonly SalesPipeline[];
  recruitmentPipelines: readonly RecruitmentPipeline[];
  /** The custom fields and the tombstones of deleted ones, in creation order (docs/adr/0016-custom-fields-storage.md). */
  fields: readonly FieldEntry[];
};

/**
 * The workspace's one configuration item as stored (docs/data-model.md, "Items"): the workspace
 * item `WS#<ws> / CFG#WORKSPACE` embedding members, tags and both kinds of pipelines, each entry
 * with its `type`, its settings (each absent until set: its default), and `config_version` (1 at creation, raised by
 * every edit: lib/storage/config-edits.ts).
 */
export type WorkspaceConfigItem = WorkspaceItem &
  ItemKey & {
    /** Index gsi1, "workspaces": `WORKSPACES`, `<created_at>#<id>`. */
    gsi1pk: string;
    gsi1sk: string;
    members: MemberItem[];
    tags: TagItem[];
    sales_pipelines: SalesPipelineItem[];
    recruitment_pipelines: RecruitmentPipelineItem[];
    /** Absent on an item no field edit has touched: no field. */
    fields?: FieldEntry[];
    config_version: number;
  } & Partial<WorkspaceSettings> &
  Partial<FieldPurgeIndex>;

/**
 * Index gsi4, "workspaces with a field purge to make" (docs/data-model.md, "The purge of a deleted field"): set on the
 * configuration item while one of its tombstones is `purging`, sorted by the oldest such deletion; derived from
 * `fields` by every write of the item (the builder below, every configuration edit), so it never disagrees with them.
 */
export type FieldPurgeIndex = { gsi4pk: string; gsi4sk: string };

export function fieldPurgeIndexOf(fields: readonly FieldEntry[]): FieldPurgeIndex | undefined {
  const oldest = fields
    .filter(isDeletedField)
    .filter((tombstone) => tombstone.purging === true)
    .map((tombstone) => keys.fieldPurgeSince(tombstone.deleted_at))
    .sort()[0];
  return oldest === undefined ? undefined : { gsi4pk: keys.fieldPurges, gsi4sk: oldest };
}

/**
 * DynamoDB refuses an item over 400 KB; the seed refuses a configuration whose item would exceed
 * this budget, which leaves room for later edits (docs/data-model.md, "Configuration size").
 */
export const configItemMaxBytes = 350_000;

/**
 * An upper estimate of an item's DynamoDB size: its JSON in UTF-8 (attribute names and string
 * values count their UTF-8 bytes in both; JSON's quotes, commas and braces outweigh DynamoDB's
 * per-element overhead of list and map entries).
 */
export const estimatedItemBytes = (item: object): number =>
  Buffer.byteLength(
    JSON.stringify(item, (_key, value: unknown) => (value instanceof Set ? [...value] : value)),
    'utf8',
  );

/**
 * Index gsi1 lists every workspace, oldest first (access pattern "workspaces", admin `workspace
 * list`): the configuration item carries `gsi1pk = WORKSPACES`, `gsi1sk = <created_at>#<id>`.
 * Index attributes only: configOf and the edits never read them.
 */
export const workspacesIndexPk = 'WORKSPACES';
export const workspacesIndexSk = (workspace: Pick<Workspace, 'id' | 'created_at'>): string =>
  `${workspace.created_at}#${workspace.id}`;

/**
 * What a change of the phone settings or a new endpoint is decided from: the settings, the
 * `config_version` they were read with (absent on an item no edit has touched) and the endpoint.
 */
export type PhoneSettingsState = {
  settings: PhoneSettings;
  configVersion: number | undefined;
  endpointId: string | undefined;
};

/** The phone settings state of a stored configuration item. */
export function phoneSettingsStateOf(item: Record<string, unknown>): PhoneSettingsState {
  return {
    settings: phoneSettingsOf(item),
    configVersion: typeof item.config_version === 'number' ? item.config_version : undefined,
    endpointId: typeof item.endpoint_id === 'string' ? item.endpoint_id : undefined,
  };
}

/** The one builder of the configuration item: the workspace and everything it configures. */
export const configItems = {
  workspace: (workspace: Workspace, parts: ConfigParts, configVersion = 1): WorkspaceConfigItem => ({
    ...keys.workspace(workspace.id),
    type: 'workspace',
    ...workspace,
    gsi1pk: workspacesIndexPk,
    gsi1sk: workspacesIndexSk(workspace),
    members: parts.members.map((member) => ({ type: 'member', ...member })),
    tags: parts.tags.map((tag) => ({ type: 'tag', ...tag })),
    sales_pipelines: parts.salesPipelines.map((pipeline) => ({ type: 'pipeline', ...pipeline })),
    recruitment_pipelines: parts.recruitmentPipelines.map((pipeline) => ({
      type: 'recruitment_pipeline',
      ...pipeline,
    })),
    fields: [...parts.fields],
    config_version: configVersion,
    ...fieldPurgeIndexOf(parts.fields),
  }),
};

/** The configuration of a workspace from its item (none: no such workspace, nothing configured). */
export function configOf(item: Record<string, unknown> | undefined): WorkspaceConfig {
  if (!item)
    return {
      workspace: undefined,
      settings: { ...defaultWorkspaceSettings },
      members: [],
      tags: [],
      salesPipelines: [],
      recruitmentPipelines: [],
      fields: [],
    };
  const stored = item as Partial<WorkspaceConfigItem> & WorkspaceItem;
  const { members, tags, sales_pipelines, recruitment_pipelines, fields } = stored;
  const workspace: WorkspaceItem = {
    type: 'workspace',
    id: stored.id,
    name: stored.name,
    created_at: stored.created_at,
    ...(stored.endpoint_id === undefined ? {} : { endpoint_id: stored.endpoint_id }),
  };
  return {
    workspace,
    settings: workspaceSettingsOf(item),
    members: members ?? [],
    tags: tags ?? [],
    salesPipelines: sales_pipelines ?? [],
    recruitmentPipelines: recruitment_pipelines ?? [],
    fields: fields ?? [],
  };
}

/**
 * Access pattern "workspace configuration": the workspace item embeds members, tags and
 * pipelines (stages and columns embedded), so one GetItem reads them all. Eventually consistent,
 * as the configuration changes only through the admin tool: half the read units (docs/adr/0007-fewer-round-trips.md).
 */
export async function loadWorkspaceConfig(store: Store, workspaceId: string): Promise<WorkspaceConfig> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.workspace(workspaceId) }),
  );
  return configOf(Item);
}

/**
 * Access pattern "custom fields of a workspace", for a listing of change-log entries that holds a custom field's
 * (docs/adr/0016-custom-fields-storage.md): the configuration item's `fields` alone, strongly consistent so that a
 * field deleted before the request is seen deleted. The projection saves the transfer, not read units (DynamoDB
 * counts the whole item).
 */
export async function readFieldEntries(store: Store, workspaceId: string): Promise<FieldEntry[]> {
  const { Item } = await store.db.send(
    new GetCommand({
      TableName: store.tableName,
      Key: keys.workspace(workspaceId),
      ConsistentRead: true,
      ProjectionExpression: '#fields',
      ExpressionAttributeNames: { '#fields': 'fields' },
    }),
  );
  return (Item?.fields as FieldEntry[] | undefined) ?? [];
}

/**
 * Access pattern "workspace by id": one strongly consistent GetItem on its item. A seed writes
 * that item last, so it proves the workspace exists in full.
 */
export async function getWorkspace(store: Store, workspaceId: string): Promise<WorkspaceItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.workspace(workspaceId), ConsistentRead: true }),
  );
  return Item as WorkspaceItem | undefined;
}

/** A workspace as listed: what the index projects of its configuration item, read by the admin. */
export type ListedWorkspace = Pick<WorkspaceItem, 'id' | 'name' | 'created_at'>;

/**
 * Access pattern "workspaces" (admin `workspace list`), without a Scan: Query gsi1 on `WORKSPACES`,
 * every page, oldest first (`gsi1sk = <created_at>#<id>`). The index is eventually consistent: a
 * workspace seeded a moment ago may be missing for a moment. The index projects whole items (up to
 * 350 KB of configuration each, read and counted in full page by page): only id, name and creation
 * date come back.
 */
export async function listWorkspaces(store: Store): Promise<ListedWorkspace[]> {
  const found: ListedWorkspace[] = [];
  const pages = paginateQuery(
    { client: store.db },
    {
      TableName: store.tableName,
      IndexName: indexes.listsInCreationOrder,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': workspacesIndexPk },
      ProjectionExpression: 'id, #name, created_at',
      ExpressionAttributeNames: { '#name': 'name' },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const { id, name, created_at: createdAt } = item as ListedWorkspace;
      found.push({ id, name, created_at: createdAt });
    }
  }
  return found;
}
