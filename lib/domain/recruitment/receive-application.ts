import type { Deps } from '../../deps';
import type { WebhookFields } from '../../http/webhook-body';
import { addNote, createCandidate } from '../../storage/candidates';
import { keys } from '../../storage/keys';
import type { CandidateItem, NoteItem } from '../../storage/records';
import { defaultRetryPolicy, retryOnTransactionConflict, type RetryPolicy } from '../../storage/retry';
import { loadWorkspaceConfig } from '../../storage/workspace-config';
import { answersNote } from './answers-note';
import { interpretApplication } from './application-input';
import { chooseRecruitmentPipeline } from './pipeline-choice';

export type ApplicationResult = { ok: true; talent_id: string; action: 'created' | 'existing' };

const resubmittedWithoutAnswers = 'Nouvelle candidature reçue, sans réponses de formulaire.';

/**
 * Section 4.6. Input: the body's fields. Output: the candidate's id and what happened.
 * 1. Validate the application (400 naming the field) and build its answers note.
 * 2. Choose the recruitment pipeline from the workspace configuration (404, 409, 422).
 * 3. Create candidate, marker and note in one transaction; when the marker exists (same e-mail in
 *    the same pipeline), add the submission as a note on the known candidate instead.
 */
export async function receiveApplication(
  deps: Deps,
  workspaceId: string,
  fields: WebhookFields,
  retryPolicy: RetryPolicy = defaultRetryPolicy,
): Promise<ApplicationResult> {
  const application = interpretApplication(fields);
  const content = answersNote(application.answers);
  const config = await loadWorkspaceConfig(deps, workspaceId);
  const { pipeline, columnId } = chooseRecruitmentPipeline(config.recruitmentPipelines, application);
  const now = deps.clock().toISOString();
  const candidateId = deps.newId();
  const candidate: CandidateItem = {
    ...keys.candidate(workspaceId, candidateId),
    sk: 'CANDIDATE',
    type: 'candidate',
    id: candidateId,
    workspace_id: workspaceId,
    pipeline_id: pipeline.id,
    column_id: columnId,
    first_name: application.first_name,
    last_name: application.last_name,
    email: application.email,
    phone: application.phone ?? null,
    position: application.position ?? null,
    source: application.source,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  const noteOn = (recordId: string, text: string): NoteItem => {
    const noteId = deps.newId();
    return {
      pk: keys.candidatePk(workspaceId, recordId),
      sk: keys.noteSk(now, noteId),
      type: 'note',
      id: noteId,
      workspace_id: workspaceId,
      record_id: recordId,
      content: text,
      date: now,
      created_at: now,
      key_id: null,
    };
  };
  const outcome = await retryOnTransactionConflict(
    () => createCandidate(deps, candidate, content === undefined ? undefined : noteOn(candidateId, content)),
    retryPolicy,
  );
  // The marker is this candidate's own when a retry under the same Idempotency-Key repeats a first
  // attempt that did land: the candidate was created then.
  if (outcome.created || outcome.existingId === candidateId)
    return { ok: true, talent_id: candidateId, action: 'created' };
  await addNote(deps, noteOn(outcome.existingId, content ?? resubmittedWithoutAnswers));
  return { ok: true, talent_id: outcome.existingId, action: 'existing' };
}
