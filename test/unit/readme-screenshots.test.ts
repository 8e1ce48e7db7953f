import { readdirSync, readFileSync } from 'node:fs';

/**
 * The README's pictures of the settings page are the files `npm run screenshots` writes (test/support/browser.ts
 * `picture`, called by the journey): each one shown exists, and each one written is shown.
 */
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const journey = readFileSync(new URL('../e2e/settings-page-journey.test.ts', import.meta.url), 'utf8');
const written = readdirSync(new URL('../../docs/screenshots/', import.meta.url)).sort();

test('the README shows every picture the journey takes, and only those', () => {
  const shown = [...readme.matchAll(/\]\(docs\/screenshots\/([^)]+)\)/g)].map((match) => match[1]).sort();
  const taken = [...journey.matchAll(/picture\(page, '([^']+)'\)/g)].map((match) => `${match[1]}.png`).sort();
  expect(shown).toEqual(taken);
  expect(written).toEqual(taken);
});
