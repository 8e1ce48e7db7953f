import { readdirSync, readFileSync } from 'node:fs';
import { screenshotWidths } from '../support/screenshot-widths';

/**
 * The settings page's pictures are the files `npm run screenshots` writes (test/support/browser.ts `picture`, called
 * by the journey on every screen, at each of `screenshotWidths`): each one written is one the journey takes, each one
 * the journey takes is written, and the README shows some of them, none missing.
 */
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const journey = readFileSync(new URL('../e2e/settings-page-journey.test.ts', import.meta.url), 'utf8');
const written = readdirSync(new URL('../../docs/screenshots/', import.meta.url)).sort();

test('every picture the journey takes is written, at each width, and the README shows only pictures written', () => {
  const screens = [...journey.matchAll(/picture\(page, '([^']+)'\)/g)].map((match) => match[1]);
  const taken = screens.flatMap((screen) => Object.keys(screenshotWidths).map((width) => `${screen}-${width}.png`));
  expect(written).toEqual(taken.sort());
  const shown = [...readme.matchAll(/\]\(docs\/screenshots\/([^)]+)\)/g)].map((match) => match[1]);
  expect(shown.length).toBeGreaterThan(0);
  expect(written).toEqual(expect.arrayContaining(shown));
});
