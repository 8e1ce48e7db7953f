import type { Page } from 'playwright-core';
import { messages } from '../../lib/messages';
import { browserTests, expectAccessible, openScreen, pageWorld } from '../support/browser';
import { bearer } from '../support/people';

type Definition = {
  key: string;
  label: string;
  type: string;
  options: string[] | null;
  aliases: string[];
  update: string;
};

/**
 * The « Champs » screen of the settings page (docs/api.md#settings-page) in Debian's Chromium against the local server:
 * an admin creates a choice field (the API's refusal of a reserved key shown as it words it), adds an option at the
 * field's own address (leaving one out is refused, as the API says), sees the audit log name it, and deletes it after
 * confirming, once declined; a member reads the fields without any form. Each result is read back from the API.
 */
browserTests('settings-page-fields.test.ts')('the settings page’s « Champs » screen', () => {
  const world = pageWorld();
  const fieldsPath = () => `/workspaces/${world.ws.seed.workspace_id}/fields`;

  /** The workspace's fields as the API lists them to a member. */
  const listed = async (): Promise<Definition[]> => {
    const response = await world.api.request('GET', fieldsPath(), { headers: bearer(world.ws.member) });
    expect(response.status).toBe(200);
    return (response.body as { fields: Definition[] }).fields;
  };

  /** A phone-width window: nothing wider than it (a string: evaluated in the page, whose DOM types Node lacks). */
  const fitsPhone = async (page: Page) => {
    const before = page.viewportSize();
    await page.setViewportSize({ width: 360, height: 740 });
    await expect(page.evaluate('[window.innerWidth, document.documentElement.scrollWidth]')).resolves.toEqual([
      360, 360,
    ]);
    await expectAccessible(page);
    if (before) await page.setViewportSize(before);
  };

  test('an admin creates a choice field, adds an option, is refused leaving one out, and deletes it after confirming', async () => {
    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.admin.email, 'Champs');
    const screen = page.getByRole('region', { name: 'Champs personnalisés' });
    await screen.getByText("Cet espace n'a encore aucun champ personnalisé.").waitFor();
    await expectAccessible(page);

    // A key the lead webhook reads itself: the API's 400, as it words it; nothing created, the form kept as typed.
    await page.getByLabel('Libellé du nouveau champ').fill('Statut');
    await page.getByLabel('Clé du nouveau champ').fill('email');
    await page.getByRole('button', { name: 'Créer le champ' }).click();
    await expect(screen.getByRole('alert').textContent()).resolves.toBe(
      messages.body.invalidField('key', messages.fields.reservedName),
    );
    expect(await listed()).toEqual([]);

    // The options field appears with a type that has options; the update rule is a choice of two.
    await expect(page.getByLabel('Options du nouveau champ').count()).resolves.toBe(0);
    await page.getByLabel('Clé du nouveau champ').fill('statut');
    await page.getByLabel('Type du nouveau champ').selectOption({ label: 'Choix unique' });
    await page.getByLabel('Options du nouveau champ').fill('Particulier\n\n Pro \n');
    await page.getByLabel('Alias du nouveau champ (facultatif)').fill('Vous êtes ?');
    await page.getByRole('radio', { name: 'Un lead remplit seulement un champ vide' }).check();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Créer le champ' }).click();
    await screen.getByRole('status').getByText('Champ « Statut » créé.').waitFor();
    await expect(screen.getByRole('alert').count()).resolves.toBe(0);
    const created: Definition = {
      key: 'statut',
      label: 'Statut',
      type: 'choice',
      options: ['Particulier', 'Pro'],
      aliases: ['Vous êtes ?'],
      update: 'if_empty',
    };
    expect(await listed()).toEqual([created]);
    const row = screen.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Statut', exact: true }) });
    const cells = row.getByRole('cell');
    await expect(cells.nth(2).textContent()).resolves.toBe('Choix unique');
    await expect(cells.nth(3).getByRole('listitem').allTextContents()).resolves.toEqual(['Particulier', 'Pro']);
    await expect(cells.nth(4).textContent()).resolves.toBe('Vous êtes ?');
    await expect(cells.nth(5).textContent()).resolves.toBe('Un lead remplit seulement un champ vide');
    // The form is empty again, its type back to text: no options field.
    await expect(page.getByLabel('Libellé du nouveau champ').inputValue()).resolves.toBe('');
    await expect(page.getByLabel('Options du nouveau champ').count()).resolves.toBe(0);
    await fitsPhone(page);

    // At the field's own address: an option left out is refused (values may use it); one added is kept, in order.
    await row.getByRole('link', { name: 'Modifier le champ « Statut »' }).click();
    expect(page.url()).toBe(`${world.api.url}/app/#/espaces/${world.ws.seed.workspace_id}/champs/statut`);
    const field = page.getByRole('region', { name: 'Champ « Statut »' });
    const options = field.getByLabel('Options', { exact: true });
    await expect(options.inputValue()).resolves.toBe('Particulier\nPro');
    // The list's news (the field created) is not repeated there.
    await expect(page.getByText('Champ « Statut » créé.').count()).resolves.toBe(0);
    await expect(
      field.getByRole('radio', { name: 'Un lead remplit seulement un champ vide' }).isChecked(),
    ).resolves.toBe(true);
    await expectAccessible(page);
    await options.fill('Pro');
    await field.getByRole('button', { name: 'Enregistrer le champ' }).click();
    await expect(field.getByRole('alert').textContent()).resolves.toBe(messages.fields.optionDropped('Particulier'));
    expect(await listed()).toEqual([created]);
    await options.fill('Pro\nParticulier\nAssociation');
    await field.getByRole('button', { name: 'Enregistrer le champ' }).click();
    await field.getByRole('status').getByText('Champ « Statut » enregistré.').waitFor();
    await expect(field.getByRole('alert').count()).resolves.toBe(0);
    const changed = { ...created, options: ['Pro', 'Particulier', 'Association'] };
    expect(await listed()).toEqual([changed]);
    const shownOptions = field.locator('dt', { hasText: 'Options' }).locator('xpath=following-sibling::dd[1]');
    await expect(shownOptions.getByRole('listitem').allTextContents()).resolves.toEqual(changed.options);
    await fitsPhone(page);

    // The audit log names the field by its label.
    await page.getByRole('navigation').getByRole('link', { name: 'Journal d’audit' }).click();
    const audit = page.getByRole('region', { name: 'Journal d’audit' });
    const entry = audit.getByRole('row').filter({ hasText: 'Champ personnalisé modifié' });
    await expect(entry.getByRole('cell').nth(3).textContent()).resolves.toBe('Statut');

    // Deletion waits for the confirmation, which names the field and says its values leave every prospect.
    await page.getByRole('navigation').getByRole('link', { name: 'Champs', exact: true }).click();
    const remove = screen.getByRole('button', { name: 'Supprimer le champ « Statut »' });
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await remove.click();
    expect(asked).toEqual([
      'Supprimer le champ « Statut » ? Ses valeurs seront retirées de tous les prospects, sa clé ne pourra plus servir, et cela ne peut pas être annulé.',
    ]);
    expect(await listed()).toEqual([changed]);
    await expect(row.count()).resolves.toBe(1);
    page.once('dialog', (dialog) => void dialog.accept());
    await remove.click();
    await screen
      .getByRole('status')
      .getByText('Champ « Statut » supprimé : ses valeurs ne sont plus affichées nulle part.')
      .waitFor();
    await expect(row.count()).resolves.toBe(0);
    await screen.getByText("Cet espace n'a encore aucun champ personnalisé.").waitFor();
    expect(await listed()).toEqual([]);
    await expectAccessible(page);

    // Its address now names no field.
    await page.goto(`${world.api.url}/app/#/espaces/${world.ws.seed.workspace_id}/champs/statut`);
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'Cet espace n’a pas de champ personnalisé à cette adresse.',
    );
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('a member reads the fields, each key to copy, without any form or action', async () => {
    const budget = { key: 'budget', label: 'Budget mensuel', type: 'number', aliases: ['Quel est votre budget ?'] };
    const created = await world.api.request('POST', fieldsPath(), { headers: bearer(world.ws.admin), body: budget });
    expect(created.status).toBe(201);

    const { page, requests, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.member.email, 'Champs');
    const screen = page.getByRole('region', { name: 'Champs personnalisés' });
    const row = screen
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Budget mensuel', exact: true }) });
    await row.waitFor();
    const cells = row.getByRole('cell');
    await expect(cells.allTextContents()).resolves.toEqual([
      'Budget mensuel',
      expect.stringMatching(/^budget/),
      'Nombre',
      '(aucune)',
      'Quel est votre budget ?',
      'Un lead remplace la valeur',
    ]);
    await expect(cells.nth(1).locator('code').textContent()).resolves.toBe('budget');
    await cells.nth(1).getByRole('button', { name: 'Copier la clé du champ « Budget mensuel »' }).waitFor();
    await expect(screen.locator('form, input, select, textarea').count()).resolves.toBe(0);
    await expect(screen.getByRole('link', { name: /^Modifier/ }).count()).resolves.toBe(0);
    await expect(screen.getByRole('button', { name: /^Supprimer/ }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await fitsPhone(page);
    expect(requests.filter((request) => !request.startsWith('GET '))).toEqual([
      expect.stringMatching(/^POST .*\/session$/),
    ]);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);
});
