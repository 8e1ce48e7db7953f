import type { Deps } from '../../../lib/storage/client';
import {
  candidateNoteView,
  candidateView,
  type CandidateNoteView,
  type CandidateView,
} from '../../../lib/domain/recruitment/candidate-view';
import { readCandidateCollection } from '../../../lib/storage/item-collections';
import type { CandidateItem, NoteItem } from '../../../lib/storage/table-items';
import { checkedId, unknownId, requireWorkspace } from '../../../lib/settings/admin-input';

export type CandidateDetails = { candidate: CandidateView; notes: CandidateNoteView[] };

/** `candidate show`: the candidate and its notes, newest first, from one Query on its partition. */
export async function showCandidate(
  deps: Deps,
  input: { workspaceId: string; candidateId: string },
): Promise<CandidateDetails> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const candidateId = checkedId('candidate', input.candidateId);
  await requireWorkspace(deps, workspaceId);
  const items = await readCandidateCollection(deps, workspaceId, candidateId);
  const record = items.find((item): item is CandidateItem => item.type === 'candidate');
  if (!record) throw unknownId('candidate', input.candidateId);
  return {
    candidate: candidateView(record),
    notes: items.filter((item): item is NoteItem => item.type === 'note').map(candidateNoteView),
  };
}
