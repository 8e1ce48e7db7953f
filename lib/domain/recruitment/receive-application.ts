import type { Deps } from '../../storage/client';
import { addCandidateNote, createCandidate } from '../../storage/candidates';
import { readDecideWrite, type Decision } from '../../storage/conditional-writes';
import { loadWorkspaceConfig } from '../../storage/workspace-config';
import {
  StorageUnavailableError,
  type Actor,
  type Candidate,
  type Note,
  type Stamped,
  type WebhookFields,
  type WorkspaceConfig,
} from '../model';
import { answersNote } from './answers-note';
import { interpretApplication, type ApplicationInput } from './application-input';
import { chooseRecruitmentPipeline } from './pipeline-choice';
import { messages } from '../../messages';
import { successEntry, type CallOutcome, type WebhookAnswer, type WebhookCallContext } from '../webhook-call';

export type ApplicationResult = { ok: true; talent_id: string; action: 'created' | 'existing' };

/** A known candidate as a refused creation names it: its marker's owner, in the pipeline the marker is of. */
export type KnownCandidate = { id: string; pipelineId: string };

/** What a round knows: the configuration, and the known candidate a refused creation named. */
export type ApplicationSnapshot = { config: WorkspaceConfig; knownCandidate?: KnownCandidate };

/** What the recruitment webhook writes, each with the answer it makes once written. */
export type ApplicationWrite =
  | { kind: 'create'; candidate: Stamped<Candidate>; note: Stamped<Note> | undefined; answer: ApplicationResult }
  | { kind: 'add-note'; note: Stamped<Note>; pipelineId: string; answer: ApplicationResult };

/** What the decision is taken with besides the snapshot: the application, this call's ids, actor and time. */
export type ApplicationCall = {
  application: ApplicationInput;
  /** The answers note (none: the form sent no answers). */
  content: string | undefined;
  workspaceId: string;
  candidateId: string;
  actor: Actor;
  now: string;
  newId: () => string;
};

/** The recruitment webhook's answer, and whether its journal entry went with a write. */
type ApplicationAnswered = { result: ApplicationResult; journaledWithChange: boolean };

/**
 * The recruitment webhook (docs/api.md#recruitment-webhook). Input: the body's fields. Output:
 * the candidate's id and what happened, the call's journal entry and its counts (`WebhookAnswer`).
 * 1. Validate the application (400 naming the field) and build its answers note.
 * 2. Read the workspace configuration (eventually consistent, as every route reading it alone).
 * 3. Decide (`decideApplication`): choose the recruitment pipeline (404, 409, 422), and create
 *    candidate, marker and note in one transaction. When the marker exists (same e-mail in the same
 *    pipeline), the refusal names the known candidate: the next round, without a read, adds the
 *    submission as a note on it instead.
 * A write carries the call's journal entry in its transaction; an answer without a write (a retry
 * whose first attempt landed) leaves the entry to the route.
 */
export async function receiveApplication(
  deps: Deps,
  call: WebhookCallContext,
  fields: WebhookFields,
): Promise<WebhookAnswer<ApplicationResult>> {
  const { workspaceId } = call;
  const application = interpretApplication(fields);
  const candidateId = deps.newId();
  const applicationCall: ApplicationCall = {
    application,
    content: answersNote(application.answers),
    workspaceId,
    candidateId,
    actor: { kind: 'webhook', id: call.endpointId },
    now: deps.clock().toISOString(),
    newId: deps.newId,
  };
  const journal = (result: ApplicationResult) => successEntry(call, entryOf(result));
  const { result, journaledWithChange } = await readDecideWrite<
    ApplicationSnapshot,
    ApplicationWrite,
    ApplicationAnswered,
    KnownCandidate
  >({
    read: async (previous) => {
      // A refused creation (strongly consistent, as every write) named the known candidate.
      if (previous?.reason === 'lost-race' && previous.learned !== undefined) {
        return {
          snapshot: { config: previous.snapshot.config, knownCandidate: previous.learned },
          consistent: true,
        };
      }
      return { snapshot: { config: await loadWorkspaceConfig(deps, workspaceId) }, consistent: true };
    },
    decide: (snapshot) => {
      const decision = decideApplication(snapshot, applicationCall);
      return decision.kind === 'answer'
        ? { kind: 'answer', answer: { result: decision.answer, journaledWithChange: false } }
        : decision;
    },
    write: async (write) => {
      if (write.kind === 'create') {
        const outcome = await createCandidate(deps, write.candidate, write.note, journal(write.answer));
        if (!outcome.created) {
          return { kind: 'lost-race', learned: { id: outcome.existingId, pipelineId: write.candidate.pipeline_id } };
        }
        return { kind: 'written', answer: { result: write.answer, journaledWithChange: true } };
      }
      const added = await addCandidateNote(deps, write, journal(write.answer));
      // Erased since its marker named it: the next round reads afresh and finds the address free (a new candidate).
      if (added === 'candidate_gone') return { kind: 'lost-race' };
      // A note already there with this very key was written by this request's first attempt
      // (same ids under an Idempotency-Key): nothing was written, the route journals the call.
      return { kind: 'written', answer: { result: write.answer, journaledWithChange: added === 'written' } };
    },
    // Reached only if the known candidate were erased at every round (each then finds the address free again).
    contended: () => new StorageUnavailableError(messages.failure.internal),
  });
  return {
    answer: result,
    journal: entryOf(result),
    journaledWithChange,
    counts: [{ metric: result.action === 'created' ? 'CandidatesCreated' : 'CandidatesExisting' }],
  };
}

const entryOf = (result: ApplicationResult): CallOutcome => ({
  outcome: result.action,
  record_id: result.talent_id,
  placement: null,
  warnings: [],
});

/**
 * What an application does, given the configuration and the known candidate, if any: refused
 * (no such pipeline, an ambiguous name, no column), a new candidate with its answers note, or a
 * note on the known candidate (the answers, or that it applied again without any). The known
 * candidate is this request's own when a retry under the same Idempotency-Key repeats a first
 * attempt that did land: it was created then, and is answered so without writing.
 */
export function decideApplication(
  snapshot: ApplicationSnapshot,
  call: ApplicationCall,
): Decision<ApplicationWrite, ApplicationResult> {
  const { application, candidateId, now } = call;
  const noteOn = (recordId: string, content: string): Stamped<Note> => ({
    id: call.newId(),
    workspace_id: call.workspaceId,
    record_id: recordId,
    content,
    date: now,
    created_at: now,
    key_id: null,
    actor: call.actor,
  });
  const known = snapshot.knownCandidate;
  if (known?.id === candidateId) {
    return { kind: 'answer', answer: { ok: true, talent_id: candidateId, action: 'created' } };
  }
  if (known !== undefined) {
    const note = noteOn(known.id, call.content ?? messages.recruitment.resubmittedWithoutAnswers);
    return {
      kind: 'write',
      write: {
        kind: 'add-note',
        note,
        pipelineId: known.pipelineId,
        answer: { ok: true, talent_id: known.id, action: 'existing' },
      },
    };
  }
  const choice = chooseRecruitmentPipeline(snapshot.config.recruitmentPipelines, application);
  if (choice instanceof Error) return { kind: 'refuse', refusal: choice };
  const candidate: Stamped<Candidate> = {
    id: candidateId,
    workspace_id: call.workspaceId,
    pipeline_id: choice.pipeline.id,
    column_id: choice.columnId,
    first_name: application.first_name,
    last_name: application.last_name,
    email: application.email,
    phone: application.phone ?? null,
    position: application.position ?? null,
    source: application.source,
    version: 1,
    created_at: now,
    updated_at: now,
    actor: call.actor,
  };
  const note = call.content === undefined ? undefined : noteOn(candidateId, call.content);
  return {
    kind: 'write',
    write: { kind: 'create', candidate, note, answer: { ok: true, talent_id: candidateId, action: 'created' } },
  };
}
