import { randomUUID } from 'node:crypto';
import { browserTests, expectAccessible, pageWorld, signInOnPage } from '../support/browser';
import { bearer } from '../support/people';

/**
 * The sign-in screen's two other ways in (docs/api.md#sign-in, #settings-page), in Debian's Chromium against the local
 * server: a person invited with a provisional password chooses their own at the first sign-in, the normal next step
 * and no error, and a person who forgot theirs resets it with a code: the identity provider e-mails it on AWS, and
 * locally `npm start` prints it (the local API answers it in the 202 too, which the test reads), as the screen says.
 */
browserTests('settings-page-sign-in.test.ts')('the settings page’s sign-in: first password, forgotten password', () => {
  const world = pageWorld();
  const chosen = 'Choisi-par-moi-7!';

  test('an invited person signs in with the provisional password, is asked to choose one (no error), and is in', async () => {
    const email = `invite-${randomUUID()}@acme.test`;
    const added = await world.api.request('POST', `/workspaces/${world.ws.seed.workspace_id}/members`, {
      headers: bearer(world.ws.admin),
      body: { email, name: 'Nina Invitée', role: 'member' },
    });
    const temporary = (added.body as { temporary_password: string }).temporary_password;
    const { page, outside, errors } = await world.openPage();
    await signInOnPage(page, email, temporary);
    await page.getByRole('heading', { level: 1, name: 'Choisissez votre mot de passe' }).waitFor();
    await page.getByText(`Le mot de passe provisoire de ${email} est accepté.`, { exact: false }).waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    // The step's one field has the focus: the person types at once. A string: evaluated in the page, whose DOM types
    // this Node project does not load.
    const field = page.getByLabel('Nouveau mot de passe');
    await expect(page.evaluate('document.activeElement.id')).resolves.toBe(await field.getAttribute('id'));
    await expectAccessible(page);
    await field.fill(chosen);
    await page.getByRole('button', { name: 'Enregistrer et se connecter' }).click();
    await page.getByRole('heading', { name: 'Vos espaces' }).waitFor();
    expect((await world.api.request('POST', '/session', { body: { email, password: chosen } })).status).toBe(200);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('a person who forgot the password is told the code is in npm start’s terminal, resets it, signs in', async () => {
    const { page, outside, errors } = await world.openPage();
    await page.getByRole('button', { name: 'Mot de passe oublié ?' }).click();
    const address = page.getByLabel('Adresse e-mail');
    const where = page.locator(`#${await address.getAttribute('aria-describedby')}`);
    await expect(where.textContent()).resolves.toBe(
      'Serveur local : aucun e-mail ne part ; le code s’affiche dans le terminal où tourne npm start.',
    );
    await expectAccessible(page);
    await address.fill(world.ws.member.email);
    const started = page.waitForResponse((response) => response.url().endsWith('/password-reset'));
    await page.getByRole('button', { name: 'Recevoir un code' }).click();
    const { code } = (await (await started).json()) as { code: string };
    await page
      .getByRole('status')
      .filter({
        hasText: `Si ${world.ws.member.email} a un compte, son code vient de s’afficher dans le terminal où tourne npm start.`,
      })
      .waitFor();
    await page.getByLabel('Code de réinitialisation').fill('000000');
    await page.getByLabel('Nouveau mot de passe').fill(chosen);
    await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await page.getByRole('alert').waitFor();
    await expectAccessible(page);
    await page.getByLabel('Code de réinitialisation').fill(code);
    await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await page.getByText('Mot de passe changé : connectez-vous avec le nouveau.').waitFor();
    await signInOnPage(page, world.ws.member.email, chosen);
    await page.getByRole('heading', { name: 'Vos espaces' }).waitFor();
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);
});
