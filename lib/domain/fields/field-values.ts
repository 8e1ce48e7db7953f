import { nameKey, type FieldDefinition, type FieldValue, type FieldValues } from '../model';

/*
 * How a custom field's value is read from what a form or an integration sends, and how a prospect's values are shown
 * (docs/api.md#custom-fields). Every type reads the ways a French form writes its answers and answers in one
 * canonical form, which it reads back as the same value.
 */

/** What reading a value gives: the value in its answered form, nothing (an empty answer), or a refusal. */
export type FieldReading = { kind: 'value'; value: FieldValue } | { kind: 'empty' } | { kind: 'refused' };

const empty: FieldReading = { kind: 'empty' };
const refused: FieldReading = { kind: 'refused' };
const valueOf = (value: FieldValue): FieldReading => ({ kind: 'value', value });

/** The longest `text` value, in characters (code points) after trimming. */
export const maxTextLength = 1000;

/** Spaces a French number separates thousands with: space, no-break space, narrow no-break space. */
const thousandsSeparator = '[ \\u00a0\\u202f]';
const numberPattern = new RegExp(`^([+-]?)(\\d+|\\d{1,3}(?:${thousandsSeparator}\\d{3})+)(?:[.,](\\d+))?$`);

/**
 * A number the table stores and gives back as itself: 0, or a magnitude from 1E-130 (DynamoDB's smallest) up to
 * 2^53 - 1. Past that, the document client refuses to write it (it would lose digits) and would read one back as a
 * BigInt, so the write would fail with a 500 instead of the value being refused.
 */
const storable = (number: number): FieldReading => {
  const magnitude = Math.abs(number);
  if (magnitude === 0) return valueOf(0);
  return magnitude >= 1e-130 && magnitude <= Number.MAX_SAFE_INTEGER ? valueOf(number) : refused;
};

function readNumber(raw: unknown): FieldReading {
  if (typeof raw === 'number') return storable(raw);
  if (typeof raw !== 'string') return refused;
  const text = raw.trim();
  if (text === '') return empty;
  const match = numberPattern.exec(text);
  if (!match) return refused;
  const [, sign, whole = '', fraction] = match;
  return storable(
    Number(`${sign}${whole.replace(/[ \u00a0\u202f]/g, '')}${fraction === undefined ? '' : `.${fraction}`}`),
  );
}

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;
const frenchDate = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** A real calendar date of years 0001 to 9999, as `YYYY-MM-DD`; anything else is none. */
function calendarDate(year: number, month: number, day: number): string | undefined {
  if (year < 1 || month < 1 || month > 12 || day < 1) return undefined;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function readDate(raw: unknown): FieldReading {
  if (typeof raw !== 'string') return refused;
  const text = raw.trim();
  if (text === '') return empty;
  const iso = isoDate.exec(text);
  const french = frenchDate.exec(text);
  const date = iso
    ? calendarDate(Number(iso[1]), Number(iso[2]), Number(iso[3]))
    : french
      ? calendarDate(Number(french[3]), Number(french[2]), Number(french[1]))
      : undefined;
  return date === undefined ? refused : valueOf(date);
}

/** A Map, not an object literal: a word such as `constructor` or `__proto__` must find nothing, not a prototype's member. */
const booleanWords: ReadonlyMap<string, boolean> = new Map([
  ['oui', true],
  ['non', false],
  ['true', true],
  ['false', false],
  ['yes', true],
  ['no', false],
  ['1', true],
  ['0', false],
]);

function readBoolean(raw: unknown): FieldReading {
  if (typeof raw === 'boolean') return valueOf(raw);
  if (typeof raw !== 'string') return refused;
  const text = raw.trim();
  if (text === '') return empty;
  const value = booleanWords.get(text.toLowerCase());
  return value === undefined ? refused : valueOf(value);
}

/** `text`: trimmed, at most 1 000 characters; a number sent for it is its text, as a form would write it. */
function readText(raw: unknown): FieldReading {
  const text =
    typeof raw === 'string' ? raw.trim() : typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : undefined;
  if (text === undefined) return refused;
  if (text === '') return empty;
  return Array.from(text).length > maxTextLength ? refused : valueOf(text);
}

/** The option named (as names compare), as the definition writes it. */
const optionNamed = (options: readonly string[], name: string): string | undefined =>
  options.find((option) => nameKey(option) === nameKey(name));

function readChoice(raw: unknown, options: readonly string[]): FieldReading {
  if (typeof raw !== 'string') return refused;
  if (raw.trim() === '') return empty;
  const option = optionNamed(options, raw);
  return option === undefined ? refused : valueOf(option);
}

/** Options given as an array or one comma-separated string: in the definition's order, each once. */
function readMultiChoice(raw: unknown, options: readonly string[]): FieldReading {
  const names = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : undefined;
  if (names === undefined || names.some((name) => typeof name !== 'string')) return refused;
  const given = (names as string[]).filter((name) => name.trim() !== '');
  if (given.length === 0) return empty;
  const chosen = new Set<string>();
  for (const name of given) {
    const option = optionNamed(options, name);
    if (option === undefined) return refused;
    chosen.add(option);
  }
  return valueOf(options.filter((option) => chosen.has(option)));
}

/**
 * A value for this field from what was sent: its answered form, `empty` (null, blank, no option: the value is
 * absent) or `refused` (it does not fit the type).
 */
export function readFieldValue(definition: Pick<FieldDefinition, 'type' | 'options'>, raw: unknown): FieldReading {
  if (raw === null || raw === undefined) return empty;
  switch (definition.type) {
    case 'text':
      return readText(raw);
    case 'number':
      return readNumber(raw);
    case 'date':
      return readDate(raw);
    case 'boolean':
      return readBoolean(raw);
    case 'choice':
      return readChoice(raw, definition.options ?? []);
    case 'multi_choice':
      return readMultiChoice(raw, definition.options ?? []);
  }
}

/**
 * A prospect's `fields` as every view shows them: each field the workspace defines, in creation order, its value or
 * null. A value stored before its field's options were re-cased is shown as the definition now writes it; a value of
 * a deleted field, or one its definition no longer reads, is not shown.
 */
export function fieldsView(
  values: FieldValues | undefined,
  definitions: readonly FieldDefinition[],
): Record<string, FieldValue | null> {
  const view: Record<string, FieldValue | null> = {};
  for (const definition of definitions) {
    const stored = values?.[definition.key];
    const reading = stored === undefined ? empty : readFieldValue(definition, stored);
    view[definition.key] = reading.kind === 'value' ? reading.value : null;
  }
  return view;
}

/** The size DynamoDB and the 16 KB cap count a prospect's values at: their JSON in UTF-8. */
export const fieldValuesBytes = (values: FieldValues): number => Buffer.byteLength(JSON.stringify(values), 'utf8');

/** A prospect's values together, at most (docs/api.md#custom-fields). */
export const maxFieldValuesBytes = 16 * 1024;
