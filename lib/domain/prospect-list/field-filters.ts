import { nameKey, type FieldDefinition, type FieldValue } from '../model';
import { readFieldValue } from '../fields/field-values';
import type { FieldFilter, FieldFilterValue } from './list-query';

/*
 * `fields.<key>` (docs/api.md#lists-of-prospects): a value is read as the field's type reads a PATCH's
 * (docs/api.md#field-types), then compared with the prospect's value as the type answers it, so that `1 500,50`
 * finds 1500.5, `25/12/2026` finds 2026-12-25, `Oui` finds true and an option finds it however it is cased.
 */

/** `text` compares as names do (docs/api.md#names-as-references): `Paris` finds ` paris `. */
const comparable = (definition: Pick<FieldDefinition, 'type'>, value: FieldValue): FieldFilterValue[] => {
  if (Array.isArray(value)) return value;
  return [definition.type === 'text' && typeof value === 'string' ? nameKey(value) : value];
};

/**
 * The filter the values of one `fields.<key>` ask for (any of them; for `multi_choice`, any of the options they
 * name), each once; undefined when one of them does not fit the type (or is blank).
 */
export function fieldFilterOf(definition: FieldDefinition, texts: readonly string[]): FieldFilter | undefined {
  const values: FieldFilterValue[] = [];
  for (const text of texts) {
    const reading = readFieldValue(definition, text);
    if (reading.kind !== 'value') return undefined;
    for (const value of comparable(definition, reading.value)) if (!values.includes(value)) values.push(value);
  }
  const { key, type, options } = definition;
  return { definition: { key, type, options }, values };
}

/**
 * Whether a prospect's stored value is one the filter asks for: read as its field now reads it (`fieldsView`
 * shows it so), a `multi_choice` carrying any option asked. A prospect without a value never matches.
 */
export function fieldFilterMatches(filter: FieldFilter, stored: FieldValue | undefined): boolean {
  if (stored === undefined) return false;
  const reading = readFieldValue(filter.definition, stored);
  if (reading.kind !== 'value') return false;
  return comparable(filter.definition, reading.value).some((value) => filter.values.includes(value));
}
