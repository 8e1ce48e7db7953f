import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { messages } from '../../lib/messages';
import { browserTests, expectAccessible, pageWorld, signInOnPage } from '../support/browser';
import { bearer, peoplePassword } from '../support/people';
import { aWorkspace } from '../support/seed';

/**
 * The settings page's « Tags & Webhook » (its webhook half and the renaming of a tag) and « Mon compte »
 * (docs/api.md#settings-page) in Debian's Chromium against the local server: what the page does is checked where it
 * lands (the webhook itself, the API, a new sign-in), and axe-core checks every state reached. Skipped, saying so,
 * without Chromium.
 */
browserTests('settings-page-webhook.test.ts')('the settings page: webhook, tag renaming, my account', () => {
  const world = pageWorld({ ...aWorkspace(), webhook: undefined });
  /** What the first journey copied from the page; the next ones regenerate and disable it. */
  let webhookUrl: string;
  let firstToken: string;

  beforeAll(async () => {
    // The copy buttons write to the clipboard, which the test reads back: what a person would paste.
    await world.browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.api.url });
  });

  /** The page asked nothing of another origin and threw nothing. */
  const expectClean = ({ requests, errors }: { requests: string[]; errors: string[] }) =>
    expect([requests.filter((request) => !request.includes(` ${world.api.url}/`)), errors]).toEqual([[], []]);

  /** Signs in on the sign-in screen: the choice of a workspace follows. */
  async function signIn(page: Page, email: string, password = peoplePassword): Promise<void> {
    await signInOnPage(page, email, password);
    await page.getByRole('heading', { name: 'Vos espaces' }).waitFor();
  }

  /** Signs in on the sign-in screen and opens the person's one workspace (its first screen, « Tags & Webhook »). */
  async function signInAndOpen(page: Page, email: string): Promise<void> {
    await signIn(page, email);
    await page.getByRole('link', { name: /^Ouvrir l'espace/ }).click();
    await page.getByRole('heading', { name: 'Tags' }).waitFor();
  }

  const webhookOf = (page: Page) => page.getByRole('region', { name: 'Webhook' });
  const tokenOf = (page: Page) => webhookOf(page).getByRole('group', { name: 'Jeton du webhook' });
  const stored = (page: Page) =>
    page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));

  /** Clicks a copy button, waits for the page to say it copied, and answers what the clipboard holds. */
  async function copied(page: Page, within: Locator, button: string): Promise<string> {
    await within.getByRole('button', { name: button }).click();
    await within.getByText('Copié dans le presse-papiers.').waitFor();
    // A string: the test's TypeScript settings know no DOM (the page's own do).
    return String(await page.evaluate('navigator.clipboard.readText()'));
  }

  /** The token shown once, read through its copy button, then dismissed: gone from the page and from storage. */
  async function copyAndDismissToken(page: Page): Promise<string> {
    const token = await copied(page, tokenOf(page), 'Copier');
    expect(token).toMatch(/^crm_whk_/);
    await expect(tokenOf(page).getByRole('textbox').inputValue()).resolves.toBe(token);
    await tokenOf(page).getByRole('button', { name: 'J’ai copié la valeur, la masquer' }).click();
    await tokenOf(page).waitFor({ state: 'detached' });
    await expect(page.content()).resolves.not.toContain(token);
    await expect(stored(page)).resolves.not.toContain(token);
    return token;
  }

  const sendLead = (token: string, url = webhookUrl) =>
    fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: `lead-${randomUUID()}@acme.test` }),
    });

  test('an admin generates the webhook: the token shown once, the copied URL and token take a lead, the last call is shown', async () => {
    const opened = await world.openPage();
    const { page } = opened;
    await signInAndOpen(page, world.ws.admin.email);
    await webhookOf(page).getByText("Aucun webhook n'a encore été généré pour cet espace.").waitFor();
    await expectAccessible(page);

    await webhookOf(page).getByRole('button', { name: 'Générer le webhook' }).click();
    await tokenOf(page).waitFor();
    await webhookOf(page).getByText('Aucun appel reçu pour l’instant.').waitFor();
    await expect(webhookOf(page).getByText('État : actif.').count()).resolves.toBe(1);
    await expectAccessible(page);
    webhookUrl = await copied(page, webhookOf(page), 'Copier : URL du webhook des leads');
    expect(webhookUrl).toMatch(new RegExp(`^${world.api.url}/webhooks/ingest-lead\\?endpoint_id=[0-9a-f-]{36}$`));
    const recruitmentUrl = await webhookOf(page)
      .getByLabel('URL du webhook de recrutement', { exact: true })
      .inputValue();
    expect(recruitmentUrl).toBe(webhookUrl.replace('/webhooks/ingest-lead?', '/webhooks/recruitment?'));
    firstToken = await copyAndDismissToken(page);

    expect((await sendLead(firstToken)).status).toBe(200);
    // The tab kept its session and its address: the reloaded page opens on the same screen of the workspace.
    await page.reload();
    await webhookOf(page)
      .getByText(/^Dernier appel reçu le \d{1,2} \S+ \d{4}/)
      .waitFor();
    await expect(webhookOf(page).getByRole('button', { name: 'Régénérer le jeton' }).count()).resolves.toBe(1);
    await expectAccessible(page);
    // On a phone-width screen nothing is wider than the screen (the long URLs included).
    await page.setViewportSize({ width: 320, height: 640 });
    await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(320);
    expectClean(opened);
  }, 60_000);

  test('regenerating asks first (declined: the token still works); accepted: a new token, the old one refused; disabling stops the webhook', async () => {
    const opened = await world.openPage();
    const { page, requests } = opened;
    await signInAndOpen(page, world.ws.admin.email);
    const regenerate = webhookOf(page).getByRole('button', { name: 'Régénérer le jeton' });
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await regenerate.click();
    expect(asked).toEqual([expect.stringMatching(/^Régénérer le jeton \?/)]);
    await expect(tokenOf(page).count()).resolves.toBe(0);
    expect(requests.filter((request) => request.endsWith('/webhook/token'))).toEqual([]);
    expect((await sendLead(firstToken)).status).toBe(200);

    page.once('dialog', (dialog) => void dialog.accept());
    await regenerate.click();
    await tokenOf(page).waitFor();
    const newToken = await copyAndDismissToken(page);
    expect(newToken).not.toBe(firstToken);
    expect((await sendLead(firstToken)).status).toBe(401);
    expect((await sendLead(newToken)).status).toBe(200);

    await webhookOf(page).getByRole('button', { name: 'Désactiver le webhook' }).click();
    await webhookOf(page).getByText('État : désactivé (les deux URL refusent tout appel).').waitFor();
    await webhookOf(page)
      .getByRole('status')
      .filter({ hasText: /^Webhook désactivé\.$/ })
      .waitFor();
    await expectAccessible(page);
    expect((await sendLead(newToken)).status).toBe(401);
    const shown = await world.api.request('GET', `/workspaces/${world.ws.seed.workspace_id}/webhook`, {
      headers: bearer(world.ws.admin),
    });
    expect(shown.body).toMatchObject({ active: false });

    await webhookOf(page).getByRole('button', { name: 'Activer le webhook' }).click();
    await webhookOf(page).getByText('État : actif.').waitFor();
    expect((await sendLead(newToken)).status).toBe(200);
    expectClean(opened);
  }, 60_000);

  test('an admin renames a tag in place with the keyboard; the API’s refusal of a taken name is shown, Escape cancels', async () => {
    const opened = await world.openPage();
    const { page } = opened;
    await signInAndOpen(page, world.ws.admin.email);
    const tags = page.getByRole('region', { name: 'Tags' });
    await tags.getByRole('button', { name: 'Renommer le tag « VIP »' }).focus();
    await page.keyboard.press('Enter');
    const field = tags.getByLabel('Nouveau nom du tag « VIP »');
    // The page moves the focus once the field is drawn (an effect, after the paint): waited for, not read at once.
    await field.and(page.locator(':focus')).waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Très important');
    await page.keyboard.press('Enter');
    const renamed = tags.getByRole('button', { name: 'Renommer le tag « Très important »' });
    await renamed.waitFor();
    await renamed.and(page.locator(':focus')).waitFor();
    await tags.getByRole('status').filter({ hasText: 'Tag « VIP » renommé en « Très important ».' }).waitFor();
    const listed = await world.api.request('GET', `/workspaces/${world.ws.seed.workspace_id}/tags`, {
      headers: bearer(world.ws.admin),
    });
    expect((listed.body as { tags: { name: string }[] }).tags.map((tag) => tag.name)).toEqual(
      expect.arrayContaining(['Très important', 'Chaud']),
    );

    await tags.getByRole('button', { name: 'Renommer le tag « Chaud »' }).click();
    await tags.getByLabel('Nouveau nom du tag « Chaud »').fill('Très important');
    await tags.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(tags.getByRole('alert').textContent()).resolves.toBe(
      messages.admin.config.tagNameTaken('Très important'),
    );
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await tags.getByRole('button', { name: 'Renommer le tag « Chaud »' }).waitFor();
    await expect(tags.getByLabel('Nouveau nom du tag « Chaud »').count()).resolves.toBe(0);
    expectClean(opened);
  }, 60_000);

  test('a member sees the tags without any webhook or renaming control, and the page never asks for the webhook', async () => {
    const opened = await world.openPage();
    const { page, requests } = opened;
    await signInAndOpen(page, world.ws.member.email);
    await page.getByRole('row').filter({ hasText: 'Chaud' }).waitFor();
    await expect(webhookOf(page).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: /Générer|token|Activer|Désactiver|Renommer/ }).count()).resolves.toBe(
      0,
    );
    await expect(page.getByText(/URL du webhook|Aucun webhook|Dernier appel|Aucun appel/).count()).resolves.toBe(0);
    expect(requests.filter((request) => request.includes('/webhook'))).toEqual([]);
    await expectAccessible(page);
    expectClean(opened);
  }, 60_000);

  test('« Mon compte »: a wrong current password is refused with the API’s message; changed, the new one signs in', async () => {
    const opened = await world.openPage();
    const { page } = opened;
    const newPassword = `Nouveau-${randomUUID().slice(0, 8)}-A1!`;
    await signInAndOpen(page, world.ws.member.email);
    await page.getByRole('navigation').getByRole('link', { name: 'Mon compte' }).click();
    const account = page.getByRole('region', { name: 'Mon compte' });
    await account.waitFor();

    await account.getByLabel('Mot de passe actuel').fill('Pas-le-bon-1!');
    await account.getByLabel('Nouveau mot de passe').fill(newPassword);
    await account.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await expect(account.getByRole('alert').textContent()).resolves.toBe(messages.session.wrongPassword);
    await expectAccessible(page);
    await account.getByLabel('Mot de passe actuel').fill(peoplePassword);
    await account.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await account.getByText('Mot de passe changé. Utilisez-le dès votre prochaine connexion.').waitFor();
    await expect(account.getByRole('alert').count()).resolves.toBe(0);
    await expect(account.getByLabel('Nouveau mot de passe').inputValue()).resolves.toBe('');
    await expectAccessible(page);
    const old = await world.api.request('POST', '/session', {
      body: { email: world.ws.member.email, password: peoplePassword },
    });
    expect(old.status).toBe(401);

    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await signIn(page, world.ws.member.email, newPassword);
    expectClean(opened);
  }, 60_000);
});
