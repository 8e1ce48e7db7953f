import type { LeadInput } from './lead-input';
import type { Actor, Prospect, Stamped } from '../model';

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
