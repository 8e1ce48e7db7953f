import { decideTagChange } from '../../lib/domain/prospect/change-tag';
import { decideProspectPatch, patchProspectSchema } from '../../lib/domain/prospect/update-prospect';
import {
  type FieldDefinition,
  type Prospect,
  type WorkspaceConfig,
  InvalidInputError,
  NotFoundError,
  ProtectedStageError,
  UnknownReferenceError,
  defaultWorkspaceSettings,
} from '../../lib/domain/model';

/** The decisions of PATCH and of the tag routes: snapshot in, decision out, no DynamoDB. */

const ids = { ws: 'ws-1', prospect: 'p-1', sales: 'pl-1', coaching: 'pl-2', member: 'm-1', vip: 't-1' };
const config: WorkspaceConfig = {
  workspace: { id: ids.ws, name: 'Acme', created_at: '2026-01-01T00:00:00.000Z' },
  settings: defaultWorkspaceSettings,
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
      fields: {},
      changed: ['stage', 'closer', 'follow_up'],
    });
  });
});

describe('decideProspectPatch: custom fields', () => {
  const field = (key: string, type: FieldDefinition['type'], options: string[] | null = null): FieldDefinition => ({
    key,
    label: `Champ ${key}`,
    type,
    options,
    aliases: [],
    update: 'always',
  });
  const withFields: WorkspaceConfig = {
    ...config,
    fields: [
      field('budget', 'number'),
      field('company', 'text'),
      field('start', 'date'),
      field('newsletter', 'boolean'),
      field('plan', 'choice', ['Basic', 'Pro']),
      field('interests', 'multi_choice', ['Vente', 'Coaching', 'Formation']),
      { key: 'old', deleted_at: '2026-11-20T00:00:00.000Z', purging: true },
    ],
  };
  const decide = (prospect: Prospect, input: Parameters<typeof decideProspectPatch>[1]) =>
    decideProspectPatch({ config: withFields, prospect }, input, stamp());
  /** The refusal as the domain's error it is, with its details. */
  const refusalOf = (decision: ReturnType<typeof decide>) =>
    decision.kind === 'refuse' ? (decision.refusal as Error & { details?: unknown }) : undefined;
  const nothing = { budget: null, company: null, start: null, newsletter: null, plan: null, interests: null };

  it('reads each type as its field does, answers every live field, logs each change as `fields.<key>` with values as answered', () => {
    const prospect = aProspect({ fields: { plan: 'Basic', old: 'reste' } });
    const decision = decide(prospect, {
      fields: {
        budget: '1 500,50',
        company: '  Acme  ',
        start: '05/01/2027',
        newsletter: 'oui',
        plan: 'pro',
        interests: 'formation, vente',
      },
    });
    if (decision.kind !== 'write') throw new Error(`expected a write, got ${decision.kind}`);
    const after = {
      budget: 1500.5,
      company: 'Acme',
      start: '2027-01-05',
      newsletter: true,
      plan: 'Pro',
      interests: ['Vente', 'Formation'],
    };
    expect(decision.write.fields).toEqual({ values: after, mapExists: true });
    expect(decision.write.set).toEqual({});
    expect(decision.write.answer).toEqual({
      id: ids.prospect,
      pipeline_id: ids.sales,
      stage_id: 's-new',
      setter_id: null,
      closer_id: null,
      next_follow_up_at: null,
      fields: after,
      changed: Object.keys(after).map((key) => `fields.${key}`),
    });
    expect(decision.write.entries.map(({ field: name, before, after: value }) => [name, before, value])).toEqual([
      ['fields.budget', null, 1500.5],
      ['fields.company', null, 'Acme'],
      ['fields.start', null, '2027-01-05'],
      ['fields.newsletter', null, true],
      ['fields.plan', 'Basic', 'Pro'],
      ['fields.interests', null, ['Vente', 'Formation']],
    ]);
    expect(decision.write.entries.every((entry) => entry.prospect_version === 5)).toBe(true);
  });

  it('clears with null or an empty value, sets the whole map on a prospect without one, and leaves unchanged values out', () => {
    const set = aProspect({ fields: { budget: 10, company: 'Acme', newsletter: false } });
    const cleared = decide(set, { fields: { budget: null, company: '  ', newsletter: 'non' } });
    if (cleared.kind !== 'write') throw new Error(`expected a write, got ${cleared.kind}`);
    expect(cleared.write.fields).toEqual({ values: { budget: null, company: null }, mapExists: true });
    expect(cleared.write.answer).toMatchObject({
      fields: { ...nothing, newsletter: false },
      changed: ['fields.budget', 'fields.company'],
    });
    expect(cleared.write.entries).toEqual([
      expect.objectContaining({ field: 'fields.budget', before: 10, after: null }),
      expect.objectContaining({ field: 'fields.company', before: 'Acme', after: null }),
    ]);

    const bare = decide(aProspect(), { fields: { budget: 42 }, setter_id: ids.member });
    if (bare.kind !== 'write') throw new Error(`expected a write, got ${bare.kind}`);
    expect(bare.write.fields).toEqual({ values: { budget: 42 }, mapExists: false });
    expect(bare.write.set).toEqual({ setter_id: ids.member });
    expect(bare.write.answer.changed).toEqual(['setter', 'fields.budget']);

    expect(decide(set, { fields: { budget: '10', newsletter: 'NON', plan: null } })).toEqual({
      kind: 'answer',
      answer: expect.objectContaining({
        changed: [],
        fields: { ...nothing, budget: 10, company: 'Acme', newsletter: false },
      }),
    });
  });

  it('refuses a value its field does not read (400 naming `fields.<key>`), before a protected stage (409) or an unknown key (422)', () => {
    for (const [key, value] of [
      ['budget', 'beaucoup'],
      ['start', '2027-02-30'],
      ['newsletter', 'peut-être'],
      ['plan', 'Gold'],
      ['interests', ['Vente', 'Golf']],
      ['company', 'x'.repeat(1001)],
    ] as [string, string | string[]][]) {
      const refusal = refusalOf(
        decide(aProspect({ stage_id: 's-won' }), { stage: 'Relance', fields: { nope: 1, [key]: value } }),
      );
      expect(refusal).toBeInstanceOf(InvalidInputError);
      expect(refusal?.details).toEqual({ field: `fields.${key}`, message: expect.stringContaining(`Champ ${key}`) });
    }
  });

  it('refuses an unknown or deleted key (422 naming `fields.<key>`) after a protected stage (409), and values over 16 KB (400 naming `fields`)', () => {
    for (const key of ['nope', 'old', 'Budget']) {
      const refusal = refusalOf(decide(aProspect(), { stage: 'Relance', fields: { budget: 1, [key]: 2 } }));
      expect(refusal).toBeInstanceOf(UnknownReferenceError);
      expect(refusal?.details).toEqual({ field: `fields.${key}`, message: expect.stringContaining(key) });
    }
    expect(refusalOf(decide(aProspect(), { stage: 'closé', fields: { nope: 1 } }))).toBeInstanceOf(ProtectedStageError);

    const large = aProspect({ fields: { company: 'x'.repeat(1000) } });
    const big = Array.from({ length: 17 }, () => 'y'.repeat(1000));
    const tooLarge = refusalOf(
      decideProspectPatch(
        {
          config: { ...withFields, fields: [...withFields.fields, ...big.map((_, i) => field(`text_${i}`, 'text'))] },
          prospect: large,
        },
        { fields: Object.fromEntries(big.map((text, i) => [`text_${i}`, text])) },
        stamp(),
      ),
    );
    expect(tooLarge).toBeInstanceOf(InvalidInputError);
    expect(tooLarge?.details).toEqual({ field: 'fields', message: expect.stringContaining('16 Ko') });
  });

  it('takes `fields` alone or beside the others, an empty one only beside another field', () => {
    const refused = (body: unknown) => !patchProspectSchema.safeParse(body).success;
    expect(refused({ fields: {} })).toBe(true);
    expect(refused({})).toBe(true);
    expect(refused({ fields: { budget: { montant: 1 } } })).toBe(true);
    expect(refused({ fields: [] })).toBe(true);
    expect(refused({ fields: { budget: null } })).toBe(false);
    expect(refused({ fields: {}, stage: 'Relance' })).toBe(false);
    expect(refused({ fields: { interests: ['Vente'], company: 'Acme', budget: 1, newsletter: true } })).toBe(false);
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
