import { QueryCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { indexes, keys } from './table-items';
import { workspacesIndexPk } from './workspace-config';

/*
 * The workspaces' retention (docs/adr/0019-erasure-in-the-background.md, "Retention"): which workspaces set one, and
 * which of their prospects were last written before its cutoff. None of it a Scan.
 */

/** A workspace that keeps its records for `retention_months`, and the stages its prospects may stand at. */
export type RetainingWorkspace = { id: string; retentionMonths: number; stageIds: (string | null)[] };

/**
 * Access pattern "workspaces" (index gsi1, `WORKSPACES`, which projects whole configuration items), every page, those
 * with a `retention_months`: their id, retention and every stage of every sales pipeline (the inactive ones too), with
 * `null` for the prospects at none.
 */
export async function listRetainingWorkspaces(store: Store): Promise<RetainingWorkspace[]> {
  const found: RetainingWorkspace[] = [];
  const pages = paginateQuery(
    { client: store.db },
    {
      TableName: store.tableName,
      IndexName: indexes.listsInCreationOrder,
      KeyConditionExpression: 'gsi1pk = :pk',
      FilterExpression: 'attribute_exists(retention_months)',
      ExpressionAttributeValues: { ':pk': workspacesIndexPk },
      ProjectionExpression: 'id, retention_months, sales_pipelines',
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const pipelines = (item.sales_pipelines ?? []) as { stages?: { id: string }[] }[];
      const stageIds = pipelines.flatMap((pipeline) => (pipeline.stages ?? []).map((stage) => stage.id));
      found.push({
        id: item.id as string,
        retentionMonths: item.retention_months as number,
        stageIds: [...stageIds, null],
      });
    }
  }
  return found;
}

/**
 * Access pattern "prospects of a stage by last change" (index gsi5, `WS#<ws>#STAGE#<stage>`, keys only), those last
 * written before `cutoff`, oldest first: at most `limit` ids in all, stage after stage. Eventually consistent: the
 * erasure reads each prospect again, strongly, before it erases it.
 */
export async function readProspectsWrittenBefore(
  store: Store,
  workspace: RetainingWorkspace,
  cutoff: Date,
  limit: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (const stageId of workspace.stageIds) {
    if (ids.length >= limit) break;
    const { Items = [] } = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: indexes.prospectsOfStageByChange,
        KeyConditionExpression: 'gsi5pk = :stage AND gsi5sk < :cutoff',
        ExpressionAttributeValues: {
          ':stage': keys.prospectsOfStage(workspace.id, stageId),
          ':cutoff': cutoff.toISOString(),
        },
        Limit: limit - ids.length,
      }),
    );
    for (const item of Items) ids.push(String(item.gsi5sk).slice(String(item.gsi5sk).indexOf('#') + 1));
  }
  return ids;
}
