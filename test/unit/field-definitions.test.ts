import {
  fieldChangeSchema,
  fieldListing,
  fieldNamed,
  maxDefinitionsBytes,
  maxFields,
  newFieldSchema,
  reservedFieldNames,
  withChangedField,
  withDeletedField,
  withNewField,
  type FieldChangeInput,
  type NewFieldInput,
} from '../../lib/domain/fields/field-definitions';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  UnknownReferenceError,
  type FieldDefinition,
  type FieldEntry,
} from '../../lib/domain/model';
import { messages } from '../../lib/messages';

/*
 * The rules of a custom field's definition (docs/api.md#custom-fields): what a body may say (the schemas of
 * POST /fields and PATCH /fields/{key}), then what the workspace's other fields allow (names taken, limits, options
 * that only grow, keys never reused), decided on the configuration without DynamoDB.
 */

const refusals = messages.fields;

/** The first issue of a body the schema refuses: the field it names and its message; none when accepted. */
function refusalOf(schema: typeof newFieldSchema | typeof fieldChangeSchema, body: unknown) {
  const parsed = schema.safeParse(body);
  if (parsed.success) return undefined;
  const [issue] = parsed.error.issues;
  const field = issue?.code === 'unrecognized_keys' ? issue.keys[0] : issue?.path[0];
  return { field: field === undefined ? 'body' : String(field), message: issue?.message };
}
const newField = (body: Record<string, unknown>) => ({ key: 'societe', label: 'Société', type: 'text', ...body });
const refusedNew = (body: Record<string, unknown>) => refusalOf(newFieldSchema, newField(body));
const parsedNew = (body: Record<string, unknown>): NewFieldInput => newFieldSchema.parse(newField(body));

const definition = (key: string, more: Partial<FieldDefinition> = {}): FieldDefinition => ({
  key,
  label: key,
  type: 'text',
  options: null,
  aliases: [],
  update: 'always',
  ...more,
});
const channels = definition('canaux', {
  label: 'Canaux',
  type: 'multi_choice',
  options: ['Instagram', 'TikTok', 'YouTube'],
  aliases: ['Sur quels réseaux êtes-vous ?'],
});
const company = definition('societe', { label: 'Société', aliases: ['Nom de votre société', 'Entreprise'] });
const workspace = (...fields: FieldEntry[]) => ({ fields });
const tombstone = (key: string): FieldEntry => ({ key, deleted_at: '2026-12-01T10:00:00.000Z' });
/** A choice of 50 options of 100 characters, 10 aliases of 200 and a label of 100: about 7.4 KB as JSON. */
const heavy = (key: string): FieldDefinition =>
  definition(key, {
    label: key.padEnd(100, 'l'),
    type: 'choice',
    options: Array.from({ length: 50 }, (_, index) => `${index}`.padEnd(100, 'o')),
    aliases: Array.from({ length: 10 }, (_, index) => `${key} ${index}`.padEnd(200, 'a')),
  });
const many = (count: number, prefix = 'champ') =>
  Array.from({ length: count }, (_, index) => definition(`${prefix}_${index}`));

describe('the key', () => {
  it.each(['a', 'societe', 'budget_2027', 'x_', `a${'b'.repeat(39)}`])('takes %j', (key) => {
    expect(refusedNew({ key })).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['starting with a digit', '2027_budget'],
    ['starting with _', '_societe'],
    ['in capitals', 'Societe'],
    ['with an accent', 'société'],
    ['with a hyphen', 'nom-societe'],
    ['with a space', 'nom societe'],
    ['of 41 characters', `a${'b'.repeat(40)}`],
  ])('refuses a key %s (400 naming key)', (_what, key) => {
    expect(refusedNew({ key })).toEqual({ field: 'key', message: refusals.keyPattern });
  });

  it('refuses a key that is not a string', () => {
    expect(refusedNew({ key: 42 })).toMatchObject({ field: 'key' });
  });

  it.each(reservedFieldNames)('refuses the reserved name %j as a key (400 naming key)', (key) => {
    expect(refusedNew({ key })).toEqual({ field: 'key', message: refusals.reservedName });
  });

  it('reserves exactly the names the lead webhook reads itself', () => {
    expect([...reservedFieldNames].sort()).toEqual(
      [
        'first_name',
        'last_name',
        'email',
        'phone',
        'social_url',
        'source',
        'tag_ids',
        'tags',
        'pipeline',
        'stage',
        'fields',
        'id',
      ].sort(),
    );
  });
});

describe('the label, the options and the aliases', () => {
  it('trims the label, and counts characters, not UTF-16 units', () => {
    expect(parsedNew({ label: '  Société  ' }).label).toBe('Société');
    expect(refusedNew({ label: '😀'.repeat(100) })).toBeUndefined();
    expect(refusedNew({ label: ` ${'x'.repeat(100)} ` })).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['blank', ' \t '],
    ['of 101 characters', 'x'.repeat(101)],
  ])('refuses a label %s (400 naming label)', (_what, label) => {
    expect(refusedNew({ label })).toEqual({ field: 'label', message: refusals.textLength('label', 100) });
  });

  it('takes options of 1 to 100 characters, trimmed, and refuses longer or blank ones', () => {
    const choice = (options: string[]) => refusedNew({ type: 'choice', options });
    expect(parsedNew({ type: 'choice', options: [' Oui ', 'x'.repeat(100)] }).options).toEqual([
      'Oui',
      'x'.repeat(100),
    ]);
    expect(choice(['x'.repeat(101)])).toEqual({ field: 'options', message: refusals.textLength('option', 100) });
    expect(choice(['Oui', '  '])).toEqual({ field: 'options', message: refusals.textLength('option', 100) });
  });

  it('refuses an option with a comma: a multiple answer separates options by commas', () => {
    expect(refusedNew({ type: 'multi_choice', options: ['Instagram, TikTok'] })).toEqual({
      field: 'options',
      message: refusals.optionComma,
    });
  });

  it('takes 1 to 50 options', () => {
    const options = (count: number) => Array.from({ length: count }, (_, index) => `Option ${index}`);
    expect(refusedNew({ type: 'choice', options: options(1) })).toBeUndefined();
    expect(refusedNew({ type: 'choice', options: options(50) })).toBeUndefined();
    for (const count of [0, 51]) {
      expect(refusedNew({ type: 'choice', options: options(count) })).toEqual({
        field: 'options',
        message: refusals.optionsCount(50),
      });
    }
  });

  it.each([
    ['the same case aside', ['Oui', 'OUI']],
    ['surrounding spaces aside', ['Oui', ' Oui']],
    ['the two spellings of é aside', ['Café', 'Cafe\u0301']],
  ])('refuses two options of the same name, %s', (_what, options) => {
    expect(refusedNew({ type: 'choice', options })).toEqual({ field: 'options', message: refusals.optionsRepeated });
  });

  it('keeps options whose accents differ apart', () => {
    expect(refusedNew({ type: 'choice', options: ['Café', 'Cafe'] })).toBeUndefined();
  });

  it('requires options for the two choice types, and refuses them for the others (400 naming options)', () => {
    for (const type of ['choice', 'multi_choice']) {
      expect(refusedNew({ type })).toEqual({ field: 'options', message: refusals.optionsRequired });
    }
    for (const type of ['text', 'number', 'date', 'boolean']) {
      expect(refusedNew({ type, options: ['Oui'] })).toEqual({ field: 'options', message: refusals.optionsRefused });
      expect(refusedNew({ type })).toBeUndefined();
    }
  });

  it('refuses an unknown type', () => {
    expect(refusedNew({ type: 'email' })).toEqual({ field: 'type', message: refusals.type });
  });

  it('takes 0 to 10 aliases of 1 to 200 characters, no two the same name', () => {
    const aliases = (count: number) => Array.from({ length: count }, (_, index) => `Question ${index}`);
    expect(refusedNew({ aliases: [] })).toBeUndefined();
    expect(refusedNew({ aliases: aliases(10) })).toBeUndefined();
    expect(refusedNew({ aliases: aliases(11) })).toEqual({ field: 'aliases', message: refusals.aliasesCount(10) });
    expect(refusedNew({ aliases: ['x'.repeat(200)] })).toBeUndefined();
    expect(refusedNew({ aliases: ['x'.repeat(201)] })).toEqual({
      field: 'aliases',
      message: refusals.textLength('alias', 200),
    });
    expect(refusedNew({ aliases: ['Entreprise', ' ENTREPRISE'] })).toEqual({
      field: 'aliases',
      message: refusals.aliasesRepeated,
    });
  });

  it.each(['email', 'Email', ' TAGS ', 'Fields', 'Tag_Ids'])(
    'refuses the reserved name %j as an alias, compared as names (400 naming aliases)',
    (alias) => {
      expect(refusedNew({ aliases: ['Entreprise', alias] })).toEqual({
        field: 'aliases',
        message: refusals.reservedName,
      });
    },
  );

  it('takes `update` always or if_empty, always when absent', () => {
    expect(parsedNew({}).update).toBeUndefined();
    expect(withNewField(workspace(), parsedNew({})).at(-1)).toEqual(definition('societe', { label: 'Société' }));
    expect(parsedNew({ update: 'if_empty' }).update).toBe('if_empty');
    expect(refusedNew({ update: 'jamais' })).toEqual({ field: 'update', message: refusals.updateRule });
  });

  it('refuses a part it does not know', () => {
    expect(refusedNew({ couleur: 'rouge' })).toMatchObject({ field: 'couleur' });
  });
});

describe('a new field among the others', () => {
  it('is last, every part written out, options null for a type without choices', () => {
    const fields = withNewField(workspace(company), parsedNew({ key: 'budget', label: 'Budget', type: 'number' }));
    expect(fields).toEqual([company, definition('budget', { label: 'Budget', type: 'number' })]);
  });

  it(`takes a ${maxFields}th field, refuses a ${maxFields + 1}st (422); deleted fields do not count`, () => {
    const full = many(maxFields - 1);
    expect(withNewField(workspace(...full), parsedNew({}))).toHaveLength(maxFields);
    const over = () => withNewField(workspace(...many(maxFields)), parsedNew({}));
    expect(over).toThrow(new UnknownReferenceError(refusals.tooMany(maxFields)));
    const withTombstones = workspace(
      ...full,
      ...Array.from({ length: 10 }, (_, index) => tombstone(`ancien_${index}`)),
    );
    expect(withNewField(withTombstones, parsedNew({})).filter((entry) => 'label' in entry)).toHaveLength(maxFields);
  });

  it('refuses definitions over 64 KB in all (422); deleted fields do not count', () => {
    const eight = Array.from({ length: 8 }, (_, index) => heavy(`gros_${index}`));
    expect(Buffer.byteLength(JSON.stringify(eight))).toBeLessThan(maxDefinitionsBytes);
    const ninth = heavy('gros_8') as NewFieldInput;
    expect(Buffer.byteLength(JSON.stringify([...eight, ninth]))).toBeGreaterThan(maxDefinitionsBytes);
    expect(() => withNewField(workspace(...eight), ninth)).toThrow(
      new UnknownReferenceError(refusals.tooLarge(maxDefinitionsBytes / 1024)),
    );
    const oneDeleted = [...eight.slice(0, 7), tombstone('gros_7')];
    expect(withNewField(workspace(...oneDeleted), ninth)).toHaveLength(9);
  });

  it.each([
    ['its key as another’s key', { key: 'societe' }, 'societe'],
    ['its key as another’s alias, in other case', { key: 'entreprise' }, 'entreprise'],
    ['an alias as another’s key, in capitals', { key: 'nom', aliases: ['SOCIETE'] }, 'SOCIETE'],
    [
      'an alias as another’s alias, spaces around',
      { key: 'nom', aliases: [' nom de votre société '] },
      'nom de votre société',
    ],
    [
      'an alias as another’s alias, é decomposed',
      { key: 'nom', aliases: ['Nom de votre socie\u0301te\u0301'] },
      'Nom de votre socie\u0301te\u0301',
    ],
  ])('refuses %s (409)', (_what, body, clash) => {
    const make = () => withNewField(workspace(company), parsedNew(body));
    const error = body.key === 'societe' ? refusals.keyTaken('societe') : refusals.nameTaken(clash.trim());
    expect(make).toThrow(new ConflictError(error));
  });

  it('takes an alias whose accents differ from another field’s alias', () => {
    expect(withNewField(workspace(company), parsedNew({ key: 'nom', aliases: ['Nom de votre societe'] }))).toHaveLength(
      2,
    );
  });

  it('never uses a deleted field’s key again (409), yet frees its aliases', () => {
    const deleted = workspace(tombstone('societe'));
    expect(() => withNewField(deleted, parsedNew({}))).toThrow(new ConflictError(refusals.keyTaken('societe')));
    expect(() => withNewField(deleted, parsedNew({ key: 'nom', aliases: ['Societe'] }))).toThrow(
      new ConflictError(refusals.nameTaken('Societe')),
    );
    const afterDeletion = workspace(...withDeletedField(workspace(company), 'societe', '2026-12-01T10:00:00.000Z'));
    expect(withNewField(afterDeletion, parsedNew({ key: 'nom', aliases: ['Entreprise'] })).at(-1)).toMatchObject({
      key: 'nom',
      aliases: ['Entreprise'],
    });
  });
});

describe('a change of a field', () => {
  const change = (body: unknown): FieldChangeInput => fieldChangeSchema.parse(body);

  it.each([
    ['type', { type: 'number' }, refusals.typeFixed],
    ['key', { key: 'entreprise' }, refusals.keyFixed],
  ])('refuses the %s in the body (400 naming it)', (field, body, message) => {
    expect(refusalOf(fieldChangeSchema, { label: 'Entreprise', ...body })).toEqual({ field, message });
  });

  it('refuses an empty change, and checks each part as a new field’s', () => {
    expect(refusalOf(fieldChangeSchema, {})).toEqual({ field: 'body', message: messages.rules.oneFieldToChange });
    expect(refusalOf(fieldChangeSchema, { label: ' ' })).toMatchObject({ field: 'label' });
    expect(refusalOf(fieldChangeSchema, { options: ['A,B'] })).toEqual({
      field: 'options',
      message: refusals.optionComma,
    });
    expect(refusalOf(fieldChangeSchema, { aliases: ['Phone'] })).toEqual({
      field: 'aliases',
      message: refusals.reservedName,
    });
  });

  it('replaces the parts sent, and keeps the field’s place', () => {
    const changed = withChangedField(
      workspace(company, channels),
      'societe',
      change({ label: 'Entreprise', update: 'if_empty' }),
    );
    expect(changed).toEqual({
      fields: [{ ...company, label: 'Entreprise', update: 'if_empty' }, channels],
      definition: { ...company, label: 'Entreprise', update: 'if_empty' },
    });
  });

  it('keeps the new order of the options, and their new spelling, when every one is still there', () => {
    const options = ['youtube', 'Instagram', 'TikTok', 'LinkedIn'];
    const changed = withChangedField(workspace(channels), 'canaux', change({ options }));
    expect(changed).toMatchObject({ definition: { options } });
  });

  it('refuses options that leave one out, compared as names (409): values use them', () => {
    expect(() =>
      withChangedField(workspace(channels), 'canaux', change({ options: ['Instagram', 'YouTube'] })),
    ).toThrow(new ConflictError(refusals.optionDropped('TikTok')));
  });

  it('refuses options for a type without choices (400 naming options)', () => {
    const make = () => withChangedField(workspace(company), 'societe', change({ options: ['Acme'] }));
    expect(make).toThrow(InvalidInputError);
    expect(make).toThrow(messages.body.invalidField('options', refusals.optionsRefused));
  });

  it('refuses an alias that is another field’s key or alias (409)', () => {
    const make = (aliases: string[]) => () =>
      withChangedField(workspace(company, channels), 'canaux', change({ aliases }));
    expect(make(['Societe'])).toThrow(new ConflictError(refusals.nameTaken('Societe')));
    expect(make(['entreprise'])).toThrow(new ConflictError(refusals.nameTaken('entreprise')));
  });

  it('refuses a change taking the definitions over 64 KB (422)', () => {
    const eight = Array.from({ length: 8 }, (_, index) => heavy(`gros_${index}`));
    const options = [
      ...(channels.options ?? []),
      ...Array.from({ length: 47 }, (_, index) => `${index}`.padEnd(100, 'o')),
    ];
    const aliases = Array.from({ length: 10 }, (_, index) => `Réseaux ${index}`.padEnd(200, 'a'));
    expect(() => withChangedField(workspace(...eight, channels), 'canaux', change({ options, aliases }))).toThrow(
      new UnknownReferenceError(refusals.tooLarge(maxDefinitionsBytes / 1024)),
    );
    expect(
      withChangedField(workspace(...eight.slice(1), channels), 'canaux', change({ options, aliases })),
    ).toMatchObject({
      definition: { options, aliases },
    });
  });

  it('answers `unchanged` for a change that says what the definition says', () => {
    expect(withChangedField(workspace(company), 'societe', change({ label: 'Société', update: 'always' }))).toEqual({
      unchanged: company,
    });
    expect(
      withChangedField(workspace(channels), 'canaux', change({ options: ['Instagram', 'TikTok', 'YouTube'] })),
    ).toEqual({
      unchanged: channels,
    });
  });

  it('refuses an unknown or deleted key (404)', () => {
    for (const key of ['inconnu', 'ancien']) {
      expect(() => withChangedField(workspace(company, tombstone('ancien')), key, change({ label: 'X' }))).toThrow(
        new NotFoundError(refusals.unknownField(key)),
      );
    }
  });
});

describe('a deletion', () => {
  it('leaves a tombstone in the field’s place, its values to purge, and the listing without it', () => {
    const fields = withDeletedField(workspace(company, channels), 'societe', '2026-12-01T10:00:00.000Z');
    expect(fields).toEqual([{ key: 'societe', deleted_at: '2026-12-01T10:00:00.000Z', purging: true }, channels]);
    expect(fieldListing(workspace(...fields))).toEqual({ fields: [channels] });
    expect(() => fieldNamed(fields, 'societe')).toThrow(NotFoundError);
    expect(() => withDeletedField(workspace(...fields), 'societe', '2026-12-02T10:00:00.000Z')).toThrow(
      new NotFoundError(refusals.unknownField('societe')),
    );
  });

  it('lists live fields in creation order, their six parts only', () => {
    const stored = { ...company, type: 'text' as const, extra: 'stockée' } as FieldDefinition;
    expect(fieldListing(workspace(channels, tombstone('ancien'), stored))).toEqual({ fields: [channels, company] });
  });
});
