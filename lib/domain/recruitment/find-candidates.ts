import type { Deps } from '../../storage/client';
import { findCandidatesByEmail } from '../../storage/candidate-lookup';
import { loadWorkspaceConfig } from '../../storage/workspace-config';
import type { Candidate } from '../model';
import { candidateRecordView, type CandidateRecordView } from './candidate-view';

/**
 * `GET /workspaces/{w}/candidates?email=` (docs/api.md#erasure-export-and-retention): the candidates of one address,
 * one per recruitment pipeline it applied to, found as the recruitment webhook matches them (its markers, the e-mail
 * ignoring case), in the pipelines' order. Every recruitment pipeline of the configuration is looked in, an inactive
 * one too: a person who applied there is still kept there. No Scan: the configuration names the pipelines.
 */
export async function findCandidates(
  deps: Deps,
  workspaceId: string,
  email: string,
): Promise<{ candidates: CandidateRecordView[] }> {
  const { recruitmentPipelines } = await loadWorkspaceConfig(deps, workspaceId);
  const position = new Map(recruitmentPipelines.map((pipeline) => [pipeline.id, pipeline.position]));
  const found = await findCandidatesByEmail(deps, workspaceId, [...position.keys()], email);
  const byPipeline = (a: Candidate, b: Candidate) =>
    (position.get(a.pipeline_id) ?? 0) - (position.get(b.pipeline_id) ?? 0);
  return { candidates: found.sort(byPipeline).map(candidateRecordView) };
}
