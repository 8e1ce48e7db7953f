import type { Deps } from '../deps';
import { readCandidatePartition } from '../storage/record-partitions';
import type { CandidateItem, NoteItem } from '../storage/records';
import { checkedId, unknownId } from './ids';
import { requireWorkspace } from './workspace';

export type CandidateDetails = {
  candidate: Pick<
    CandidateItem,
    'id' | 'first_name' | 'last_name' | 'email' | 'phone' | 'position' | 'source' | 'pipeline_id' | 'column_id'
  >;
  notes: Pick<NoteItem, 'id' | 'content' | 'created_at'>[];
};

/** `candidate show`: the candidate and its notes, newest first, from one Query on its partition. */
export async function showCandidate(
  deps: Deps,
  input: { workspaceId: string; candidateId: string },
): Promise<CandidateDetails> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const candidateId = checkedId('candidate', input.candidateId);
  await requireWorkspace(deps, workspaceId);
  const items = await readCandidatePartition(deps, workspaceId, candidateId);
  const record = items.find((item): item is CandidateItem => item.type === 'candidate');
  if (!record) throw unknownId('candidate', input.candidateId);
  return {
    candidate: {
      id: record.id,
      first_name: record.first_name,
      last_name: record.last_name,
      email: record.email,
      phone: record.phone,
      position: record.position,
      source: record.source,
      pipeline_id: record.pipeline_id,
      column_id: record.column_id,
    },
    notes: items
      .filter((item): item is NoteItem => item.type === 'note')
      .map((note) => ({ id: note.id, content: note.content, created_at: note.created_at })),
  };
}
