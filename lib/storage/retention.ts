import { QueryCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { Store } from './client';
import { phoneSettingsOf } from '../domain/model';
import type { ErasedKind } from './erasure';
import { indexes, keys } from './table-items';
import { workspacesIndexPk } from './workspace-config';

/*
 * The workspaces' retention (docs/adr/0019-erasure-in-the-background.md, "Retention"): which workspaces set one, and
 * which of their prospects and candidates were last written before its cutoff. None of it a Scan.
 */

/**
 * A workspace that keeps its records for `retention_months`: its phone region (what its erasures search the journal's
 * kept bodies with), and the partitions of index gsi5 its records stand in: the prospects' (every stage of every sales
 * pipeline, inactive ones too, and `-` for those at none), the candidates' (every recruitment pipeline).
 */
export type RetainingWorkspace = {
  id: string;
  retentionMonths: number;
  phoneRegion: string;
  partitions: Record<ErasedKind, string[]>;
};

/**
 * Access pattern "workspaces" (index gsi1, `WORKSPACES`, which projects whole configuration items), every page, those
 * with a `retention_months`: their id, retention, phone region and the gsi5 partitions of their prospects and
 * candidates.
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
      ProjectionExpression:
        'id, retention_months, phone_matching, phone_region, sales_pipelines, recruitment_pipelines',
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const id = item.id as string;
      const sales = (item.sales_pipelines ?? []) as { stages?: { id: string }[] }[];
      const stageIds = sales.flatMap((pipeline) => (pipeline.stages ?? []).map((stage) => stage.id));
      const recruitment = (item.recruitment_pipelines ?? []) as { id: string }[];
      found.push({
        id,
        retentionMonths: item.retention_months as number,
        phoneRegion: phoneSettingsOf(item).phone_region,
        partitions: {
          prospect: [...stageIds, null].map((stageId) => keys.prospectsOfStage(id, stageId)),
          candidate: recruitment.map((pipeline) => keys.candidatesOfPipeline(id, pipeline.id)),
        },
      });
    }
  }
  return found;
}

/**
 * Access patterns "prospects of a stage by last change" and "candidates of a recruitment pipeline by last change"
 * (index gsi5, keys only), those last written before `cutoff`, oldest first: at most `limit` ids in all, partition
 * after partition. Eventually consistent: the erasure reads each record again, strongly, before it erases it.
 */
export async function readWrittenBefore(
  store: Store,
  partitions: readonly string[],
  cutoff: Date,
  limit: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (const partition of partitions) {
    if (ids.length >= limit) break;
    const { Items = [] } = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: indexes.recordsByLastChange,
        KeyConditionExpression: 'gsi5pk = :partition AND gsi5sk < :cutoff',
        ExpressionAttributeValues: { ':partition': partition, ':cutoff': cutoff.toISOString() },
        Limit: limit - ids.length,
      }),
    );
    for (const item of Items) ids.push(String(item.gsi5sk).slice(String(item.gsi5sk).indexOf('#') + 1));
  }
  return ids;
}
