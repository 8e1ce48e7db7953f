import { batchGetItems, type Store } from './client';
import { keys, type CandidateItem, type MarkerItem } from './table-items';

/**
 * Access pattern "candidates by e-mail" (docs/data-model.md): the recruitment webhook keeps one marker per e-mail and
 * recruitment pipeline (`UNIQ#<ws>#CANDIDATE#<pipeline>#<sha256(email)>`, the e-mail compared as `emailKey` says), so
 * the candidates of one address are the owners of its markers in the pipelines given. A BatchGetItem of those
 * markers (100 keys a request: a workspace may have more recruitment pipelines), then one of the candidates they name;
 * both strongly consistent, so a candidate the webhook has just answered is found. No marker found: no second call.
 */
export async function findCandidatesByEmail(
  store: Store,
  workspaceId: string,
  pipelineIds: readonly string[],
  email: string,
): Promise<CandidateItem[]> {
  const markerKeys = pipelineIds.map((pipelineId) => keys.candidateMarker(workspaceId, pipelineId, email));
  const markers = (await batchGetItems(store, markerKeys, { consistentRead: true })) as MarkerItem[];
  const owners = [...new Set(markers.map((marker) => marker.record_id))];
  if (owners.length === 0) return [];
  const candidateKeys = owners.map((candidateId) => keys.candidate(workspaceId, candidateId));
  return (await batchGetItems(store, candidateKeys, { consistentRead: true })) as CandidateItem[];
}
