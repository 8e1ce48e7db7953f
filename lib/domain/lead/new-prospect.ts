import { findByIdOrName, isProtectedStage } from '../model';
import { messages } from '../../messages';
import type { LeadInput } from './lead-input';
import type { Actor, Prospect, SalesPipeline, Stage, Stamped } from '../model';

export type PlacementKind = 'demande' | 'defaut' | 'aucun';

export type Placement = {
  kind: PlacementKind;
  pipelineId: string | null;
  stageId: string | null;
  warnings: string[];
};

const warningsText = messages.lead;

/** The active pipeline marked default; failing that, the first active one. */
export function defaultPipeline(pipelines: readonly SalesPipeline[]): SalesPipeline | undefined {
  const active = activePipelines(pipelines);
  return active.find((pipeline) => pipeline.is_default) ?? active[0];
}

function activePipelines(pipelines: readonly SalesPipeline[]): SalesPipeline[] {
  return pipelines.filter((pipeline) => pipeline.active).sort((a, b) => a.position - b.position);
}

const firstStage = (pipeline: SalesPipeline): Stage | undefined =>
  [...pipeline.stages].sort((a, b) => a.order - b.order)[0];

/**
 * Where a new contact lands (docs/api.md#lead-placement): a requested pipeline and stage are honoured when
 * found; anything requested but not found sends the lead to the default pipeline's first stage
 * with a warning; a stage requested without a pipeline is looked up in the default pipeline.
 * The protected stages (Closé, Acompte) are never a lead's arrival stage.
 */
export function placeNewLead(
  pipelines: readonly SalesPipeline[],
  request: { pipeline?: string | undefined; stage?: string | undefined },
): Placement {
  const fallback = defaultPipeline(pipelines);
  if (!fallback) {
    const requested = request.pipeline !== undefined || request.stage !== undefined;
    return { kind: 'aucun', pipelineId: null, stageId: null, warnings: requested ? [warningsText.noPipeline] : [] };
  }
  const atDefault = (warnings: string[]): Placement => ({
    kind: 'defaut',
    pipelineId: fallback.id,
    stageId: firstStage(fallback)?.id ?? null,
    warnings,
  });

  let pipeline = fallback;
  if (request.pipeline !== undefined) {
    const found = findByIdOrName(activePipelines(pipelines), request.pipeline);
    if (!found) return atDefault([warningsText.pipelineNotFound(request.pipeline)]);
    pipeline = found;
  }
  if (request.stage === undefined) {
    if (request.pipeline === undefined) return atDefault([]);
    return { kind: 'demande', pipelineId: pipeline.id, stageId: firstStage(pipeline)?.id ?? null, warnings: [] };
  }
  const stage = findByIdOrName(pipeline.stages, request.stage);
  if (!stage) return atDefault([warningsText.stageNotFound(request.stage, pipeline.name)]);
  if (isProtectedStage(stage)) return atDefault([warningsText.protectedStage(stage.name)]);
  return { kind: 'demande', pipelineId: pipeline.id, stageId: stage.id, warnings: [] };
}

/** A new prospect record as the lead webhook creates it: version 1, no setter, closer or follow-up. */
export function newProspect(
  id: string,
  workspaceId: string,
  lead: LeadInput,
  placement: { pipelineId: string | null; stageId: string | null },
  tagIds: readonly string[],
  actor: Actor,
  now: string,
): Stamped<Prospect> {
  return {
    id,
    workspace_id: workspaceId,
    pipeline_id: placement.pipelineId,
    stage_id: placement.stageId,
    setter_id: null,
    closer_id: null,
    next_follow_up_at: null,
    first_name: lead.first_name ?? null,
    last_name: lead.last_name ?? null,
    email: lead.email ?? null,
    phone: lead.phone ?? null,
    social_url: lead.social_url ?? null,
    source: lead.source ?? null,
    ...(tagIds.length > 0 ? { tag_ids: new Set(tagIds) } : {}),
    version: 1,
    created_at: now,
    updated_at: now,
    actor,
  };
}
