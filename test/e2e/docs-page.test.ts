import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { routes } from '../../lib/routes';
import { startTestApi, type TestApi } from '../support/local-api';

/**
 * GET /docs in a real browser: Debian's Chromium, headless, driven by playwright-core. On a
 * developer's machine without Chromium the test says so and skips; in CI (.ci/run installs
 * Chromium) it always runs, so a missing browser fails instead of passing silently.
 */
const executablePath = '/usr/bin/chromium';
const runs = existsSync(executablePath) || process.env.CI !== undefined;
if (!runs) {
  console.warn(`docs-page.test.ts skipped: ${executablePath} is absent (apt-get install -y chromium); CI runs it.`);
}

const flags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

(runs ? describe : describe.skip)('GET /docs, the interactive API reference', () => {
  let api: TestApi;
  let browser: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'crm-docs-chromium-'));
    [api, browser] = await Promise.all([
      startTestApi(),
      // A fresh profile each run; playwright adds --headless and --user-data-dir itself.
      chromium.launchPersistentContext(profile, { executablePath, headless: true, args: flags }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  test('shows every route of lib/routes.ts, loading nothing from outside the local server', async () => {
    const outside: string[] = [];
    await browser.route('**/*', (route) => {
      if (route.request().url().startsWith(api.url)) return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
    const page = await browser.newPage();
    await page.goto(`${api.url}/docs`);
    await page
      .locator('.opblock')
      .nth(routes.length - 1)
      .waitFor({ timeout: 20_000 });

    const shown = await page
      .locator('.opblock-summary')
      .evaluateAll((summaries) =>
        summaries.map(
          (summary) =>
            `${summary.querySelector('.opblock-summary-method')?.textContent} ` +
            `${summary.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        ),
      );
    expect(shown.sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
    await expect(page.title()).resolves.toBe("Référence de l'API – CRM");
    expect(outside).toEqual([]);
  }, 60_000);
});
