import type { Candidate, Note } from '../model';

/**
 * How a candidate reads from outside: the admin `candidate show` and the candidate events
 * (docs/events.md) share these shapes.
 */
export type CandidateView = Pick<
  Candidate,
  'id' | 'first_name' | 'last_name' | 'email' | 'phone' | 'position' | 'source' | 'pipeline_id' | 'column_id'
>;

/**
 * A candidate as the settings API shows one (docs/api.md#erasure-export-and-retention: the look-up by e-mail, the
 * export): its record, without its board column.
 */
export type CandidateRecordView = Pick<
  Candidate,
  'id' | 'pipeline_id' | 'first_name' | 'last_name' | 'email' | 'phone' | 'position' | 'source' | 'created_at'
>;

export type CandidateNoteView = Pick<Note, 'id' | 'content' | 'created_at'>;

export const candidateView = (candidate: Candidate): CandidateView => ({
  id: candidate.id,
  first_name: candidate.first_name,
  last_name: candidate.last_name,
  email: candidate.email,
  phone: candidate.phone,
  position: candidate.position,
  source: candidate.source,
  pipeline_id: candidate.pipeline_id,
  column_id: candidate.column_id,
});

export const candidateRecordView = (candidate: Candidate): CandidateRecordView => ({
  id: candidate.id,
  pipeline_id: candidate.pipeline_id,
  first_name: candidate.first_name,
  last_name: candidate.last_name,
  email: candidate.email,
  phone: candidate.phone,
  position: candidate.position,
  source: candidate.source,
  created_at: candidate.created_at,
});

export const candidateNoteView = (note: Note): CandidateNoteView => ({
  id: note.id,
  content: note.content,
  created_at: note.created_at,
});
