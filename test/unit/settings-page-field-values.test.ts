import { customFieldKey, fieldValueText } from '../../app/src/field-values';

/**
 * A custom field's value as the settings page writes it (docs/api.md#custom-fields): on « Fiche prospect » and in a
 * change entry's before and after, whatever JSON type the API answers it as.
 */
describe('a custom field’s value on the page', () => {
  test('none, or a multiple choice with no option, is written as an empty value is', () => {
    expect(fieldValueText(null, 'text')).toBe('(aucun)');
    expect(fieldValueText([], 'multi_choice')).toBe('(aucun)');
  });

  test('a yes-or-no in words, a number the French way, options joined', () => {
    expect([fieldValueText(true, 'boolean'), fieldValueText(false, 'boolean')]).toEqual(['Oui', 'Non']);
    // Intl's French grouping: a narrow no-break space.
    expect(fieldValueText(1500.5, 'number')).toBe('1\u202f500,5');
    expect(fieldValueText(0.125, 'number')).toBe('0,125');
    expect(fieldValueText(['Instagram', 'YouTube'], 'multi_choice')).toBe('Instagram, YouTube');
  });

  test('a date field’s date as the page writes dates; a text or an option as it is, even one that looks like a date', () => {
    expect(fieldValueText('2026-12-07', 'date')).toBe('7 déc. 2026');
    expect(fieldValueText('2026-12-07', 'text')).toBe('2026-12-07');
    expect(fieldValueText('Pro', 'choice')).toBe('Pro');
    // A field the page no longer knows: its value by its JSON type only.
    expect(fieldValueText('2026-12-07')).toBe('2026-12-07');
  });

  test('a change entry names a custom field `fields.<key>`; the prospect’s own fields are no custom field', () => {
    expect(customFieldKey('fields.budget')).toBe('budget');
    expect(['stage', 'tags', 'note', 'follow_up'].map(customFieldKey)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
