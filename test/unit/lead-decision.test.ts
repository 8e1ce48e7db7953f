import { decideLead, type LeadCall, type LeadSnapshot } from '../../lib/domain/lead/ingest-lead';
import { phoneMatching, type ContactMatch } from '../../lib/domain/lead/lead';
import {
  type Prospect,
  type WorkspaceConfig,
  defaultPhoneSettings,
  defaultWorkspaceSettings,
} from '../../lib/domain/model';
import { messages } from '../../lib/messages';

/** The lead webhook's decision: what was read in, the write to make (or the answer) out; no DynamoDB. */

const ids = { ws: 'ws-1', known: 'p-known', fresh: 'p-new', sales: 'pl-1', vip: 't-1' };
const config: WorkspaceConfig = {
  workspace: { id: ids.ws, name: 'Acme', created_at: '2026-01-01T00:00:00.000Z' },
  settings: defaultWorkspaceSettings,
  members: [],
  tags: [{ id: ids.vip, name: 'VIP' }],
  salesPipelines: [
    {
      id: ids.sales,
      name: 'Ventes',
      is_default: true,
      active: true,
      position: 0,
      stages: [{ id: 's-new', name: 'Nouveau', type: 'Appointment Setting', order: 0 }],
    },
  ],
  recruitmentPipelines: [],
  fields: [],
};
const call: LeadCall = {
  lead: { email: 'lea@exemple.test', first_name: 'Léa', tag_ids: [ids.vip, 'unknown-tag'] },
  inputWarnings: ['champ inconnu'],
  workspaceId: ids.ws,
  newProspectId: ids.fresh,
  actor: { kind: 'webhook', id: 'endpoint-1' },
  now: '2026-11-22T10:00:00.000Z',
};
const known = (overrides: Partial<Extract<ContactMatch, { kind: 'existing' }>> = {}): ContactMatch => ({
  kind: 'existing',
  prospectId: ids.known,
  email: 'lea@exemple.test',
  phone: undefined,
  takesNewEmail: false,
  takesNewPhone: false,
  warnings: [],
  ...overrides,
});
const marker = (placement?: { pipeline_id: string | null; stage_id: string | null }) => ({
  key: { pk: 'UNIQ#ws-1#EMAIL#x', sk: 'UNIQ' },
  placement,
});
const snapshot = (overrides: Partial<LeadSnapshot>): LeadSnapshot => ({
  config,
  phone: phoneMatching(defaultPhoneSettings),
  match: { kind: 'new' },
  marker: undefined,
  ...overrides,
});
const stored = { id: ids.known, pipeline_id: ids.sales, stage_id: 's-new', version: 3 } as Prospect;
const existingWarnings = ['champ inconnu', messages.lead.unknownTag('unknown-tag'), messages.lead.notMoved];

describe('decideLead', () => {
  it('creates an unknown contact, placed, with its tags and every warning', () => {
    const decision = decideLead(snapshot({}), call);
    expect(decision).toMatchObject({
      kind: 'write',
      write: {
        kind: 'create',
        prospect: { id: ids.fresh, pipeline_id: ids.sales, stage_id: 's-new', tag_ids: new Set([ids.vip]), version: 1 },
        answer: {
          status: 'created',
          prospect_id: ids.fresh,
          placement: 'defaut',
          tags_applied: [{ id: ids.vip, name: 'VIP' }],
          warnings: ['champ inconnu', messages.lead.unknownTag('unknown-tag')],
        },
      },
    });
  });

  it("answers without writing when the contact is this request's own prospect (a retry whose first attempt landed)", () => {
    const decision = decideLead(snapshot({ match: known({ prospectId: ids.fresh }), marker: marker() }), call);
    expect(decision).toMatchObject({ kind: 'answer', answer: { status: 'created', prospect_id: ids.fresh } });
  });

  it("updates a known contact on its marker's placement hint, and answers that placement only", () => {
    const hint = { pipeline_id: ids.sales, stage_id: 's-new' };
    const decision = decideLead(snapshot({ match: known(), marker: marker(hint) }), call);
    expect(decision).toEqual({
      kind: 'write',
      write: {
        kind: 'update-known',
        prospectId: ids.known,
        marker: marker(hint),
        placement: { expected: hint, refresh: false },
        update: expect.objectContaining({ email: 'lea@exemple.test', tagIds: [ids.vip], now: call.now }),
        answer: {
          status: 'existing',
          prospect_id: ids.known,
          pipeline_id: ids.sales,
          stage_id: 's-new',
          placement: 'existant',
          tags_applied: [{ id: ids.vip, name: 'VIP' }],
          warnings: existingWarnings,
        },
      },
    });
  });

  it('writes against the placement a refused write returned, refreshing the hint', () => {
    const placedAt = { pipeline_id: null, stage_id: null };
    const decision = decideLead(
      snapshot({ match: known(), marker: marker({ pipeline_id: 'a', stage_id: 'b' }), placedAt }),
      call,
    );
    expect(decision).toMatchObject({
      kind: 'write',
      write: { kind: 'update-known', placement: { expected: placedAt, refresh: true }, answer: placedAt },
    });
  });

  it('takes over a new e-mail on the version read, and answers where the prospect stands (nothing else of it)', () => {
    const decision = decideLead(
      snapshot({ match: known({ takesNewEmail: true }), marker: marker(), prospect: stored }),
      call,
    );
    if (decision.kind !== 'write' || decision.write.kind !== 'take-contacts') throw new Error('expected take-contacts');
    expect(decision.write.prospect).toBe(stored);
    expect(Object.keys(decision.write.answer).sort()).toEqual(
      ['placement', 'prospect_id', 'pipeline_id', 'stage_id', 'status', 'tags_applied', 'warnings'].sort(),
    );
    expect(decision.write.answer).toMatchObject({ pipeline_id: ids.sales, stage_id: 's-new' });
  });

  it('reads again when the markers name a prospect that is not there: a write under way', () => {
    expect(decideLead(snapshot({ match: known(), marker: undefined, prospect: undefined }), call)).toEqual({
      kind: 'lost-race',
    });
  });
});
