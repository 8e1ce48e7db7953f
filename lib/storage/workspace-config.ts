import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps';
import { configSkPrefix, workspaceConfigPk } from './keys';

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

/**
 * Access pattern "workspace configuration": the workspace, its members, tags and pipelines (stages
 * and columns embedded) share one partition, so one Query reads them all.
 */
export async function loadWorkspaceConfig(
  store: Pick<Deps, 'db' | 'tableName'>,
  workspaceId: string,
): Promise<WorkspaceConfig> {
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
