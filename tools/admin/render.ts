/** Readable output (without --json): aligned fields and tables, `—` for an absent value. */
export type Shown = string | number | boolean | null | undefined;

export const shown = (value: Shown): string => {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'oui' : 'non';
  return String(value);
};

/** A value as a custom field answers it (a multiple choice as its options, comma-separated), or an entry's id. */
export const fieldValueText = (value: Shown | readonly string[]): Shown =>
  typeof value === 'object' && value !== null ? value.join(', ') : value;

export function fields(pairs: readonly (readonly [string, Shown])[]): string {
  const width = Math.max(0, ...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${label.padEnd(width)} : ${shown(value)}`).join('\n');
}

export function table(headers: readonly string[], rows: readonly (readonly Shown[])[], empty: string): string {
  if (rows.length === 0) return empty;
  const cells = rows.map((row) => row.map(shown));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...cells.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: readonly string[]): string =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}
