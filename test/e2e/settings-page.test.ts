import { gzipSync } from 'node:zlib';
import { pageHeaders } from '../../infra/cdk/settings-page';
import { browserTests, expectAccessible, pageWorld, signInOnPage } from '../support/browser';

/**
 * The settings page (docs/api.md#settings-page) in a real browser: Debian's Chromium, headless, driven by
 * playwright-core, against the local server, with axe-core checking every screen it reaches. On a developer's machine
 * without Chromium it says so and skips; in CI (.ci/run installs Chromium) it always runs.
 */
browserTests('settings-page.test.ts')('GET /app/, the settings page', () => {
  const world = pageWorld();

  test('served with its security headers and icon, hashed assets cached for good, under 150 KB of JavaScript and CSS gzipped', async () => {
    const index = await fetch(`${world.api.url}/app/`);
    expect(index.status).toBe(200);
    for (const [name, value] of Object.entries(pageHeaders)) expect(index.headers.get(name)).toBe(value);
    expect(index.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    expect(html).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>|\sstyle=|\son\w+=/);
    // Named relative to the page, so that it works under a stage's prefix on AWS.
    const named = (pattern: RegExp) => pattern.exec(html)?.[1];
    const assets = {
      script: { path: named(/src="(assets\/main-[A-Z0-9]+\.js)"/), type: 'text/javascript; charset=utf-8' },
      styles: { path: named(/href="(assets\/main-[A-Z0-9]+\.css)"/), type: 'text/css; charset=utf-8' },
      icon: {
        path: named(/rel="icon"[^>]*href="(assets\/favicon-[A-Z0-9]+\.svg)"/),
        type: 'image/svg+xml; charset=utf-8',
      },
    };
    const gzipped: Record<string, number> = {};
    for (const [name, { path, type }] of Object.entries(assets)) {
      const asset = await fetch(`${world.api.url}/app/${path}`);
      expect({ name, status: asset.status, type: asset.headers.get('content-type') }).toEqual({
        name,
        status: 200,
        type,
      });
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      gzipped[name] = gzipSync(Buffer.from(await asset.arrayBuffer())).length;
    }
    expect((gzipped.script ?? Infinity) + (gzipped.styles ?? Infinity)).toBeLessThan(150_000);
    expect((await fetch(`${world.api.url}/app/assets/main-INCONNU.js`)).status).toBe(404);
    expect((await fetch(`${world.api.url}/app`, { redirect: 'manual' })).headers.get('location')).toBe('/app/');
  });

  test('the accessibility check the screens go through fails on a serious violation: a button without a name', async () => {
    const page = await world.browser.newPage();
    await page.setContent('<!doctype html><html lang="fr"><title>Essai</title><main><button></button></main></html>');
    await expect(expectAccessible(page)).rejects.toThrow(/button-name/);
    await page.close();
  });

  test('an admin signs in, opens the workspace and adds a tag; the API’s refusal of a wrong password is shown', async () => {
    const { page, outside, errors } = await world.openPage();
    await expectAccessible(page);
    await signInOnPage(page, world.ws.admin.email, 'pas-le-bon-mot-de-passe');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/./);
    await signInOnPage(page, world.ws.admin.email);
    await page.getByRole('heading', { name: 'Vos espaces' }).waitFor();
    await expectAccessible(page);
    // The person belongs to this one workspace, as an admin.
    await expect(page.getByRole('link', { name: /^Ouvrir l'espace/ }).count()).resolves.toBe(1);
    await expect(page.getByText('administrateur').count()).resolves.toBe(1);
    await page.getByRole('link', { name: /^Ouvrir l'espace/ }).click();
    await page.getByRole('heading', { name: 'Tags' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Nom du nouveau tag').fill('Salon 2026');
    await page.getByRole('button', { name: 'Ajouter le tag' }).click();
    await page.getByRole('row').filter({ hasText: 'Salon 2026' }).waitFor();
    await page
      .getByRole('region', { name: 'Tags' })
      .getByRole('status')
      .filter({ hasText: /^Tag « Salon 2026 » ajouté\.$/ })
      .waitFor();
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('a member sees the tags without the admin’s form; signing out leaves no token in the tab', async () => {
    const { page } = await world.openPage();
    await signInOnPage(page, world.ws.member.email);
    await page
      .getByRole('link', { name: /^Ouvrir l'espace/ })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Tags' }).waitFor();
    await expect(page.getByLabel('Nom du nouveau tag').count()).resolves.toBe(0);
    const kept = await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));
    expect(kept).toContain('accessToken');
    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    const left = await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));
    expect(left).not.toMatch(/eyJ|accessToken|refreshToken/);
    await page.reload();
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
  }, 60_000);
});
