import type { Page } from 'playwright-core';
import { messages } from '../../lib/messages';
import { browserTests, expectAccessible, openScreen, pageWorld } from '../support/browser';

/**
 * The « Clés d'API » screen of the settings page (docs/api.md#settings-page) in Debian's Chromium against the local
 * server: an admin creates a key with scopes (its value shown once), the key changes a prospect through the Prospect
 * API, the change is undone from the page, the key is revoked after confirmation; a member reads without the admin's
 * controls. axe-core checks the states that between them hold every element the screen shows. Skipped, with a warning,
 * where Chromium is absent (CI installs it).
 */
browserTests('settings-page-keys.test.ts')('the settings page’s « Clés d’API » screen', () => {
  const world = pageWorld();

  /** Signed in as that person, on the workspace's « Clés d'API » screen, its list loaded. */
  async function openKeysScreen(page: Page, email: string): Promise<void> {
    await openScreen(page, email, 'Clés d’API');
    await page.getByRole('cell', { name: 'Zapier', exact: true }).waitFor();
  }

  /** A call of the Prospect API made with the API key, as an integration makes it. */
  const withKey = (key: string, method: string, path: string, body?: unknown) =>
    fetch(`${world.api.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  const kept = (page: Page) =>
    page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));

  test('an admin creates a key with scopes, seen once; its change is undone from the page; revoked, it is refused', async () => {
    const { page, outside, errors } = await world.openPage();
    await openKeysScreen(page, world.ws.admin.email);

    await page.getByLabel('Nom de la clé').fill('Intégration page');
    for (const scope of ['pipelines:read', 'notes:write', 'tags:write'])
      await page.getByRole('checkbox', { name: `(${scope})` }).uncheck();
    await page.getByRole('button', { name: 'Créer la clé' }).click();
    const secretField = page.getByRole('textbox', { name: 'Valeur de la clé « Intégration page »' });
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^crm_key_/);
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Intégration page', exact: true }) });
    await row
      .getByText(
        'Lire les prospects, leurs notes et leurs modifications (prospects:read) ; Modifier les prospects (prospects:write)',
        { exact: true },
      )
      .waitFor();
    await expectAccessible(page);

    // Dismissed, the value is nowhere in the tab: not in the page, not in its storage.
    await page.getByRole('button', { name: 'J’ai copié la valeur, la masquer' }).click();
    await secretField.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);
    expect(await kept(page)).not.toContain(secret);

    // The key has the two scopes chosen, no more: it moves a prospect but may not read the pipelines.
    const lead = world.ws.seed.prospects.lead as string;
    const stages = world.ws.seed.pipelines.sales?.stages as Record<string, string>;
    expect((await withKey(secret, 'GET', '/pipelines')).status).toBe(403);
    const moved = await withKey(secret, 'PATCH', `/prospects/${lead}`, { stage: 'Relance' });
    expect(moved.status).toBe(200);

    // The key's own page, at its own address: the key, its changes, its revocation.
    await row.getByRole('link', { name: 'Modifications faites avec la clé « Intégration page »' }).click();
    const card = page.getByRole('region', { name: 'Clé « Intégration page »' });
    expect(page.url()).toMatch(new RegExp(`#/espaces/${world.ws.seed.workspace_id}/cles/[^/]+$`));
    // The prospect by its name, a link to its record: the ids are the API's, the names the person's.
    const entry = card.getByRole('row').filter({ has: page.getByRole('link', { name: 'Léa Petit' }) });
    // Named as the workspace names them: the stages' ids are the API's, their names the person's.
    await entry.getByText('Avant : Ventes › Nouveau — Après : Ventes › Relance').waitFor();
    await entry.getByRole('button', { name: 'Annuler cette modification' }).click();
    await card.getByRole('status').getByText('Modification annulée', { exact: false }).waitFor();
    await expect(entry.getByRole('button', { name: 'Annuler cette modification' }).count()).resolves.toBe(0);
    await expect(entry.getByText(/^Annulée le/).count()).resolves.toBe(1);
    const afterUndo = (await (await withKey(secret, 'GET', `/prospects/${lead}`)).json()) as { stage_id: string };
    expect(afterUndo.stage_id).toBe(stages.new);

    // An undo the API refuses (the prospect changed since the entry) shows the API's own message.
    expect((await withKey(secret, 'PATCH', `/prospects/${lead}`, { stage: 'Relance' })).status).toBe(200);
    expect((await withKey(secret, 'PATCH', `/prospects/${lead}`, { setter_id: world.ws.admin.memberId })).status).toBe(
      200,
    );
    // Read again on a reload, which keeps the page, the first page cut to one entry (the API's own `limit`): « Plus »
    // reads the next page.
    await page.route(
      '**/api-keys/*/changes',
      (route) => {
        const url = new URL(route.request().url());
        url.searchParams.set('limit', '1');
        return route.continue({ url: url.href });
      },
      { times: 1 },
    );
    await page.reload();
    const entries = card.getByRole('row').filter({ has: page.getByRole('cell') });
    await entries.first().waitFor();
    await card.getByRole('button', { name: 'Plus' }).click();
    await entries.nth(2).waitFor();
    await expect(entries.count()).resolves.toBe(3);
    // The setter the key set, by the member's name.
    await expect(entries.filter({ hasText: 'Après : Alice Martin' }).count()).resolves.toBe(1);
    await expect(card.getByRole('button', { name: 'Plus' }).count()).resolves.toBe(0);
    // The stage entry the setter's was written over cannot be undone: it says so, where its button would be.
    const staleStage = entries.filter({ hasText: 'Après : Ventes › Relance' }).filter({ hasNotText: /^Annulée le/ });
    await staleStage
      .getByText('Le prospect a été modifié depuis : cette modification ne peut plus être annulée.')
      .waitFor();
    await expect(staleStage.getByRole('button', { name: 'Annuler cette modification' }).count()).resolves.toBe(0);
    // A write the key's list cannot show (another key's): the setter's undo is offered, and the API's refusal shown as sent.
    const created = await fetch(`${world.api.url}/workspaces/${world.ws.seed.workspace_id}/api-keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${world.ws.admin.accessToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Autre intégration', scopes: ['prospects:write'] }),
    });
    const otherKey = ((await created.json()) as { secret: string }).secret;
    expect(
      (await withKey(otherKey, 'PATCH', `/prospects/${lead}`, { closer_id: world.ws.admin.memberId })).status,
    ).toBe(200);
    await entries
      .filter({ hasText: 'Après : Alice Martin' })
      .getByRole('button', { name: 'Annuler cette modification' })
      .click();
    await expect(card.getByRole('alert').textContent()).resolves.toBe(messages.changeLog.prospectMoved);
    await expectAccessible(page);
    // On a phone-width screen, the keys and their changes (ids of 36 characters) fit without scrolling sideways.
    await page.setViewportSize({ width: 360, height: 740 });
    // A string: evaluated in the page, whose DOM types this Node project does not load.
    const widths = await page.evaluate('[window.innerWidth, document.documentElement.scrollWidth]');
    expect(widths).toEqual([360, 360]);

    // Revocation waits for the confirmation: declined, the key still works; accepted, it is refused.
    const revoke = card.getByRole('button', { name: 'Révoquer la clé « Intégration page »' });
    page.once('dialog', (dialog) => void dialog.dismiss());
    await revoke.click();
    expect((await withKey(secret, 'GET', `/prospects/${lead}`)).status).toBe(200);
    page.once('dialog', (dialog) => void dialog.accept());
    await revoke.click();
    await card.getByText(/^révoquée le/).waitFor();
    await expect(revoke.count()).resolves.toBe(0);
    expect((await withKey(secret, 'GET', `/prospects/${lead}`)).status).toBe(401);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('a member sees the keys and their changes, without the admin’s create and revoke controls', async () => {
    const { page, errors } = await world.openPage();
    await openKeysScreen(page, world.ws.member.email);
    await page.getByRole('cell', { name: 'Tableau de bord', exact: true }).waitFor();
    await expect(page.getByLabel('Nom de la clé').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Créer la clé' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: /^Révoquer/ }).count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'Modifications faites avec la clé « Zapier »' }).click();
    await page.getByText('Aucune modification faite avec cette clé.').waitFor();
    await expectAccessible(page);
    expect(errors).toEqual([]);
  }, 60_000);
});
