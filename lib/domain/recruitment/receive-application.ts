import type { Deps } from '../../deps';
import type { Actor } from '../../storage/event-records';
import type { WebhookFields } from '../webhook-fields';
import { addCandidateNote, createCandidate } from '../../storage/candidates';
import type { Candidate, Note } from '../../storage/records';
import { defaultRetryPolicy, retryOnTransactionConflict, type RetryPolicy } from '../../storage/retry';
import { loadWorkspaceConfig } from '../../storage/workspace-config';
import { answersNote } from './answers-note';
import { interpretApplication } from './application-input';
import { chooseRecruitmentPipeline } from './pipeline-choice';
import { messages } from '../../messages';
import { successEntry, type WebhookCallContext } from '../webhook-call';

export type ApplicationResult = { ok: true; talent_id: string; action: 'created' | 'existing' };

/**
 * The recruitment webhook (docs/api.md#recruitment-webhook). Input: the body's fields. Output:
 * the candidate's id and what happened.
 * 1. Validate the application (400 naming the field) and build its answers note.
 * 2. Choose the recruitment pipeline from the workspace configuration (404, 409, 422).
 * 3. Create candidate, marker and note in one transaction; when the marker exists (same e-mail in
 *    the same pipeline), add the submission as a note on the known candidate instead.
 */
export async function receiveApplication(
  deps: Deps,
  call: WebhookCallContext,
  fields: WebhookFields,
  retryPolicy: RetryPolicy = defaultRetryPolicy,
): Promise<ApplicationResult> {
  const { workspaceId } = call;
  const application = interpretApplication(fields);
  const content = answersNote(application.answers);
  const config = await loadWorkspaceConfig(deps, workspaceId);
  const { pipeline, columnId } = chooseRecruitmentPipeline(config.recruitmentPipelines, application);
  const now = deps.clock().toISOString();
  const candidateId = deps.newId();
  const actor: Actor = { kind: 'webhook', id: call.endpointId };
  const candidate: Candidate = {
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
    actor,
  };
  const noteOn = (recordId: string, text: string): Note => {
    const noteId = deps.newId();
    return {
      id: noteId,
      workspace_id: workspaceId,
      record_id: recordId,
      content: text,
      date: now,
      created_at: now,
      key_id: null,
      actor,
    };
  };
  const journal = (result: ApplicationResult) =>
    successEntry(call, { outcome: result.action, record_id: result.talent_id, placement: null, warnings: [] });
  const created: ApplicationResult = { ok: true, talent_id: candidateId, action: 'created' };
  const outcome = await retryOnTransactionConflict(
    () =>
      createCandidate(
        deps,
        candidate,
        content === undefined ? undefined : noteOn(candidateId, content),
        journal(created),
      ),
    retryPolicy,
  );
  if (outcome.created) {
    call.journaled = true;
    deps.metrics.count('CandidatesCreated');
    return created;
  }
  // The marker is this candidate's own when a retry under the same Idempotency-Key repeats a first
  // attempt that did land: the candidate was created then.
  if (outcome.existingId === candidateId) {
    deps.metrics.count('CandidatesCreated');
    return created;
  }
  const existing: ApplicationResult = { ok: true, talent_id: outcome.existingId, action: 'existing' };
  const note = noteOn(outcome.existingId, content ?? messages.recruitment.resubmittedWithoutAnswers);
  if ((await addCandidateNote(deps, note, journal(existing))) === 'written') call.journaled = true;
  deps.metrics.count('CandidatesExisting');
  return existing;
}
