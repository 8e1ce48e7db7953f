import { ConflictError, NotFoundError, UnknownReferenceError, sameName, type RecruitmentPipeline } from '../model';
import { messages as catalogue } from '../../messages';

const messages = {
  idNotFound: catalogue.recruitment.pipelineIdNotFound,
  nameNotFound: catalogue.recruitment.pipelineNameNotFound,
  ambiguous: catalogue.recruitment.ambiguousPipeline,
  none: catalogue.recruitment.noPipeline,
  noColumn: catalogue.recruitment.noColumn,
} as const;

/**
 * Pipeline choice (docs/api.md#recruitment-pipeline-choice): `pipeline_id` wins over `pipeline`; a
 * name matches ignoring case and must designate one pipeline; without either, the default active
 * pipeline. No pipeline is ever created. A refusal (404, 409, 422) is returned as a value.
 */
export function chooseRecruitmentPipeline(
  pipelines: readonly RecruitmentPipeline[],
  request: { pipeline_id?: string | undefined; pipeline?: string | undefined },
): { pipeline: RecruitmentPipeline; columnId: string } | NotFoundError | ConflictError | UnknownReferenceError {
  const active = pipelines.filter((pipeline) => pipeline.active).sort((a, b) => a.position - b.position);
  let chosen: RecruitmentPipeline | undefined;
  if (request.pipeline_id !== undefined) {
    chosen = active.find((pipeline) => pipeline.id === request.pipeline_id);
    if (!chosen) return new NotFoundError(messages.idNotFound(request.pipeline_id));
  } else if (request.pipeline !== undefined) {
    const name = request.pipeline;
    const named = active.filter((pipeline) => sameName(pipeline.name, name));
    if (named.length === 0) return new NotFoundError(messages.nameNotFound(name));
    if (named.length > 1) return new ConflictError(messages.ambiguous(name));
    chosen = named[0];
  } else {
    chosen = active.find((pipeline) => pipeline.is_default) ?? active[0];
    if (!chosen) return new UnknownReferenceError(messages.none);
  }
  if (!chosen) return new UnknownReferenceError(messages.none);
  const firstColumn = [...chosen.columns].sort((a, b) => a.order - b.order)[0];
  if (!firstColumn) return new UnknownReferenceError(messages.noColumn(chosen.name));
  return { pipeline: chosen, columnId: firstColumn.id };
}
