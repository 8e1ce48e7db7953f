import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { browserTests, expectAccessible, openScreen, pageWorld, signInOnPage } from '../support/browser';
import { bearer, peoplePassword } from '../support/people';

type Member = { id: string; email: string | null; name: string; role: string; can_sign_in: boolean };

/**
 * The « Membres » screen of the settings page (docs/api.md#settings-page) in Debian's Chromium against the local
 * server: an admin adds a member (invited: the local API's temporary password shown once), invites them again, invites
 * again a member who chose a password (nothing sent, no password shown), changes the seeded
 * member's role and back, is refused demoting themselves as the last admin (the API's message shown), and removes the
 * added member after confirming; a member has no « Membres » in the menu. Each result is read back from the API.
 */
browserTests('settings-page-members.test.ts')('the settings page’s « Membres » screen', () => {
  const world = pageWorld();
  const membersPath = () => `/workspaces/${world.ws.seed.workspace_id}/members`;

  /** The workspace's members as the API lists them to the admin. */
  const listed = async (): Promise<Member[]> => {
    const response = await world.api.request('GET', membersPath(), { headers: bearer(world.ws.admin) });
    expect(response.status).toBe(200);
    return (response.body as { members: Member[] }).members;
  };
  const byEmail = async (email: string) => (await listed()).find((member) => member.email === email);

  const kept = (page: Page) =>
    page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));

  /** The temporary password shown once for that e-mail; dismissed, it is nowhere in the tab. */
  async function temporaryPassword(page: Page, email: string): Promise<string> {
    const field = page.getByRole('textbox', { name: `Mot de passe provisoire de ${email}` });
    const value = await field.inputValue();
    expect(value).not.toBe('');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'J’ai copié la valeur, la masquer' }).click();
    await field.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(value);
    expect(await kept(page)).not.toContain(value);
    return value;
  }

  test('an admin adds, invites again, changes a role, is refused as last admin, and removes after confirming', async () => {
    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.admin.email, 'Membres');
    const bobEmail = world.ws.member.email;
    await page.getByRole('cell', { name: 'Bob Durand', exact: true }).first().waitFor();
    await expectAccessible(page);

    // Added and invited: the API lists them, and the password shown is the invitation's (the first sign-in asks a new one).
    const email = `nouvelle-${randomUUID()}@acme.test`;
    await page.getByLabel('Adresse e-mail du nouveau membre').fill(email);
    await page.getByLabel('Nom affiché (facultatif)').fill('Chloé Nouvelle');
    await page.getByLabel('Rôle du nouveau membre').selectOption('member');
    await page.getByRole('button', { name: 'Ajouter et inviter' }).click();
    await page.getByRole('status').getByText(`transmettez à ${email}`, { exact: false }).waitFor();
    const first = await temporaryPassword(page, email);
    expect(await byEmail(email)).toMatchObject({ name: 'Chloé Nouvelle', role: 'member', can_sign_in: true });
    const signIn = (password: string) => world.api.request('POST', '/session', { body: { email, password } });
    expect((await signIn(first)).status).toBe(409);

    // Invited again: a new temporary password, which signs in.
    const card = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Chloé Nouvelle', exact: true }) });
    await card.getByRole('button', { name: `Inviter à nouveau Chloé Nouvelle (${email})` }).click();
    const second = await temporaryPassword(page, email);
    expect(second).not.toBe(first);
    expect((await signIn(second)).status).toBe(409);

    // A person who chose a password (the member who signs in): invited again to nothing, no password shown; theirs works.
    await page.getByRole('button', { name: `Inviter à nouveau Bob Durand (${bobEmail})` }).click();
    await page.getByRole('status').getByText(`${bobEmail} a déjà un compte`, { exact: false }).waitFor();
    expect(await page.getByRole('textbox', { name: `Mot de passe provisoire de ${bobEmail}` }).count()).toBe(0);
    const bobSignsIn = await world.api.request('POST', '/session', {
      body: { email: bobEmail, password: peoplePassword },
    });
    expect(bobSignsIn.status).toBe(200);

    // The seeded member made admin, then member again.
    // Two members are named Bob Durand (the seed's and the one who signs in): the controls name each by e-mail too.
    const bob = page.getByRole('combobox', { name: `Rôle de Bob Durand (${bobEmail})`, exact: true });
    const saveBob = page.getByRole('button', { name: `Enregistrer le rôle de Bob Durand (${bobEmail})` });
    await bob.selectOption('admin');
    await saveBob.click();
    await page.getByRole('status').getByText('Rôle de Bob Durand : administrateur.').waitFor();
    expect(await byEmail(bobEmail)).toMatchObject({ role: 'admin' });
    await bob.selectOption('member');
    await saveBob.click();
    await page.getByRole('status').getByText('Rôle de Bob Durand : membre.').waitFor();
    expect(await byEmail(bobEmail)).toMatchObject({ role: 'member' });

    // The last admin demoting themselves: the API's 409 message, as sent; the field shows the role kept.
    const refusal = await world.api.request('PATCH', `${membersPath()}/${world.ws.admin.memberId}`, {
      headers: bearer(world.ws.admin),
      body: { role: 'member' },
    });
    expect(refusal.status).toBe(409);
    const { message } = (refusal.body as { error: { message: string } }).error;
    const aliceEmail = world.ws.admin.email;
    const alice = page.getByRole('combobox', { name: `Rôle de Alice Martin (${aliceEmail})`, exact: true });
    await alice.selectOption('member');
    await page.getByRole('button', { name: `Enregistrer le rôle de Alice Martin (${aliceEmail})` }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(message);
    await expect(alice.inputValue()).resolves.toBe('admin');
    expect(await byEmail(aliceEmail)).toMatchObject({ role: 'admin' });
    await expectAccessible(page);

    // Removal waits for the confirmation: declined, nothing removed; accepted, the person can no longer sign in.
    const remove = card.getByRole('button', { name: `Retirer Chloé Nouvelle (${email}) de l’espace` });
    page.once('dialog', (dialog) => void dialog.dismiss());
    await remove.click();
    expect(await byEmail(email)).toMatchObject({ can_sign_in: true });
    page.once('dialog', (dialog) => void dialog.accept());
    await remove.click();
    await page.getByRole('status').getByText('Chloé Nouvelle n’a plus accès à l’espace.').waitFor();
    await card.getByText('ne peut pas se connecter', { exact: false }).waitFor();
    await expect(remove.count()).resolves.toBe(0);
    expect(await byEmail(email)).toMatchObject({ can_sign_in: false });
    await expectAccessible(page);

    // On a phone-width screen, the cards and their controls (long e-mails in the names) fit without scrolling sideways.
    await page.setViewportSize({ width: 360, height: 740 });
    // A string: evaluated in the page, whose DOM types this Node project does not load.
    const widths = await page.evaluate('[window.innerWidth, document.documentElement.scrollWidth]');
    expect(widths).toEqual([360, 360]);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('a member has no « Membres » in the menu', async () => {
    const { page, requests, errors } = await world.openPage();
    await signInOnPage(page, world.ws.member.email);
    await page.getByRole('link', { name: /^Ouvrir l'espace/ }).click();
    const menu = page.getByRole('navigation');
    await menu.getByRole('link', { name: 'Tags & Webhook' }).waitFor();
    await expect(menu.getByRole('link', { name: 'Membres' }).count()).resolves.toBe(0);
    expect(requests.filter((request) => request.includes('/members'))).toEqual([]);
    expect(errors).toEqual([]);
  }, 30_000);
});
