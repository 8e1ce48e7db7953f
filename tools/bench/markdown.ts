/** A GitHub Markdown table; cells are escaped for the pipe that separates them. */
export function table(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  rightAligned: readonly number[] = [],
): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rule = headers.map((_, index) => (rightAligned.includes(index) ? '---:' : '---'));
  return [headers, rule, ...rows].map((row) => `| ${row.map(cell).join(' | ')} |`).join('\n');
}

export const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

/** Capacity units: halves are real (eventually consistent reads), so one decimal when needed. */
export const units = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

export const dollars = (value: number) => `$${value.toFixed(2)}`;
