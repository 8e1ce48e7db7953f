import { readdirSync, readFileSync } from 'node:fs';
import { formatDate, formatDateTime, formatWallClock, parisTime } from '../../app/src/dates';
import { texts } from '../../app/src/texts';
import { messages } from '../../lib/messages';

/** The « À éviter » column of docs/glossary.md's table, one word or phrase per entry. */
function forbiddenWords(): string[] {
  const glossary = readFileSync(new URL('../../docs/glossary.md', import.meta.url), 'utf8');
  const rows = glossary.split('\n').filter((line) => line.startsWith('|'));
  const header = rows[0]?.split('|').map((cell) => cell.trim()) ?? [];
  const column = header.indexOf('À éviter');
  if (column < 0) throw new Error('docs/glossary.md has no « À éviter » column');
  return rows
    .slice(2)
    .flatMap((row) => (row.split('|')[column] ?? '').split(','))
    .map((word) => word.trim())
    .filter((word) => word !== '');
}

/** A date for every argument: each text function takes strings or numbers, and `texts.date` reads a date. */
const sample = '2026-12-07T13:05:00Z';

/** Every text of a catalogue, by its path: strings as they are, functions called with sample arguments. */
function textsOf(value: unknown, path: string): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') {
    const arity = (value as (...args: unknown[]) => unknown).length;
    return textsOf((value as (...args: unknown[]) => unknown)(...Array.from({ length: arity }, () => sample)), path);
  }
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) => textsOf(inner, `${path}.${key}`));
  return [];
}

const asWord = (word: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}_])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_])`, 'iu');

const pageTexts = textsOf(texts, 'texts');

/**
 * The command line's own texts (help, table headings): the string literals of tools/admin that are phrases (a space
 * in them), comments left out, and the option names they quote (`--workspace`) and the code a template interpolates
 * read as names, not words.
 */
function commandLineTexts(): [string, string][] {
  const folder = new URL('../../tools/admin/', import.meta.url);
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  return files.flatMap((file) => {
    const code = readFileSync(new URL(file, folder), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    return [...code.matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`]*)`/g)]
      .map((match) => match[1] ?? match[2] ?? match[3] ?? '')
      .filter((text) => text.includes(' '))
      .map((text): [string, string] => [`tools/admin/${file}`, text.replace(/\$\{[^}]*\}|--[a-z-]+/g, '')]);
  });
}
const serviceTexts = textsOf(messages, 'messages');

describe('docs/glossary.md', () => {
  const words = forbiddenWords();

  test('lists the words to avoid', () => {
    expect(words).toEqual(expect.arrayContaining(['token', 'étiquette', 'relance']));
  });

  test.each([
    ['the settings page (app/src/texts.ts)', pageTexts],
    ['the API and the command line (lib/messages.ts)', serviceTexts],
    ["the command line's help and headings (tools/admin)", commandLineTexts()],
  ])('%s uses none of them', (_catalogue, catalogue) => {
    expect(catalogue.length).toBeGreaterThan(50);
    const found = catalogue.flatMap(([path, text]) =>
      words.filter((word) => asWord(word).test(text)).map((word) => `${path}: « ${word} » in ${text}`),
    );
    expect(found).toEqual([]);
  });

  test('the page names no field or header of the API, but for the codes it shows in parentheses', () => {
    /** A scope or an event type after its French words (docs/glossary.md, « Field names »). */
    const apiCode = /\((?:\*|[a-z]+[.:][a-z_]+)\)/g;
    const fieldOrHeader = [/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/, /\b[A-Z][a-z]+(?:-[A-Z][a-z]+)+\b/, /x-request-id/i];
    const found = pageTexts.filter(([, text]) =>
      fieldOrHeader.some((pattern) => pattern.test(text.replace(apiCode, ''))),
    );
    expect(found).toEqual([]);
    for (const named of ['new_password', 'Idempotency-Key', 'Retry-After'])
      expect(fieldOrHeader.some((pattern) => pattern.test(`Champ ${named} refusé`))).toBe(true);
  });
});

describe('docs/glossary.md, « Places on the page »', () => {
  const pointing = /(?<![\p{L}])ci-dess(?:ous|us)(?![\p{L}])/iu;

  test.each([
    ['the settings page (app/src/texts.ts)', pageTexts],
    ['the API and the command line (lib/messages.ts)', serviceTexts],
  ])('%s points at no place on the page (ci-dessous, ci-dessus)', (_catalogue, catalogue) => {
    expect(['le mot de passe ci-dessous', 'Ci-dessus, le jeton'].every((text) => pointing.test(text))).toBe(true);
    expect(catalogue.filter(([, text]) => pointing.test(text))).toEqual([]);
  });

  test("the invitation's notice names the box that shows the provisional password by that box's label", () => {
    const email = 'nina@acme.test';
    expect(texts.members.invitedHere(email)).toContain(`« ${texts.members.temporaryPassword(email)} »`);
  });
});

describe('dates on the page (app/src/dates.ts)', () => {
  test('day, month, year, hour and minute, Paris time, the zone said', () => {
    expect(formatDateTime('2026-12-07T13:05:00Z')).toBe('7 déc. 2026, 14:05 (heure de Paris)');
    // Summer time: UTC+2.
    expect(formatDateTime('2026-07-07T12:05:00.000Z')).toBe('7 juil. 2026, 14:05 (heure de Paris)');
    expect(formatDateTime('2026-12-31T23:30:00Z')).toBe('1 janv. 2027, 00:30 (heure de Paris)');
  });

  test('another zone, when a workspace has one, is named after the time', () => {
    const montreal = { id: 'America/Toronto', label: 'heure de Montréal' };
    expect(formatDateTime('2026-12-07T13:05:00Z', montreal)).toBe('7 déc. 2026, 08:05 (heure de Montréal)');
    expect(parisTime.id).toBe('Europe/Paris');
  });

  test('a date without a time (a custom field’s) is the calendar’s day, in no zone', () => {
    expect(formatDate('2026-12-07')).toBe('7 déc. 2026');
    // Read in Paris time, midnight UTC would still be that day; read west of UTC, the day before: neither applies.
    expect(formatDate('2027-01-01')).toBe('1 janv. 2027');
    expect(formatDate('2028-02-29')).toBe('29 févr. 2028');
    expect(formatDate('31/12/2026')).toBe('31/12/2026');
  });

  test('the time a workspace’s zone shows now: day of the week and month in full, hour and minute', () => {
    const at = new Date('2026-12-07T17:20:00Z');
    expect(formatWallClock(at, 'Europe/Paris')).toBe('lundi 7 décembre 2026, 18:20');
    expect(formatWallClock(at, 'America/Montreal')).toBe('lundi 7 décembre 2026, 12:20');
    expect(formatWallClock(at, 'Asia/Tokyo')).toBe('mardi 8 décembre 2026, 02:20');
    expect(formatWallClock(new Date('2026-07-01T00:05:00Z'), 'UTC')).toBe('mercredi 1 juillet 2026, 00:05');
    expect(formatWallClock(at, 'Europe/Lutece')).toBeUndefined();
  });

  test('is the one formatter of the page: its texts use it, no other file formats a date itself', () => {
    expect(texts.date(sample)).toBe(formatDateTime(sample));
    expect(texts.webhook.lastCall(sample)).toBe('Dernier appel reçu le 7 déc. 2026, 14:05 (heure de Paris).');
    const source = new URL('../../app/src/', import.meta.url);
    const formatting = readdirSync(source)
      .filter((file) => /\.tsx?$/.test(file) && file !== 'dates.ts' && !file.endsWith('.d.ts'))
      .filter((file) =>
        /toLocale(?:Date|Time)?String|DateTimeFormat/.test(readFileSync(new URL(file, source), 'utf8')),
      );
    expect(formatting).toEqual([]);
  });
});
