import { decideTagChange } from '../../lib/domain/prospect/change-tag';
import { decideProspectPatch } from '../../lib/domain/prospect/update-prospect';
import {
  type Prospect,
  type WorkspaceConfig,
  NotFoundError,
  ProtectedStageError,
  UnknownReferenceError,
} from '../../lib/domain/model';

/** The decisions of PATCH and of the tag routes: snapshot in, decision out, no DynamoDB. */

const ids = { ws: 'ws-1', prospect: 'p-1', sales: 'pl-1', coaching: 'pl-2', member: 'm-1', vip: 't-1' };
const config: WorkspaceConfig = {
  workspace: { id: ids.ws, name: 'Acme', created_at: '2026-01-01T00:00:00.000Z' },
  members: [{ id: ids.member, name: 'Alice', email: null }],
  tags: [{ id: ids.vip, name: 'VIP' }],
  salesPipelines: [
    {
      id: ids.sales,
      name: 'Ventes',
      is_default: true,
      active: true,
      position: 0,
      stages: [
        { id: 's-new', name: 'Nouveau', type: 'Appointment Setting', order: 0 },
        { id: 's-follow', name: 'Relance', type: 'Follow up', order: 1 },
        { id: 's-won', name: 'Closé', type: 'Closed', order: 2 },
      ],
    },
    {
      id: ids.coaching,
      name: 'Coaching',
      is_default: false,
      active: true,
      position: 1,
      stages: [{ id: 's-call', name: 'Appel', type: 'Follow up', order: 0 }],
    },
  ],
  recruitmentPipelines: [],
  fields: [],
};
const aProspect = (overrides: Partial<Prospect> = {}): Prospect => ({
  id: ids.prospect,
  workspace_id: ids.ws,
  pipeline_id: ids.sales,
  stage_id: 's-new',
  setter_id: null,
  closer_id: null,
  next_follow_up_at: null,
  first_name: 'Léa',
  last_name: null,
  email: 'lea@exemple.test',
  phone: null,
  social_url: null,
  source: null,
  version: 4,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  ...overrides,
});
const stamp = () => {
  let next = 0;
  return { keyId: 'key-1', now: '2026-11-22T10:00:00.000Z', newId: () => `entry-${(next += 1)}` };
};

describe('decideProspectPatch', () => {
  it('refuses a prospect not found (404), as a value', () => {
    const decision = decideProspectPatch({ config, prospect: undefined }, { stage: 'Relance' }, stamp());
    expect(decision).toEqual({ kind: 'refuse', refusal: expect.any(NotFoundError) });
  });

  it('refuses a move out of or into a protected stage (409), and an unknown stage or member (422)', () => {
    const refusal = (prospect: Prospect, input: Parameters<typeof decideProspectPatch>[1]) => {
      const decision = decideProspectPatch({ config, prospect }, input, stamp());
      return decision.kind === 'refuse' ? decision.refusal : undefined;
    };
    expect(refusal(aProspect({ stage_id: 's-won' }), { stage: 'Relance' })).toBeInstanceOf(ProtectedStageError);
    expect(refusal(aProspect(), { stage: 'closé' })).toBeInstanceOf(ProtectedStageError);
    expect(refusal(aProspect(), { stage: 'Inconnue' })).toBeInstanceOf(UnknownReferenceError);
    expect(refusal(aProspect(), { setter_id: 'nobody' })).toBeInstanceOf(UnknownReferenceError);
  });

  it('answers without writing when every value is already set', () => {
    const decision = decideProspectPatch(
      { config, prospect: aProspect({ setter_id: ids.member }) },
      { stage: 'nouveau', setter_id: ids.member.toUpperCase() },
      stamp(),
    );
    expect(decision).toEqual({ kind: 'answer', answer: expect.objectContaining({ changed: [], stage_id: 's-new' }) });
  });

  it('writes only the fields that change, one log entry each, on the version read', () => {
    const decision = decideProspectPatch(
      { config, prospect: aProspect() },
      { stage: 's-call', closer_id: ids.member, follow_up_at: '2026-12-01T09:00:00.000Z', setter_id: null },
      stamp(),
    );
    if (decision.kind !== 'write') throw new Error(`expected a write, got ${decision.kind}`);
    expect(decision.write.expectedVersion).toBe(4);
    expect(decision.write.set).toEqual({
      stage_id: 's-call',
      pipeline_id: ids.coaching,
      closer_id: ids.member,
      next_follow_up_at: '2026-12-01T09:00:00.000Z',
    });
    expect(decision.write.entries).toEqual([
      expect.objectContaining({
        id: 'entry-1',
        field: 'stage',
        before: 's-new',
        after: 's-call',
        pipeline_before: ids.sales,
        pipeline_after: ids.coaching,
        prospect_version: 5,
      }),
      expect.objectContaining({ id: 'entry-2', field: 'closer', before: null, after: ids.member, key_id: 'key-1' }),
      expect.objectContaining({ id: 'entry-3', field: 'follow_up', at: '2026-11-22T10:00:00.000Z' }),
    ]);
    expect(decision.write.answer).toEqual({
      id: ids.prospect,
      pipeline_id: ids.coaching,
      stage_id: 's-call',
      setter_id: null,
      closer_id: ids.member,
      next_follow_up_at: '2026-12-01T09:00:00.000Z',
      changed: ['stage', 'closer', 'follow_up'],
    });
  });
});

describe('decideTagChange', () => {
  it('refuses a prospect not found (404) before an unknown tag (422)', () => {
    expect(decideTagChange({ config, prospect: undefined }, { action: 'add', tag: 'nope' }, stamp())).toEqual({
      kind: 'refuse',
      refusal: expect.any(NotFoundError),
    });
    expect(decideTagChange({ config, prospect: aProspect() }, { action: 'add', tag: 'nope' }, stamp())).toEqual({
      kind: 'refuse',
      refusal: expect.any(UnknownReferenceError),
    });
  });

  it('answers without writing a tag already present (add) or absent (remove)', () => {
    const tagged = aProspect({ tag_ids: new Set([ids.vip]) });
    expect(decideTagChange({ config, prospect: tagged }, { action: 'add', tag: 'vip' }, stamp())).toEqual({
      kind: 'answer',
      answer: { outcome: 'already_present', tag: { id: ids.vip, name: 'VIP' } },
    });
    expect(decideTagChange({ config, prospect: aProspect() }, { action: 'remove', tag: ids.vip }, stamp())).toEqual({
      kind: 'answer',
      answer: { outcome: 'absent', tag: { id: ids.vip, name: 'VIP' } },
    });
  });

  it('adds or removes the tag with its log entry, on the version read', () => {
    const added = decideTagChange({ config, prospect: aProspect() }, { action: 'add', tag: 'VIP' }, stamp());
    expect(added).toEqual({
      kind: 'write',
      write: {
        action: 'add',
        tagId: ids.vip,
        expectedVersion: 4,
        entry: expect.objectContaining({ field: 'tags', before: null, after: ids.vip, prospect_version: 5 }),
        answer: { outcome: 'added', tag: { id: ids.vip, name: 'VIP' } },
      },
    });
    const tagged = aProspect({ tag_ids: new Set([ids.vip]) });
    const removed = decideTagChange({ config, prospect: tagged }, { action: 'remove', tag: 'VIP' }, stamp());
    expect(removed).toMatchObject({
      kind: 'write',
      write: { action: 'remove', entry: { before: ids.vip, after: null }, answer: { outcome: 'removed' } },
    });
  });
});
