import type { WorkspaceConfig } from './model';

export type PipelineListing = {
  pipelines: {
    id: string;
    name: string;
    is_default: boolean;
    stages: { id: string; name: string; type: string; order: number }[];
  }[];
  tags: { id: string; name: string }[];
};

/** GET /pipelines (docs/api.md#list-pipelines): the active sales pipelines, stages in board order, and the tags. */
export function listActivePipelines(config: WorkspaceConfig): PipelineListing {
  return {
    pipelines: config.salesPipelines
      .filter((pipeline) => pipeline.active)
      .sort((a, b) => a.position - b.position)
      .map((pipeline) => ({
        id: pipeline.id,
        name: pipeline.name,
        is_default: pipeline.is_default,
        stages: [...pipeline.stages]
          .sort((a, b) => a.order - b.order)
          .map((stage) => ({ id: stage.id, name: stage.name, type: stage.type, order: stage.order })),
      })),
    tags: [...config.tags]
      .sort((a, b) => a.name.localeCompare(b.name, 'fr'))
      .map((tag) => ({ id: tag.id, name: tag.name })),
  };
}
