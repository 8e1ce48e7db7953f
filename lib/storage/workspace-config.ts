import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { configSkPrefix, keys, workspaceConfigPk, type ItemKey } from './keys';
import type { Store } from './client';

export type StageItem = { id: string; name: string; type: string; order: number };
export type ColumnItem = { id: string; name: string; order: number };
export type MemberItem = { type: 'member'; id: string; name: string; email: string | null };
export type TagItem = { type: 'tag'; id: string; name: string };
export type SalesPipelineItem = {
  type: 'pipeline';
  id: string;
  name: string;
  is_default: boolean;
  active: boolean;
  position: number;
  stages: StageItem[];
};
export type RecruitmentPipelineItem = {
  type: 'recruitment_pipeline';
  id: string;
  name: string;
  is_default: boolean;
  active: boolean;
  position: number;
  columns: ColumnItem[];
};
export type WorkspaceItem = { type: 'workspace'; id: string; name: string; created_at: string; endpoint_id?: string };

export type WorkspaceConfig = {
  workspace: WorkspaceItem | undefined;
  members: MemberItem[];
  tags: TagItem[];
  salesPipelines: SalesPipelineItem[];
  recruitmentPipelines: RecruitmentPipelineItem[];
};

type ConfigItem = WorkspaceItem | MemberItem | TagItem | SalesPipelineItem | RecruitmentPipelineItem;

/** A configuration record as use cases build it: what it is, not where it is stored (storage adds keys). */
type Keyless<T> = Omit<T, 'type'>;
export type Workspace = Keyless<WorkspaceItem>;
export type Member = Keyless<MemberItem>;
export type Tag = Keyless<TagItem>;
export type SalesPipeline = Keyless<SalesPipelineItem>;
export type RecruitmentPipeline = Keyless<RecruitmentPipelineItem>;
/** A configuration item as written: its record plus the table key. */
export type StoredConfigItem<T extends ConfigItem> = T & ItemKey;

/**
 * The one builder of each configuration item kind (docs/data-model.md, "Items"): every one lives
 * in its workspace's WS#<ws> partition, which members, tags and pipelines do not name themselves.
 */
export const configItems = {
  workspace: (workspace: Workspace): StoredConfigItem<WorkspaceItem> => ({
    ...keys.workspace(workspace.id),
    type: 'workspace',
    ...workspace,
  }),
  member: (workspaceId: string, member: Member): StoredConfigItem<MemberItem> => ({
    ...keys.member(workspaceId, member.id),
    type: 'member',
    ...member,
  }),
  tag: (workspaceId: string, tag: Tag): StoredConfigItem<TagItem> => ({
    ...keys.tag(workspaceId, tag.id),
    type: 'tag',
    ...tag,
  }),
  salesPipeline: (workspaceId: string, pipeline: SalesPipeline): StoredConfigItem<SalesPipelineItem> => ({
    ...keys.salesPipeline(workspaceId, pipeline.id),
    type: 'pipeline',
    ...pipeline,
  }),
  recruitmentPipeline: (
    workspaceId: string,
    pipeline: RecruitmentPipeline,
  ): StoredConfigItem<RecruitmentPipelineItem> => ({
    ...keys.recruitmentPipeline(workspaceId, pipeline.id),
    type: 'recruitment_pipeline',
    ...pipeline,
  }),
};

/**
 * Access pattern "workspace configuration": the workspace, its members, tags and pipelines (stages
 * and columns embedded) share one partition, so one Query reads them all.
 */
export async function loadWorkspaceConfig(store: Store, workspaceId: string): Promise<WorkspaceConfig> {
  const config: WorkspaceConfig = {
    workspace: undefined,
    members: [],
    tags: [],
    salesPipelines: [],
    recruitmentPipelines: [],
  };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': workspaceConfigPk(workspaceId), ':prefix': configSkPrefix },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of (page.Items ?? []) as ConfigItem[]) {
      if (item.type === 'workspace') config.workspace = item;
      else if (item.type === 'member') config.members.push(item);
      else if (item.type === 'tag') config.tags.push(item);
      else if (item.type === 'pipeline') config.salesPipelines.push(item);
      else if (item.type === 'recruitment_pipeline') config.recruitmentPipelines.push(item);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return config;
}
