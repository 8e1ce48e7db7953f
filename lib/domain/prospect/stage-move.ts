import { ProtectedStageError, UnknownReferenceError } from '../errors';
import { isProtectedStage, sameName } from '../names';
import { messages as catalogue } from '../../messages';
import type { Prospect, SalesPipeline, Stage } from '../model';

export type StageTarget = { pipelineId: string; stage: Stage };

const messages = {
  fromProtected: catalogue.prospect.inProtectedStage,
  toProtected: catalogue.prospect.toProtectedStage,
  unknown: catalogue.prospect.unknownStage,
} as const;

function stageOf(pipelines: readonly SalesPipeline[], stageId: string | null): StageTarget | undefined {
  if (stageId === null) return undefined;
  for (const pipeline of pipelines) {
    const stage = pipeline.stages.find((candidate) => candidate.id === stageId);
    if (stage) return { pipelineId: pipeline.id, stage };
  }
  return undefined;
}

/**
 * The target of a `stage` (docs/api.md#update-a-prospect): a stage id of any active pipeline of the
 * workspace (the prospect changes pipeline), or a stage name (compared as in
 * docs/api.md#names-as-references) within the prospect's current pipeline, if active. Closé and Acompte are
 * neither left nor entered through the API (409, checked before an unknown target's 422). A refusal
 * is returned as a value: the caller decides whether the read it rests on may answer.
 */
export function resolveStageMove(
  pipelines: readonly SalesPipeline[],
  prospect: Pick<Prospect, 'pipeline_id' | 'stage_id'>,
  reference: string,
): StageTarget | ProtectedStageError | UnknownReferenceError {
  const current = stageOf(pipelines, prospect.stage_id);
  if (current && isProtectedStage(current.stage))
    return new ProtectedStageError(messages.fromProtected(current.stage.name));
  // A stage of an inactive pipeline is no target, by id or by name: the prospect would vanish from
  // every board (docs/api.md#update-a-prospect).
  const targets = pipelines.filter((pipeline) => pipeline.active);
  const byId = stageOf(targets, reference.trim().toLowerCase());
  const currentPipeline = targets.find((pipeline) => pipeline.id === prospect.pipeline_id);
  const byName = currentPipeline?.stages.find((stage) => sameName(stage.name, reference));
  const target = byId ?? (byName && currentPipeline ? { pipelineId: currentPipeline.id, stage: byName } : undefined);
  if (!target) return new UnknownReferenceError(messages.unknown(reference));
  if (isProtectedStage(target.stage)) return new ProtectedStageError(messages.toProtected(target.stage.name));
  return target;
}
