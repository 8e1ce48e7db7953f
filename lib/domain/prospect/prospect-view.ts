import type { Prospect } from '../model';

export type ProspectPatchView = {
  id: string;
  pipeline_id: string | null;
  stage_id: string | null;
  setter_id: string | null;
  closer_id: string | null;
  next_follow_up_at: string | null;
};

/**
 * The PATCH answer (docs/api.md#update-a-prospect); `pipeline_id` and `stage_id` stay null for a
 * prospect on no board.
 */
export const prospectPatchView = (prospect: Prospect): ProspectPatchView => ({
  id: prospect.id,
  pipeline_id: prospect.pipeline_id,
  stage_id: prospect.stage_id,
  setter_id: prospect.setter_id,
  closer_id: prospect.closer_id,
  next_follow_up_at: prospect.next_follow_up_at,
});
