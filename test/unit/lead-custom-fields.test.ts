import { decideLead, leadFieldValues, type LeadCall, type LeadSnapshot } from '../../lib/domain/lead/ingest-lead';
import { interpretLead, maxNamedIgnoredFields, phoneMatching } from '../../lib/domain/lead/lead';
import { maxFieldValuesBytes } from '../../lib/domain/fields/field-values';
import {
  defaultPhoneSettings,
  defaultWorkspaceSettings,
  type FieldDefinition,
  type FieldEntry,
  type Prospect,
  type WorkspaceConfig,
} from '../../lib/domain/model';
import { messages } from '../../lib/messages';

/** A lead's custom field values (docs/api.md#lead-custom-fields): how the body gives them, what the decision writes. */

const field = (definition: Partial<FieldDefinition> & Pick<FieldDefinition, 'key' | 'type'>): FieldDefinition => ({
  label: definition.key,
  options: null,
  aliases: [],
  update: 'always',
  ...definition,
});
const budget = field({ key: 'budget', label: 'Budget', type: 'number', aliases: ['Quel est votre budget ?'] });
const situation = field({
  key: 'situation',
  label: 'Situation',
  type: 'choice',
  options: ['Locataire', 'Propriétaire'],
  aliases: ['Votre situation'],
  update: 'if_empty',
});
const notes = field({ key: 'notes', label: 'Remarques', type: 'text' });
const definitions = [budget, situation, notes];
const refusedBudget = messages.fields.leadValueRefused('Budget', 'budget');

describe('reading a lead’s custom field values', () => {
  it('reads a member named as a key or an alias (as names compare), `fields` and `fields[key]`; none is unknown', () => {
    const { lead, warnings } = interpretLead(
      {
        email: 'a@b.fr',
        ' QUEL EST VOTRE BUDGET ? ': '1 500,50',
        'votre situation': 'propriétaire',
        fields: { notes: 'Rappeler le soir' },
      },
      definitions,
    );
    expect(lead.fields).toEqual({ budget: 1500.5, situation: 'Propriétaire', notes: 'Rappeler le soir' });
    expect(warnings).toEqual([]);
    const form = interpretLead({ email: 'a@b.fr', 'fields[budget]': '2000', 'fields[Situation]': 'Locataire' }, [
      ...definitions,
    ]);
    expect(form.lead.fields).toEqual({ budget: 2000, situation: 'Locataire' });
    expect(form.warnings).toEqual([]);
  });

  it('gives `fields` priority, then the key, then an alias; an empty member gives nothing, the next one counts', () => {
    const read = (body: Record<string, unknown>) =>
      interpretLead({ email: 'a@b.fr', ...body }, definitions).lead.fields;
    expect(read({ 'Quel est votre budget ?': '1', budget: '2', fields: { budget: '3' } })).toEqual({ budget: 3 });
    expect(read({ 'Quel est votre budget ?': '1', 'fields[budget]': '3', budget: '2' })).toEqual({ budget: 3 });
    expect(read({ 'Quel est votre budget ?': '1', budget: '2' })).toEqual({ budget: 2 });
    expect(read({ 'Quel est votre budget ?': '1', budget: ' ', fields: { budget: null } })).toEqual({ budget: 1 });
    expect(read({ budget: '', 'Quel est votre budget ?': '' })).toBeUndefined();
  });

  it('ignores a value that does not fit, with a French warning naming the field by label and key, never the value', () => {
    const secret = 'environ 5000 euros';
    const { lead, warnings } = interpretLead(
      { email: 'a@b.fr', budget: secret, 'Quel est votre budget ?': '100', situation: 'Nomade' },
      definitions,
    );
    expect(lead.fields).toBeUndefined();
    expect(warnings).toEqual([refusedBudget, messages.fields.leadValueRefused('Situation', 'situation')]);
    expect(warnings).toEqual([
      'Champ « Budget » (budget) ignoré : la valeur envoyée ne correspond pas à son type.',
      'Champ « Situation » (situation) ignoré : la valeur envoyée ne correspond pas à son type.',
    ]);
    expect(warnings.join(' ')).not.toContain('5000');
    expect(warnings.join(' ')).not.toContain('Nomade');
  });

  it('reports a `fields` that is not an object, an unknown key in it (an alias is none there), as unknown fields', () => {
    const { lead, warnings } = interpretLead(
      { email: 'a@b.fr', fields: { budgte: 1, 'Votre situation': 'Locataire', notes: 'ok' }, 'fields[nope]': 'x' },
      definitions,
    );
    expect(lead.fields).toEqual({ notes: 'ok' });
    expect(warnings).toEqual([
      'Champ inconnu ignoré : « fields.budgte ».',
      'Champ inconnu ignoré : « fields.Votre situation ».',
      'Champ inconnu ignoré : « fields[nope] ».',
    ]);
    for (const fields of ['budget=1', ['budget'], 42]) {
      expect(interpretLead({ email: 'a@b.fr', fields }, definitions).warnings).toEqual([
        messages.fields.leadFieldsNotObject,
      ]);
    }
    expect(interpretLead({ email: 'a@b.fr', fields: null }, definitions).warnings).toEqual([]);
  });

  it('reads every such member as an unknown field without the definitions (a deleted field, the look-up)', () => {
    const { lead, warnings } = interpretLead({ email: 'a@b.fr', budget: '1', 'Quel est votre budget ?': '2' });
    expect(lead.fields).toBeUndefined();
    expect(warnings).toEqual([
      'Champ inconnu ignoré : « budget ».',
      'Champ inconnu ignoré : « Quel est votre budget ? ».',
    ]);
  });

  it('counts refused values among the 20 named ignored fields', () => {
    const body: Record<string, unknown> = { email: 'a@b.fr', budget: 'beaucoup' };
    for (let index = 0; index < 30; index += 1) body[`inconnu_${index}`] = 'x';
    const { warnings } = interpretLead(body, definitions);
    expect(warnings).toHaveLength(maxNamedIgnoredFields + 1);
    expect(warnings).not.toContain(refusedBudget);
    expect(warnings.at(-1)).toBe(messages.lead.moreIgnored(11));
  });
});

describe('what a lead writes of its values (leadFieldValues)', () => {
  it('takes every value for a new contact, in definition order', () => {
    expect(leadFieldValues({ notes: 'x', budget: 10 }, undefined, definitions)).toEqual({
      changed: { budget: 10, notes: 'x' },
      warnings: [],
    });
  });

  it('overwrites with `always`, keeps a set value with `if_empty`, and changes nothing for an equal value', () => {
    const stored = { budget: 10, situation: 'Locataire', notes: 'x' };
    expect(leadFieldValues({ budget: 20, situation: 'Propriétaire', notes: 'x' }, stored, definitions)).toEqual({
      changed: { budget: 20 },
      warnings: [],
    });
    expect(leadFieldValues({ situation: 'Propriétaire' }, { budget: 10 }, definitions).changed).toEqual({
      situation: 'Propriétaire',
    });
  });

  it('reads what is stored as the definition now does: a re-cased option is the same value', () => {
    expect(leadFieldValues({ situation: 'Locataire' }, { situation: 'locataire' }, definitions).changed).toEqual({});
    const always = [{ ...situation, update: 'always' as const }];
    expect(leadFieldValues({ situation: 'Locataire' }, { situation: 'locataire' }, always).changed).toEqual({});
  });

  it('ignores, with a warning naming the field, a value that would take the values past 16 KB', () => {
    const long = 'x'.repeat(1000);
    const many = Array.from({ length: 20 }, (_, index) =>
      field({ key: `texte_${index}`, label: `Texte ${index}`, type: 'text' }),
    );
    const sent = Object.fromEntries(many.map((definition) => [definition.key, long]));
    const { changed, warnings } = leadFieldValues(sent, undefined, many);
    expect(Object.keys(changed)).toHaveLength(16);
    expect(JSON.stringify(changed).length).toBeLessThanOrEqual(maxFieldValuesBytes);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toBe(messages.fields.leadValuesTooLarge('Texte 16', 'texte_16', 16));
    expect(warnings[0]).toBe(
      'Champ « Texte 16 » (texte_16) ignoré : les valeurs des champs d’un prospect dépasseraient 16 Ko.',
    );
  });

  it('counts only the values of live fields', () => {
    const stored = { efface: 'y'.repeat(16_000) };
    expect(leadFieldValues({ notes: 'x'.repeat(900) }, stored, definitions).warnings).toEqual([]);
  });
});

describe('decideLead with custom field values', () => {
  const ids = { ws: 'ws-1', known: 'p-known', fresh: 'p-new' };
  const config = (fields: FieldEntry[]): WorkspaceConfig => ({
    workspace: { id: ids.ws, name: 'Acme', created_at: '2026-01-01T00:00:00.000Z' },
    settings: defaultWorkspaceSettings,
    members: [],
    tags: [],
    salesPipelines: [],
    recruitmentPipelines: [],
    fields,
  });
  const known = {
    kind: 'existing' as const,
    prospectId: ids.known,
    email: 'lea@exemple.test',
    phone: undefined,
    takesNewEmail: false,
    takesNewPhone: false,
    warnings: [],
  };
  const hint = { pipeline_id: null, stage_id: null };
  const marker = { key: { pk: 'UNIQ#ws-1#EMAIL#x', sk: 'UNIQ' }, placement: hint };
  const snapshot = (overrides: Partial<LeadSnapshot>): LeadSnapshot => ({
    config: config(definitions),
    phone: phoneMatching(defaultPhoneSettings),
    match: { kind: 'new' },
    marker: undefined,
    ...overrides,
  });
  const call = (fields: LeadCall['lead']['fields'], inputWarnings: string[] = []): LeadCall => ({
    lead: { email: 'lea@exemple.test', tag_ids: [], ...(fields === undefined ? {} : { fields }) },
    inputWarnings,
    workspaceId: ids.ws,
    newProspectId: ids.fresh,
    actor: { kind: 'webhook', id: 'endpoint-1' },
    now: '2026-11-22T10:00:00.000Z',
  });
  const stored = (fields?: Prospect['fields']) =>
    ({ id: ids.known, pipeline_id: null, stage_id: null, version: 4, ...(fields ? { fields } : {}) }) as Prospect;

  it('creates a new contact with its values as the map `fields`, and without the map when there is none', () => {
    const decision = decideLead(snapshot({}), call({ budget: 1500, situation: 'Locataire' }, [refusedBudget]));
    expect(decision).toMatchObject({
      kind: 'write',
      write: {
        kind: 'create',
        prospect: { fields: { budget: 1500, situation: 'Locataire' } },
        answer: { status: 'created', warnings: [refusedBudget] },
      },
    });
    const without = decideLead(snapshot({}), call(undefined));
    if (without.kind !== 'write' || without.write.kind !== 'create') throw new Error('expected create');
    expect(without.write.prospect).not.toHaveProperty('fields');
  });

  it('reads a known contact given values again when its prospect is not read: the write is on its version', () => {
    expect(decideLead(snapshot({ match: known, marker }), call({ budget: 1 }))).toEqual({ kind: 'lost-race' });
  });

  it('writes a known contact’s values on the version read, each as its field’s `update` says', () => {
    const decision = decideLead(
      snapshot({ match: known, marker, prospect: stored({ budget: 10, situation: 'Locataire' }) }),
      call({ budget: 20, situation: 'Propriétaire', notes: 'Rappeler' }),
    );
    expect(decision).toMatchObject({
      kind: 'write',
      write: {
        kind: 'take-contacts',
        update: { fields: { budget: 20, notes: 'Rappeler' }, email: 'lea@exemple.test' },
        answer: { status: 'existing', placement: 'existant', warnings: [messages.lead.notMoved] },
      },
    });
  });

  it('writes no values when none changes, and a known contact without values on its marker’s hint as before', () => {
    const unchanged = decideLead(
      snapshot({ match: known, marker, prospect: stored({ budget: 10 }) }),
      call({ budget: 10 }),
    );
    if (unchanged.kind !== 'write' || unchanged.write.kind !== 'take-contacts')
      throw new Error('expected take-contacts');
    expect(unchanged.write.update).not.toHaveProperty('fields');
    expect(decideLead(snapshot({ match: known, marker }), call(undefined))).toMatchObject({
      kind: 'write',
      write: { kind: 'update-known', placement: { expected: hint, refresh: false } },
    });
  });

  it('warns, after the reading’s warnings, about a value past the 16 KB of a known contact’s values', () => {
    const texts = Array.from({ length: 17 }, (_, index) => field({ key: `texte_${index}`, type: 'text' }));
    const full = Object.fromEntries(texts.slice(0, 16).map((definition) => [definition.key, 'x'.repeat(1000)]));
    const decision = decideLead(
      snapshot({ config: config([budget, ...texts]), match: known, marker, prospect: stored(full) }),
      call({ budget: 10, texte_16: 'y'.repeat(200) }, ['lu']),
    );
    expect(decision).toMatchObject({
      kind: 'write',
      write: {
        update: { fields: { budget: 10 } },
        answer: {
          warnings: ['lu', messages.fields.leadValuesTooLarge('texte_16', 'texte_16', 16), messages.lead.notMoved],
        },
      },
    });
  });

  it('takes only live fields: a deleted field’s value is not written', () => {
    const decision = decideLead(
      snapshot({ config: config([budget, { key: 'notes', deleted_at: '2026-11-01T00:00:00.000Z' }]) }),
      call({ budget: 1, notes: 'x' }),
    );
    expect(decision).toMatchObject({ write: { prospect: { fields: { budget: 1 } } } });
  });
});
