import { routes } from '../../lib/routes';
import { browserTests, startBrowser } from '../support/browser';
import { startTestApi, type TestApi } from '../support/local-api';

/** GET /docs in a real browser, the settings page's (test/support/browser.ts). */
browserTests('docs-page.test.ts')('GET /docs, the interactive API reference', () => {
  let api: TestApi;
  let browser: Awaited<ReturnType<typeof startBrowser>>;

  beforeAll(async () => {
    [api, browser] = await Promise.all([startTestApi(), startBrowser()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  test('shows every route of lib/routes.ts, loading nothing from outside the local server', async () => {
    const outside: string[] = [];
    await browser.browser.route('**/*', (route) => {
      if (route.request().url().startsWith(api.url)) return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
    const page = await browser.browser.newPage();
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
