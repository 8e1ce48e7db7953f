import { formatDate } from './dates';
import type { components } from './settings-api';
import { texts } from './texts';

export type FieldDefinition = components['schemas']['FieldDefinition'];

/**
 * A custom field's value as the API answers it (docs/api.md#custom-fields): a text, a number, a boolean, a date
 * `YYYY-MM-DD` or an option (strings), the options of a multiple choice, or null for none. A prospect's `fields` and a
 * change entry of `fields.<key>` carry them so.
 */
export type FieldValue = string | number | boolean | string[] | null;

/** A prospect's custom fields, by key, as every view of a prospect carries them. */
export type FieldValues = Partial<Record<string, FieldValue>>;

/**
 * A change-log entry as the API lists it, its field `fields.<key>` for a custom field's value, whose before and after
 * are that field's values.
 */
export type ChangeEntry = Omit<components['schemas']['ChangeList']['changes'][number], 'field' | 'before' | 'after'> & {
  field: string;
  before: FieldValue;
  after: FieldValue;
};

const customPrefix = 'fields.';

/** The custom field's key a change entry names (`fields.<key>`); undefined for a prospect's own field. */
export const customFieldKey = (field: string): string | undefined =>
  field.startsWith(customPrefix) ? field.slice(customPrefix.length) : undefined;

const numbers = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 20 });

/**
 * A value as the page writes it: none as an empty value is written elsewhere, a yes-or-no in words, a number the
 * French way (« 1 500,5 »), a date field's date as the page writes dates, a multiple choice's options joined, a text
 * or an option as it is. `type` is the field's, when the page knows it (a date and a text are both strings).
 */
export function fieldValueText(value: FieldValue, type?: FieldDefinition['type']): string {
  if (value === null || (Array.isArray(value) && value.length === 0)) return texts.changes.empty;
  if (typeof value === 'boolean') return value ? texts.fields.yes : texts.fields.no;
  if (typeof value === 'number') return numbers.format(value);
  if (Array.isArray(value)) return value.join(', ');
  return type === 'date' ? formatDate(value) : value;
}
