import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axe, { type AxeResults } from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { SeedDescription } from '../../tools/seed/seed-description';
import type { LocalOutbound } from '../../tools/local/lambda-runtime';
import { startTestApi, type TestApi } from './local-api';
import { screenshotWidths } from './screenshot-widths';
import { peoplePassword, workspaceWithPeople, type PeopleWorkspace } from './people';

/**
 * The browser tests (the settings page, the API reference at /docs): Debian's Chromium headless shell, driven by
 * playwright-core, and axe-core. The shell is the same Chromium build (Blink, V8, the same version as Debian's
 * `chromium`) without the desktop browser around it; it is what Playwright itself runs for a headless launch. Three
 * settings-page test files took 2.6 to 2.8 s of the browser's CPU with it, 7.5 to 8 s with the full `chromium` in
 * its headless mode, same tests and results. On a developer's machine without it a test file says so and skips
 * (`browserTests`); in CI (.ci/run installs it) it always runs, so a missing browser fails instead of passing silently.
 */
const executablePath = '/usr/bin/chromium-headless-shell';

export function browserTests(file: string): jest.Describe {
  const runs = existsSync(executablePath) || process.env.CI !== undefined;
  if (!runs) {
    console.warn(
      `${file} skipped: ${executablePath} is absent (apt-get install -y chromium-headless-shell); CI runs it.`,
    );
  }
  return runs ? describe : describe.skip;
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

/** A fresh profile each run (playwright adds --headless and --user-data-dir itself); `close` removes it. */
export async function startBrowser(): Promise<{ browser: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'crm-app-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: flags });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh tab on the page, recording every request it makes (`requests`), those that would leave the local server
 * (`outside`, refused) and any error its code throws.
 */
export async function openPage(browser: BrowserContext, baseUrl: string) {
  const page = await browser.newPage();
  const [requests, outside, errors] = [[] as string[], [] as string[], [] as string[]];
  await page.route('**/*', (route) => {
    requests.push(`${route.request().method()} ${route.request().url()}`);
    if (route.request().url().startsWith(baseUrl)) return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  // An error the page's code threw; an API refusal it shows (a 401 of a wrong password) is not one.
  page.on('pageerror', (error) => void errors.push(error.message));
  await page.goto(`${baseUrl}/app/`);
  return { page, requests, outside, errors };
}

/** The page's global scope once axe-core is in it (the test's TypeScript settings know Node, not the DOM). */
type AxeInPage = { document: object; axe: { run: (context: object, options: object) => Promise<AxeResults> } };

/**
 * No serious or critical accessibility violation on the screen as it stands: axe-core's own `axe.run` in the page,
 * injected once per document and asked for violations only. `@axe-core/playwright`'s `analyze()` injects it again at
 * every call and finishes each run in a new blank tab: 0.6 to 1.3 s a run here, against 0.1 to 0.2 s this way, for
 * the same rules on the same document.
 */
export async function expectAccessible(page: Page): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axe.source);
  const grave = await page.evaluate(async () => {
    const inPage = globalThis as unknown as AxeInPage;
    const { violations } = await inPage.axe.run(inPage.document, { resultTypes: ['violations'] });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.help}`);
  });
  expect(grave).toEqual([]);
}

const screenshotsDirectory = process.env.SCREENSHOTS_DIR;
/** The screen's first 800 pixels, as a person sees it on opening it: the pictures stay a few tens of kilobytes each. */
const pictureHeight = 800;

/**
 * The screen as it stands, at a desktop's width and at a phone's (`screenshotWidths`): axe-core finds no serious or
 * critical violation at either, and nothing is wider than the phone's screen. When `npm run screenshots` sets
 * `$SCREENSHOTS_DIR`, each width is also pictured into `<name>-<width's name>.png` (the README's pictures); nothing is
 * written in `npm test`, so that no test run rewrites tracked files. The viewport is put back as it was.
 */
export async function picture(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const [widthName, width] of Object.entries(screenshotWidths)) {
    await page.setViewportSize({ width, height: pictureHeight });
    await expectAccessible(page);
    await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(width);
    if (screenshotsDirectory !== undefined)
      await page.screenshot({ path: join(screenshotsDirectory, `${name}-${widthName}.png`) });
  }
  if (before) await page.setViewportSize(before);
}

/** Signs in through the page's form. */
export async function signInOnPage(page: Page, email: string, password = peoplePassword): Promise<void> {
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

/** Signed in, the person's one workspace opened, on the screen of that menu entry. */
export async function openScreen(page: Page, email: string, screen: string): Promise<void> {
  await signInOnPage(page, email);
  await page.getByRole('link', { name: /^Ouvrir l'espace/ }).click();
  await page.getByRole('navigation').getByRole('link', { name: screen, exact: true }).click();
}

/** What a settings-page test file works with: the local API, a browser, a workspace with an admin and a member. */
export type PageWorld = {
  api: TestApi;
  browser: BrowserContext;
  ws: PeopleWorkspace;
  /** A fresh tab on the page (`openPage`). */
  openPage: () => ReturnType<typeof openPage>;
};

/**
 * Started before the file's tests, stopped after them; `seed` describes the workspace (test/support/seed.ts),
 * `outbound` the delivery queue the API's redeliver route queues on (none by default).
 */
export function pageWorld(seed?: SeedDescription, outbound: Partial<LocalOutbound> = {}): PageWorld {
  const world = {} as PageWorld;
  let closeBrowser = async () => undefined as void;
  beforeAll(async () => {
    const [api, started] = await Promise.all([startTestApi({}, {}, outbound), startBrowser()]);
    closeBrowser = started.close;
    const ws = await workspaceWithPeople(api, seed);
    Object.assign(world, { api, browser: started.browser, ws, openPage: () => openPage(started.browser, api.url) });
  }, 60_000);
  afterAll(async () => {
    await closeBrowser();
    await world.api?.close();
  });
  return world;
}
