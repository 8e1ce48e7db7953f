import { messages } from '../../lib/messages';
import { browserTests, expectAccessible, openScreen, pageWorld, signInOnPage } from '../support/browser';
import { workspaceWithPeople } from '../support/people';

/**
 * « Fiche prospect » (docs/api.md#settings-page) in Debian's Chromium against the local server: a member finds a
 * prospect by e-mail, sees the change an integration's key made to it under « Modifications par l'API », and undoes it
 * in one action; the Prospect API then shows the old stage.
 */
browserTests('settings-page-prospect.test.ts')('the settings page’s « Fiche prospect » screen', () => {
  const world = pageWorld();

  const withKey = (method: string, path: string, body?: unknown) =>
    fetch(`${world.api.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${world.ws.seed.api_keys.admin?.secret}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  test('a member finds a prospect, sees the key’s change and undoes it: the prospect has its old stage again', async () => {
    const prospectId = world.ws.seed.prospects.lead as string;
    const stages = world.ws.seed.pipelines.sales?.stages ?? {};
    expect((await withKey('PATCH', `/prospects/${prospectId}`, { stage: 'Relance' })).status).toBe(200);

    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.member.email, 'Fiche prospect');
    await page.getByLabel('Adresse e-mail ou numéro du prospect').fill('inconnu@acme.test');
    await page.getByRole('button', { name: 'Chercher' }).click();
    await page.getByText('Aucun prospect de cet espace ne correspond.').waitFor();

    await page.getByLabel('Adresse e-mail ou numéro du prospect').fill('LEA.PETIT@acme.test');
    await page.getByRole('button', { name: 'Chercher' }).click();
    await page.getByRole('heading', { name: 'Léa Petit' }).waitFor();
    const record = page.getByRole('article');
    await record.getByText('Après : Ventes › Relance').first().waitFor();
    await expectAccessible(page);

    await record.getByRole('button', { name: 'Annuler cette modification' }).click();
    await record.getByRole('status').filter({ hasText: 'Modification annulée' }).waitFor();
    await record.getByText(/^Annulée le /).waitFor();
    await expect(record.getByRole('button', { name: 'Annuler cette modification' }).count()).resolves.toBe(0);
    // The record reads the prospect again once the undo is answered: its stage changes after that read, not with the status.
    await record
      .locator('dd')
      .nth(2)
      .filter({ hasText: /^Ventes › Nouveau$/ })
      .waitFor();
    const shown = await record.locator('dd').nth(2).textContent();
    expect(shown).toBe('Ventes › Nouveau');

    const read = (await (await withKey('GET', `/prospects/${prospectId}`)).json()) as { stage_id: string };
    expect(read.stage_id).toBe(stages.new);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('the record has its own address: Back returns to the search, a reload keeps it, a colleague opens it from a link; a person of another workspace reads the API’s refusal', async () => {
    const prospectId = world.ws.seed.prospects.lead as string;
    const address = `${world.api.url}/app/#/espaces/${world.ws.seed.workspace_id}/prospects/${prospectId}`;
    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.member.email, 'Fiche prospect');
    await page.getByLabel('Adresse e-mail ou numéro du prospect').fill('lea.petit@acme.test');
    await page.getByRole('button', { name: 'Chercher' }).click();
    await page.getByRole('heading', { name: 'Léa Petit' }).waitFor();
    expect(page.url()).toBe(address);
    await page.goBack();
    await page.getByRole('heading', { name: 'Léa Petit' }).waitFor({ state: 'detached' });
    await page.getByLabel('Adresse e-mail ou numéro du prospect').waitFor();
    await page.goForward();
    await page.getByRole('heading', { name: 'Léa Petit' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Léa Petit' }).waitFor();

    // The link, opened by a colleague in a tab of their own: the sign-in, then the record.
    const colleague = await world.browser.newPage();
    await colleague.goto(address);
    await signInOnPage(colleague, world.ws.admin.email);
    await colleague.getByRole('heading', { name: 'Léa Petit' }).waitFor();
    await colleague.getByRole('navigation').getByRole('link', { name: 'Fiche prospect', exact: true }).waitFor();

    // A person of another workspace: the API's 404, and the way back to their own workspaces.
    const other = await workspaceWithPeople(world.api);
    const stranger = await world.browser.newPage();
    await stranger.goto(address);
    await signInOnPage(stranger, other.member.email);
    await expect(stranger.getByRole('alert').textContent()).resolves.toBe(messages.session.workspaceNotFound);
    await expect(stranger.getByRole('heading', { name: 'Léa Petit' }).count()).resolves.toBe(0);
    await expectAccessible(stranger);
    await stranger.getByRole('link', { name: 'Revenir à vos espaces' }).click();
    await stranger.getByRole('heading', { name: 'Vos espaces' }).waitFor();

    // An address the page does not know: the workspace's first screen.
    await page.goto(`${world.api.url}/app/#/espaces/${world.ws.seed.workspace_id}/inconnu`);
    await page.getByRole('heading', { name: 'Tags' }).waitFor();
    await expect(
      page.getByRole('navigation').getByRole('link', { name: 'Tags & Webhook' }).getAttribute('aria-current'),
    ).resolves.toBe('page');
    await colleague.close();
    await stranger.close();
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);
});
