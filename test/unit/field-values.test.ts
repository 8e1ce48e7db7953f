import fc from 'fast-check';
import { fieldsView, maxTextLength, readFieldValue, type FieldReading } from '../../lib/domain/fields/field-values';
import { nameKey, type FieldDefinition, type FieldType, type FieldValue } from '../../lib/domain/model';

/*
 * The readers of a custom field's values (docs/api.md#custom-fields), by their properties: what each type accepts as a
 * French form writes it, what it refuses, and that an answered value reads back as itself.
 */

const definitionOf = (type: FieldType, options: string[] | null = null): FieldDefinition => ({
  key: 'champ',
  label: 'Champ',
  type,
  options,
  aliases: [],
  update: 'always',
});
const read = (type: FieldType, raw: unknown, options: string[] | null = null): FieldReading =>
  readFieldValue(definitionOf(type, options), raw);
const value = (answered: FieldValue): FieldReading => ({ kind: 'value', value: answered });
const refused: FieldReading = { kind: 'refused' };
const empty: FieldReading = { kind: 'empty' };

/** Spaces a French form separates thousands with, and surrounds answers with. */
const thousandsSeparators = [' ', '\u00a0', '\u202f'];
const padding = fc.constantFrom('', ' ', '  ', '\u00a0', '\t');
const padded = (text: fc.Arbitrary<string>) =>
  fc.tuple(padding, text, padding).map(([before, inner, after]) => `${before}${inner}${after}`);

/** Randomly upper- or lower-cased letter by letter. */
const anyCase = (word: string) => fc.mixedCase(fc.constant(word));

/** `1234567` written with a separator every three digits from the right. */
const grouped = (digits: string, separator: string) => digits.replace(/\B(?=(\d{3})+$)/g, separator);

describe('number', () => {
  const frenchNumber = fc.record({
    sign: fc.constantFrom('', '-', '+'),
    whole: fc.bigInt({ min: 0n, max: 10n ** 15n }).map(String),
    separator: fc.option(fc.constantFrom(...thousandsSeparators), { nil: undefined }),
    fraction: fc.option(fc.stringMatching(/^\d{1,6}$/), { nil: undefined }),
    decimal: fc.constantFrom(',', '.'),
  });

  it('reads a French-written number: thousands separated by any space, a `,` or `.` decimal, a sign', () => {
    fc.assert(
      fc.property(frenchNumber, padding, ({ sign, whole, separator, fraction, decimal }, pad) => {
        const written = `${sign}${separator === undefined ? whole : grouped(whole, separator)}`;
        const text = `${pad}${written}${fraction === undefined ? '' : `${decimal}${fraction}`}${pad}`;
        const expected = Number(`${sign === '-' ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`);
        expect(read('number', text)).toEqual(value(expected === 0 ? 0 : expected));
      }),
    );
  });

  /** What the table stores and reads back as itself: 0, or a magnitude from 1E-130 to 2^53 - 1. */
  const storable = (number: number) =>
    number === 0 || (Math.abs(number) >= 1e-130 && Math.abs(number) <= Number.MAX_SAFE_INTEGER);

  it('reads a JSON number the table stores as itself, -0 as 0', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (number) => {
        fc.pre(storable(number));
        expect(read('number', number)).toEqual(value(number === 0 ? 0 : number));
      }),
    );
    expect(read('number', Number.MAX_SAFE_INTEGER)).toEqual(value(Number.MAX_SAFE_INTEGER));
    expect(read('number', '-9 007 199 254 740 991')).toEqual(value(-Number.MAX_SAFE_INTEGER));
    expect(read('number', -1e-130)).toEqual(value(-1e-130));
  });

  it('refuses a number the table cannot store as itself (its write would fail), sent as JSON or written out', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (number) => {
        fc.pre(!storable(number));
        expect(read('number', number)).toEqual(refused);
      }),
    );
    const tooLarge = [Number.MAX_SAFE_INTEGER + 1, -1e200, 1e126, '9 007 199 254 740 992', `1${'0'.repeat(20)}`];
    for (const raw of [...tooLarge, 1e-131, Number.MIN_VALUE, `0,${'0'.repeat(140)}1`]) {
      expect(read('number', raw)).toEqual(refused);
    }
  });

  it('reads `1,500` as 1.5 and `1 500,50` as 1500.5', () => {
    expect(read('number', '1,500')).toEqual(value(1.5));
    expect(read('number', '1 500,50')).toEqual(value(1500.5));
    expect(read('number', '1\u202f500\u202f000')).toEqual(value(1_500_000));
  });

  it('refuses a dot as thousands separator before a decimal comma (`1.500,50`), and groups that are not threes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999 }),
        fc.stringMatching(/^\d{3}$/),
        fc.stringMatching(/^\d{1,3}$/),
        (head, group, fraction) => {
          expect(read('number', `${head}.${group},${fraction}`)).toEqual(refused);
          expect(read('number', `${head},${group}.${fraction}`)).toEqual(refused);
        },
      ),
    );
    for (const text of ['1 50', '1500 000', '1 5000', '12 34 567', '1,5,0', '.5', '5.', '1e3', '0x10', '−5', '5 €']) {
      expect(read('number', text)).toEqual(refused);
    }
  });

  it('refuses what is not finite, as a JSON number or as digits too long for one', () => {
    for (const raw of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, `1${'0'.repeat(400)}`]) {
      expect(read('number', raw)).toEqual(refused);
    }
    expect(read('number', 'Infinity')).toEqual(refused);
    expect(read('number', 'NaN')).toEqual(refused);
  });

  it('refuses another JSON type', () => {
    for (const raw of [true, false, [1], { value: 1 }, 1n]) expect(read('number', raw)).toEqual(refused);
  });
});

describe('date', () => {
  const daysIn = (year: number, month: number) =>
    new Date(Date.UTC(2000, month, 0)).getUTCDate() + leapDay(year, month);
  const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const leapDay = (year: number, month: number) => (month === 2 && !isLeap(year) ? -1 : 0);
  const pad = (number: number, length: number) => String(number).padStart(length, '0');
  const realDate = fc
    .record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }), day: fc.nat() })
    .map(({ year, month, day }) => ({ year, month, day: 1 + (day % daysIn(year, month)) }));

  it('reads every real date written YYYY-MM-DD or DD/MM/YYYY (zeros optional), answered YYYY-MM-DD', () => {
    fc.assert(
      fc.property(realDate, fc.boolean(), padding, ({ year, month, day }, zeros, around) => {
        const iso = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
        const dayMonth = zeros ? `${pad(day, 2)}/${pad(month, 2)}` : `${day}/${month}`;
        expect(read('date', `${around}${iso}${around}`)).toEqual(value(iso));
        expect(read('date', `${dayMonth}/${pad(year, 4)}`)).toEqual(value(iso));
      }),
    );
  });

  it('reads 29 February in a leap year only', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), (year) => {
        const iso = `${pad(year, 4)}-02-29`;
        const expected = isLeap(year) ? value(iso) : refused;
        expect(read('date', iso)).toEqual(expected);
        expect(read('date', `29/02/${pad(year, 4)}`)).toEqual(expected);
      }),
    );
    expect(read('date', '29/02/2024')).toEqual(value('2024-02-29'));
    expect(read('date', '29/02/2000')).toEqual(value('2000-02-29'));
    expect(read('date', '29/02/2025')).toEqual(refused);
    expect(read('date', '2100-02-29')).toEqual(refused);
  });

  it('refuses a day past the end of its month, month 0 or 13, day 0, year 0', () => {
    const pastTheEnd = fc
      .record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }), over: fc.nat() })
      .map(({ year, month, over }) => {
        const last = daysIn(year, month);
        return { year, month, day: last + 1 + (over % (99 - last)) };
      });
    fc.assert(
      fc.property(pastTheEnd, ({ year, month, day }) => {
        expect(read('date', `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`)).toEqual(refused);
        expect(read('date', `${day}/${month}/${pad(year, 4)}`)).toEqual(refused);
      }),
    );
    for (const text of [
      '31/02/2026',
      '30/02/2024',
      '31/04/2026',
      '2026-13-01',
      '00/01/2026',
      '2026-01-00',
      '0000-01-01',
    ]) {
      expect(read('date', text)).toEqual(refused);
    }
  });

  it('refuses other writings and other JSON types', () => {
    for (const raw of ['2026/01/15', '15-01-2026', '15/01/26', '2026-1-15', '15.01.2026', '2026-01-15T10:00:00Z']) {
      expect(read('date', raw)).toEqual(refused);
    }
    for (const raw of [20260115, true, ['2026-01-15'], { date: '2026-01-15' }])
      expect(read('date', raw)).toEqual(refused);
  });
});

describe('boolean', () => {
  const words: [string, boolean][] = [
    ['oui', true],
    ['non', false],
    ['true', true],
    ['false', false],
    ['yes', true],
    ['no', false],
    ['1', true],
    ['0', false],
  ];

  it('reads oui/non, true/false, yes/no, 1/0 in any case, and JSON booleans', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...words).chain(([word, meaning]) => fc.tuple(padded(anyCase(word)), fc.constant(meaning))),
        ([text, meaning]) => {
          expect(read('boolean', text)).toEqual(value(meaning));
        },
      ),
    );
    expect(read('boolean', true)).toEqual(value(true));
    expect(read('boolean', false)).toEqual(value(false));
  });

  it('refuses any other word, the names of an object’s members included, and other JSON types', () => {
    const known = new Set(words.map(([word]) => word));
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (text) => {
        fc.pre(text.trim() !== '' && !known.has(text.trim().toLowerCase()));
        expect(read('boolean', text)).toEqual(refused);
      }),
    );
    for (const text of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'vrai', 'o', 'y', '2']) {
      expect(read('boolean', text)).toEqual(refused);
    }
    for (const raw of [1, 0, ['oui'], { oui: true }]) expect(read('boolean', raw)).toEqual(refused);
  });
});

/**
 * Option names as a definition may hold them: no comma, distinct as names; of letters whose other case lower-cases
 * back to them (not `ß`, whose upper case `SS` is another name: docs/api.md#names-as-references).
 */
const letters = [...'abcdefghijklmnopqrstuvwxyzàâäçéèêëîïôöùûüÿœæ0123456789', ' ', '-', "'"];
const optionName = fc
  .string({ unit: fc.constantFrom(...letters), minLength: 1, maxLength: 20 })
  .filter((name) => name.trim() !== '' && name === name.trim());
const optionList = fc.uniqueArray(optionName, { minLength: 1, maxLength: 8, selector: nameKey });

/** A name as a form may send it: other case, spaces around. */
const sentAs = (option: string) => padded(fc.mixedCase(fc.constant(option)));

describe('choice', () => {
  it('reads an option in another case, with spaces around, as the definition writes it', () => {
    const optionSent = optionList.chain((options) =>
      fc
        .constantFrom(...options)
        .chain((option) => fc.tuple(fc.constant(options), fc.constant(option), sentAs(option))),
    );
    fc.assert(
      fc.property(optionSent, ([options, option, sent]) => {
        expect(read('choice', sent, options)).toEqual(value(option));
      }),
    );
    expect(read('choice', '  propriétaire ', ['Locataire', 'Propriétaire'])).toEqual(value('Propriétaire'));
    expect(read('choice', 'PROPRIÉTAIRE', ['Locataire', 'Propriétaire'])).toEqual(value('Propriétaire'));
  });

  it('refuses a name that is none of the options, and other JSON types', () => {
    fc.assert(
      fc.property(optionList, optionName, (options, other) => {
        fc.pre(!options.some((option) => nameKey(option) === nameKey(other)));
        expect(read('choice', other, options)).toEqual(refused);
      }),
    );
    const options = ['Locataire', 'Propriétaire'];
    for (const raw of [['Locataire'], 1, true, { option: 'Locataire' }, 'Locataire, Propriétaire']) {
      expect(read('choice', raw, options)).toEqual(refused);
    }
  });
});

describe('multi_choice', () => {
  /** Options, and some of them sent (each maybe repeated, in any order, in any case, padded). */
  const chosen = optionList.chain((options) =>
    fc.tuple(
      fc.constant(options),
      fc
        .array(fc.constantFrom(...options), { minLength: 1, maxLength: 12 })
        .chain((picked) => fc.tuple(fc.constant(picked), fc.tuple(...picked.map(sentAs)))),
    ),
  );

  it('reads a comma-separated string or an array, in definition order, each option once', () => {
    fc.assert(
      fc.property(chosen, ([options, [picked, sent]]) => {
        const expected = value(options.filter((option) => picked.includes(option)));
        expect(read('multi_choice', sent, options)).toEqual(expected);
        expect(read('multi_choice', sent.join(','), options)).toEqual(expected);
        expect(read('multi_choice', [...sent, ' '].join(', '), options)).toEqual(expected);
      }),
    );
    const options = ['Maison', 'Appartement', 'Terrain'];
    expect(read('multi_choice', 'terrain, maison,MAISON', options)).toEqual(value(['Maison', 'Terrain']));
  });

  it('refuses a list with an unknown option or a member that is not a string, and other JSON types', () => {
    fc.assert(
      fc.property(
        chosen,
        optionName,
        fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.object()),
        ([options, [, sent]], other, notText) => {
          expect(read('multi_choice', [...sent, notText], options)).toEqual(refused);
          fc.pre(!options.some((option) => nameKey(option) === nameKey(other)));
          expect(read('multi_choice', [...sent, other], options)).toEqual(refused);
          expect(read('multi_choice', [...sent, other].join(','), options)).toEqual(refused);
        },
      ),
    );
    for (const raw of [1, true, { Maison: true }]) expect(read('multi_choice', raw, ['Maison'])).toEqual(refused);
  });

  it('takes an empty list, blank names only, as no value', () => {
    expect(read('multi_choice', [], ['Maison'])).toEqual(empty);
    expect(read('multi_choice', ' , ,', ['Maison'])).toEqual(empty);
    expect(read('multi_choice', ['', ' '], ['Maison'])).toEqual(empty);
  });
});

describe('text', () => {
  it(`reads text trimmed, up to ${maxTextLength} characters (code points) once trimmed`, () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: maxTextLength }), padding, (text, around) => {
        const trimmed = text.trim();
        const length = Array.from(trimmed).length;
        const expected = trimmed === '' ? empty : length > maxTextLength ? refused : value(trimmed);
        expect(read('text', `${around}${text}${around}`)).toEqual(expected);
      }),
    );
    expect(read('text', '😀'.repeat(maxTextLength))).toEqual(value('😀'.repeat(maxTextLength)));
    expect(read('text', 1500.5)).toEqual(value('1500.5'));
  });

  it(`refuses text over ${maxTextLength} characters, and other JSON types`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.constantFrom('x', 'é', '😀'), (over, unit) => {
        expect(read('text', unit.repeat(maxTextLength + over))).toEqual(refused);
      }),
    );
    for (const raw of [true, ['texte'], { texte: 'x' }, Number.NaN]) expect(read('text', raw)).toEqual(refused);
  });
});

describe('every type', () => {
  const types: FieldType[] = ['text', 'number', 'date', 'boolean', 'choice', 'multi_choice'];
  const options = ['Locataire', 'Propriétaire', 'Hébergé'];
  const definitions = types.map((type) =>
    definitionOf(type, type === 'choice' || type === 'multi_choice' ? options : null),
  );
  /** What a form may send: values of every type's writings, and anything at all. */
  const sent = fc.oneof(
    fc.anything(),
    fc.constantFrom('1 500,50', '1500.5', '-0', '29/02/2024', '2026-01-15', 'OUI', 'non', ' propriétaire '),
    fc.constantFrom('hébergé, LOCATAIRE', ['Propriétaire', 'locataire', 'propriétaire']),
    fc.double(),
    fc.string({ unit: 'grapheme' }),
  );

  it('reads its answered value back as the same value (idempotence)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...definitions), sent, (definition, raw) => {
        const first = readFieldValue(definition, raw);
        if (first.kind !== 'value') return;
        expect(readFieldValue(definition, first.value)).toEqual(first);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes null, undefined and blank text as no value', () => {
    for (const definition of definitions) {
      for (const raw of [null, undefined, '', '   ', '\u00a0']) expect(readFieldValue(definition, raw)).toEqual(empty);
    }
  });
});

describe('fieldsView', () => {
  const definitions: FieldDefinition[] = [
    { ...definitionOf('number'), key: 'budget' },
    { ...definitionOf('choice', ['Locataire', 'Propriétaire']), key: 'situation' },
    { ...definitionOf('multi_choice', ['Maison', 'Appartement']), key: 'biens' },
    { ...definitionOf('date'), key: 'rappel' },
  ];
  const storedValue = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.boolean());

  it('shows every live key, in definition order, null when the prospect has no value', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('budget', 'situation', 'biens', 'rappel', 'efface'), storedValue),
        (values) => {
          const view = fieldsView(values, definitions);
          expect(Object.keys(view)).toEqual(['budget', 'situation', 'biens', 'rappel']);
          for (const definition of definitions) {
            const reading = readFieldValue(definition, values[definition.key]);
            expect(view[definition.key]).toEqual(reading.kind === 'value' ? reading.value : null);
          }
        },
      ),
    );
    expect(fieldsView(undefined, definitions)).toEqual({ budget: null, situation: null, biens: null, rappel: null });
  });

  it('shows an option stored before it was re-cased as the definition now writes it, and leaves out other keys', () => {
    const view = fieldsView(
      { budget: 1500, situation: 'propriétaire', biens: ['appartement', 'MAISON'], efface: 'x' },
      definitions,
    );
    expect(view).toEqual({ budget: 1500, situation: 'Propriétaire', biens: ['Maison', 'Appartement'], rappel: null });
  });
});
