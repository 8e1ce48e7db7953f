import { randomUUID } from 'node:crypto';
import { browserTests, expectAccessible, pageWorld, signInOnPage } from '../support/browser';
import { bearer } from '../support/people';

/**
 * The sign-in screen's two other ways in (docs/api.md#sign-in, #settings-page), in Debian's Chromium against the local
 * server: a person invited with a temporary password chooses their own at the first sign-in, and a person who forgot
 * theirs resets it with the code the identity provider e-mails (the local API answers it in the 202, for tests only).
 */
browserTests('settings-page-sign-in.test.ts')('the settings page’s sign-in: first password, forgotten password', () => {
  const world = pageWorld();
  const chosen = 'Choisi-par-moi-7!';

  test('an invited person signs in with the temporary password, chooses a new one, and is in', async () => {
    const email = `invite-${randomUUID()}@acme.test`;
    const added = await world.api.request('POST', `/workspaces/${world.ws.seed.workspace_id}/members`, {
      headers: bearer(world.ws.admin),
      body: { email, name: 'Nina Invitée', role: 'member' },
    });
    const temporary = (added.body as { temporary_password: string }).temporary_password;
    const { page, outside, errors } = await world.openPage();
    await signInOnPage(page, email, temporary);
    await page.getByLabel('Nouveau mot de passe').waitFor();
    await expectAccessible(page);
    await page.getByLabel('Nouveau mot de passe').fill(chosen);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('heading', { name: 'Vos espaces' }).waitFor();
    expect((await world.api.request('POST', '/session', { body: { email, password: chosen } })).status).toBe(200);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('a person who forgot the password resets it with the e-mailed code, then signs in with the new one', async () => {
    const { page, outside, errors } = await world.openPage();
    await page.getByRole('button', { name: 'Mot de passe oublié ?' }).click();
    await page.getByLabel('Adresse e-mail').fill(world.ws.member.email);
    const started = page.waitForResponse((response) => response.url().endsWith('/password-reset'));
    await page.getByRole('button', { name: 'Recevoir un code par e-mail' }).click();
    const { code } = (await (await started).json()) as { code: string };
    await page.getByLabel('Code reçu par e-mail').fill('000000');
    await page.getByLabel('Nouveau mot de passe').fill(chosen);
    await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await page.getByRole('alert').waitFor();
    await expectAccessible(page);
    await page.getByLabel('Code reçu par e-mail').fill(code);
    await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await page.getByText('Mot de passe changé : connectez-vous avec le nouveau.').waitFor();
    await signInOnPage(page, world.ws.member.email, chosen);
    await page.getByRole('heading', { name: 'Vos espaces' }).waitFor();
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);
});
