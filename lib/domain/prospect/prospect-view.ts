import type { ProspectItem } from '../../storage/records';

export type ProspectPatchView = {
  id: string;
  pipeline_id: string | null;
  stage_id: string | null;
  setter_id: string | null;
  closer_id: string | null;
  next_follow_up_at: string | null;
};

/** Section 4.2's answer; `pipeline_id` and `stage_id` stay null for a prospect on no board (decisions 3). */
export const prospectPatchView = (prospect: ProspectItem): ProspectPatchView => ({
  id: prospect.id,
  pipeline_id: prospect.pipeline_id,
  stage_id: prospect.stage_id,
  setter_id: prospect.setter_id,
  closer_id: prospect.closer_id,
  next_follow_up_at: prospect.next_follow_up_at,
});
