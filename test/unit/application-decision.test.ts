import { decideApplication, type ApplicationCall } from '../../lib/domain/recruitment/receive-application';
import {
  type WorkspaceConfig,
  ConflictError,
  NotFoundError,
  UnknownReferenceError,
  defaultWorkspaceSettings,
} from '../../lib/domain/model';
import { messages } from '../../lib/messages';

/** The recruitment webhook's decision: the configuration and a known candidate in, the write out; no DynamoDB. */

const recruitment = (id: string, name: string, extra: object = {}) => ({
  id,
  name,
  is_default: false,
  active: true,
  position: 0,
  columns: [
    { id: `${id}-c2`, name: 'Entretien', order: 1 },
    { id: `${id}-c1`, name: 'Reçue', order: 0 },
  ],
  ...extra,
});
const config = (pipelines: WorkspaceConfig['recruitmentPipelines']): WorkspaceConfig => ({
  workspace: { id: 'ws-1', name: 'Acme', created_at: '2026-01-01T00:00:00.000Z' },
  settings: defaultWorkspaceSettings,
  members: [],
  tags: [],
  salesPipelines: [],
  recruitmentPipelines: pipelines,
  fields: [],
});
const call = (overrides: Partial<ApplicationCall['application']> = {}, content?: string): ApplicationCall => {
  let next = 0;
  return {
    application: {
      email: 'ana@exemple.test',
      first_name: 'Ana',
      last_name: 'Lopez',
      phone: undefined,
      position: 'Closer',
      source: 'Typeform',
      pipeline_id: undefined,
      pipeline: undefined,
      answers: [],
      ...overrides,
    },
    content,
    workspaceId: 'ws-1',
    candidateId: 'cand-new',
    actor: { kind: 'webhook', id: 'endpoint-1' },
    now: '2026-11-22T10:00:00.000Z',
    newId: () => `note-${(next += 1)}`,
  };
};
const pipelines = [recruitment('r-1', 'Closers', { is_default: true }), recruitment('r-2', 'Setters')];

describe('decideApplication', () => {
  it('refuses as values: unknown pipeline id or name (404), an ambiguous name (409), no pipeline (422)', () => {
    const refusal = (pipelinesRead: WorkspaceConfig['recruitmentPipelines'], request: object) => {
      const decision = decideApplication({ config: config(pipelinesRead) }, call(request));
      return decision.kind === 'refuse' ? decision.refusal : undefined;
    };
    expect(refusal(pipelines, { pipeline_id: 'r-9' })).toBeInstanceOf(NotFoundError);
    expect(refusal(pipelines, { pipeline: 'Inconnu' })).toBeInstanceOf(NotFoundError);
    expect(refusal([...pipelines, recruitment('r-3', 'closers')], { pipeline: 'CLOSERS' })).toBeInstanceOf(
      ConflictError,
    );
    expect(refusal([], {})).toBeInstanceOf(UnknownReferenceError);
  });

  it('creates the candidate in the first column of the chosen pipeline, with its answers note', () => {
    const decision = decideApplication({ config: config(pipelines) }, call({ pipeline: 'setters' }, 'Q : R'));
    expect(decision).toMatchObject({
      kind: 'write',
      write: {
        kind: 'create',
        candidate: { id: 'cand-new', pipeline_id: 'r-2', column_id: 'r-2-c1', version: 1, actor: { kind: 'webhook' } },
        note: { id: 'note-1', record_id: 'cand-new', content: 'Q : R' },
        answer: { ok: true, talent_id: 'cand-new', action: 'created' },
      },
    });
  });

  it('creates no note when the form sent no answers', () => {
    const decision = decideApplication({ config: config(pipelines) }, call());
    expect(decision).toMatchObject({ kind: 'write', write: { kind: 'create', note: undefined } });
  });

  it('adds the submission as a note on the known candidate a refused creation named', () => {
    const decision = decideApplication(
      { config: config(pipelines), knownCandidate: { id: 'cand-old', pipelineId: 'r-1' } },
      call(),
    );
    expect(decision).toMatchObject({
      kind: 'write',
      write: {
        kind: 'add-note',
        note: { record_id: 'cand-old', content: messages.recruitment.resubmittedWithoutAnswers },
        pipelineId: 'r-1',
        answer: { ok: true, talent_id: 'cand-old', action: 'existing' },
      },
    });
  });

  it("answers 'created' without writing when the known candidate is this request's own (a retry whose first attempt landed)", () => {
    const decision = decideApplication(
      { config: config(pipelines), knownCandidate: { id: 'cand-new', pipelineId: 'r-1' } },
      call(),
    );
    expect(decision).toEqual({ kind: 'answer', answer: { ok: true, talent_id: 'cand-new', action: 'created' } });
  });
});
