import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { messages } from '../../lib/messages';
import { browserTests, expectAccessible, openScreen, pageWorld, picture, signInOnPage } from '../support/browser';
import { bearer, workspaceWithPeople } from '../support/people';
import { aWorkspace } from '../support/seed';

/**
 * « Fiche prospect » (docs/api.md#settings-page) in Debian's Chromium against the local server: a member finds a
 * prospect by e-mail, sees the change an integration's key made to it under « Modifications par l'API », and undoes it
 * in one action; the Prospect API then shows the old stage. The record shows the workspace's custom fields by label,
 * their values as an integration's key set them, and the entries of those changes by the field's label. An admin
 * exports a prospect's data as a file and erases it after confirming (a member sees neither button); a search by e-mail
 * lists the address's candidates beside the prospect, each exported and erased the same way.
 */
browserTests('settings-page-prospect.test.ts')('the settings page’s « Fiche prospect » screen', () => {
  const seeded = aWorkspace();
  /** A prospect of its own for the erasure, and the candidate who applied with the same address. */
  const ines = { first_name: 'Inès', last_name: 'Roux', email: 'ines.roux@acme.test', phone: '+33600000042' };
  const world = pageWorld({ ...seeded, prospects: [...(seeded.prospects ?? []), { key: 'ines', ...ines }] });

  const withKey = (method: string, path: string, body?: unknown) =>
    fetch(`${world.api.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${world.ws.seed.api_keys.admin?.secret}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /** The JSON file the browser saved from « Exporter », once the page's status says it is ready. */
  async function exportedFile(page: Page, exporter: ReturnType<Page['getByRole']>) {
    const saved = page.waitForEvent('download');
    await exporter.click();
    const download: Download = await saved;
    await page.getByRole('status').filter({ hasText: 'Export prêt' }).waitFor();
    return { name: download.suggestedFilename(), document: JSON.parse(await readFile(await download.path(), 'utf8')) };
  }

  test('a member finds a prospect, sees the key’s change and undoes it: the prospect has its old stage again', async () => {
    const prospectId = world.ws.seed.prospects.lead as string;
    const stages = world.ws.seed.pipelines.sales?.stages ?? {};
    expect((await withKey('PATCH', `/prospects/${prospectId}`, { stage: 'Relance' })).status).toBe(200);

    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.member.email, 'Prospects');
    await page.getByLabel('Adresse e-mail ou numéro du prospect').fill('inconnu@acme.test');
    await page.getByRole('button', { name: 'Chercher' }).click();
    await page.getByText('Aucun prospect de cet espace ne correspond.').waitFor();

    await page.getByLabel('Adresse e-mail ou numéro du prospect').fill('LEA.PETIT@acme.test');
    await page.getByRole('button', { name: 'Chercher' }).click();
    await page.getByRole('heading', { name: 'Léa Petit' }).waitFor();
    const record = page.getByRole('article');
    await record.getByText('Après : Ventes › Relance').first().waitFor();
    await expectAccessible(page);
    // A member neither exports nor erases: both are an admin's.
    await expect(page.getByRole('button', { name: /^(Exporter|Effacer) / }).count()).resolves.toBe(0);

    await record.getByRole('button', { name: 'Annuler cette modification' }).click();
    await record.getByRole('status').filter({ hasText: 'Modification annulée' }).waitFor();
    await record.getByText(/^Annulée le /).waitFor();
    await expect(record.getByRole('button', { name: 'Annuler cette modification' }).count()).resolves.toBe(0);
    // The record read again after the undo: its stage the one before.
    await record.locator('dd').nth(2).getByText('Ventes › Nouveau', { exact: true }).waitFor();

    const read = (await (await withKey('GET', `/prospects/${prospectId}`)).json()) as { stage_id: string };
    expect(read.stage_id).toBe(stages.new);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('the record has its own address: Back returns to the search, a reload keeps it, a colleague opens it from a link; a person of another workspace reads the API’s refusal', async () => {
    const prospectId = world.ws.seed.prospects.lead as string;
    const address = `${world.api.url}/app/#/espaces/${world.ws.seed.workspace_id}/prospects/${prospectId}`;
    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.member.email, 'Prospects');
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
    await colleague.getByRole('navigation').getByRole('link', { name: 'Prospects', exact: true }).waitFor();

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

  test('an address changed while the page is still starting is the one it shows, once signed in', async () => {
    const prospectId = world.ws.seed.prospects.lead as string;
    const address = `#/espaces/${world.ws.seed.workspace_id}/prospects/${prospectId}`;
    const page = await world.browser.newPage();
    // Between the page's first render and its effects: the moment a link followed or an address typed at once lands in.
    await page.addInitScript(
      `document.addEventListener('DOMContentLoaded', () => { window.location.hash = ${JSON.stringify(address)}; });`,
    );
    await page.goto(`${world.api.url}/app/`);
    await signInOnPage(page, world.ws.member.email);
    await page.getByRole('heading', { name: 'Léa Petit' }).waitFor();
    expect(page.url()).toBe(`${world.api.url}/app/${address}`);
    await page.close();
  }, 60_000);

  test('the record shows each custom field by its label in the order they were created, with the values a key set; its entries name the label; an undo empties the field again', async () => {
    const prospectId = world.ws.seed.prospects.deposit as string;
    const definitions = [
      { key: 'budget', label: 'Budget mensuel', type: 'number' },
      { key: 'canaux', label: 'Canaux', type: 'multi_choice', options: ['Instagram', 'TikTok', 'YouTube'] },
      { key: 'accord', label: 'Accord RGPD', type: 'boolean' },
      { key: 'premier_rdv', label: 'Premier rendez-vous', type: 'date' },
      { key: 'societe', label: 'Société', type: 'text' },
    ];
    for (const body of definitions) {
      const created = await world.api.request('POST', `/workspaces/${world.ws.seed.workspace_id}/fields`, {
        headers: bearer(world.ws.admin),
        body,
      });
      expect(created.status).toBe(201);
    }
    const fields = { budget: '1 500,50', canaux: 'youtube, Instagram', accord: 'oui', premier_rdv: '07/12/2026' };
    expect((await withKey('PATCH', `/prospects/${prospectId}`, { fields })).status).toBe(200);

    const { page, outside, errors } = await world.openPage();
    await page.goto(`${world.api.url}/app/#/espaces/${world.ws.seed.workspace_id}/prospects/${prospectId}`);
    await signInOnPage(page, world.ws.member.email);
    const record = page.getByRole('article');
    const valueOf = (label: string) =>
      record.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
    await valueOf('Budget mensuel').waitFor();
    await expect(record.locator('dt').allTextContents()).resolves.toEqual([
      'Adresse e-mail',
      'Téléphone',
      'Étape',
      'Setter',
      'Closer',
      'Prochain rappel',
      'Tags',
      ...definitions.map((definition) => definition.label),
    ]);
    // A number the French way (Intl's narrow no-break space between thousands), options in the definition's order.
    const shown = ['1\u202f500,5', 'Instagram, YouTube', 'Oui', '7 déc. 2026', '(aucun)'];
    for (const [index, definition] of definitions.entries())
      await expect(valueOf(definition.label).textContent()).resolves.toBe(shown[index]);

    // One entry per field the key set, named by the field's label, before and after written as the record writes them.
    const rows = record.getByRole('row').filter({ has: page.getByRole('cell') });
    const entryOf = (label: string) => rows.filter({ has: page.getByRole('cell', { name: label, exact: true }) });
    for (const [index, definition] of definitions.slice(0, 4).entries())
      await entryOf(definition.label).getByText(`Avant : (aucun) — Après : ${shown[index]}`).waitFor();
    await expect(rows.count()).resolves.toBe(4);
    expect(await record.textContent()).not.toContain('fields.');
    await expectAccessible(page);

    await entryOf('Budget mensuel').getByRole('button', { name: 'Annuler cette modification' }).click();
    await record.getByRole('status').filter({ hasText: 'Modification annulée' }).waitFor();
    await valueOf('Budget mensuel').getByText('(aucun)', { exact: true }).waitFor();
    await expect(valueOf('Canaux').textContent()).resolves.toBe('Instagram, YouTube');
    const read = (await (await withKey('GET', `/prospects/${prospectId}`)).json()) as { fields: unknown };
    expect(read.fields).toEqual({
      budget: null,
      canaux: ['Instagram', 'YouTube'],
      accord: true,
      premier_rdv: '2026-12-07',
      societe: null,
    });

    // On a phone-width screen, the record and its entries fit without scrolling sideways.
    await page.setViewportSize({ width: 360, height: 740 });
    const widths = await page.evaluate('[window.innerWidth, document.documentElement.scrollWidth]');
    expect(widths).toEqual([360, 360]);
    await expectAccessible(page);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('an admin exports a prospect’s data as a JSON file, keeps it after cancelling the erasure, erases it after confirming: back on « Prospects », the API answers 404', async () => {
    const prospectId = world.ws.seed.prospects.ines as string;
    const { page, outside, errors } = await world.openPage();
    await page.goto(`${world.api.url}/app/#/espaces/${world.ws.seed.workspace_id}/prospects/${prospectId}`);
    await signInOnPage(page, world.ws.admin.email);
    const record = page.getByRole('article');
    await record.getByRole('heading', { name: 'Inès Roux' }).waitFor();

    const exported = await exportedFile(
      page,
      record.getByRole('button', { name: 'Exporter les données de Inès Roux' }),
    );
    expect(exported.name).toBe(`prospect-${prospectId}.json`);
    expect(exported.document.prospect).toMatchObject({ id: prospectId, email: ines.email });
    await picture(page, 'fiche-prospect-export');

    // The erasure waits for the confirmation, which names the person and says it cannot be undone.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await record.getByRole('button', { name: 'Effacer Inès Roux (ines.roux@acme.test) et toutes ses données' }).click();
    expect(asked).toEqual([
      'Effacer le prospect Inès Roux (ines.roux@acme.test) ? Ses données, notes et copies seront supprimées de l’espace. C’est définitif : rien ne pourra être restauré.',
    ]);
    expect((await withKey('GET', `/prospects/${prospectId}`)).status).toBe(200);
    await expect(record.getByRole('heading', { name: 'Inès Roux' }).count()).resolves.toBe(1);

    page.once('dialog', (dialog) => void dialog.accept());
    await record.getByRole('button', { name: /^Effacer Inès Roux/ }).click();
    const list = page.getByRole('region', { name: 'Prospects' });
    await list.getByRole('status').filter({ hasText: 'Prospect effacé' }).waitFor();
    expect(page.url()).toBe(`${world.api.url}/app/#/espaces/${world.ws.seed.workspace_id}/prospects`);
    await list.getByRole('table').waitFor();
    expect(await page.locator('body').textContent()).not.toMatch(/Inès|ines\.roux/);
    expect((await withKey('GET', `/prospects/${prospectId}`)).status).toBe(404);
    await expectAccessible(page);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('an admin’s search by e-mail lists the address’s candidate beside its prospect, exports the candidate and erases it after confirming; a search by phone looks for no candidate', async () => {
    const applied = await world.api.request('POST', '/webhooks/recruitment', {
      query: { endpoint_id: world.ws.seed.webhook?.endpoint_id as string },
      headers: { 'x-webhook-token': world.ws.seed.webhook?.token as string },
      body: {
        email: 'lea.petit@acme.test',
        name: 'Léa Petit',
        position: 'Développeuse',
        pipeline_id: world.ws.seed.recruitment_pipelines.devs?.id,
      },
    });
    expect(applied.status).toBe(200);
    const candidateId = (applied.body as { talent_id: string }).talent_id;

    const { page, requests, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.admin.email, 'Prospects');
    await page.getByLabel('Téléphone', { exact: true }).check();
    await page.getByLabel('Adresse e-mail ou numéro du prospect').fill('+33600000001');
    await page.getByRole('button', { name: 'Chercher' }).click();
    await page.getByRole('heading', { name: 'Léa Petit' }).waitFor();
    expect(requests.filter((request) => request.includes('/candidates'))).toEqual([]);
    await page.goBack();

    await page.getByLabel('Adresse e-mail ou numéro du prospect').fill('Lea.Petit@acme.test');
    await page.getByRole('button', { name: 'Chercher' }).click();
    const found = page.getByRole('region', { name: 'Candidats à cette adresse' });
    const row = found.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Développeuse' }) });
    await row.getByRole('cell', { name: 'Léa Petit', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Ouvrir la fiche prospect de Léa Petit' }).waitFor();
    expect(page.url()).toBe(`${world.api.url}/app/#/espaces/${world.ws.seed.workspace_id}/prospects`);

    const exported = await exportedFile(page, row.getByRole('button', { name: /^Exporter les données de Léa Petit/ }));
    expect(exported.name).toBe(`candidat-${candidateId}.json`);
    expect(exported.document.candidate).toMatchObject({ id: candidateId, email: 'lea.petit@acme.test' });
    await picture(page, 'prospects-candidats');

    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await row.getByRole('button', { name: 'Effacer Léa Petit (lea.petit@acme.test) et toutes ses données' }).click();
    await page.getByRole('status').filter({ hasText: 'Candidat effacé' }).waitFor();
    expect(asked).toEqual([
      expect.stringMatching(/^Effacer le candidat Léa Petit \(lea\.petit@acme\.test\) \? .*définitif/),
    ]);
    await found.waitFor({ state: 'detached' });
    const lookUp = await world.api.request('GET', `/workspaces/${world.ws.seed.workspace_id}/candidates`, {
      query: { email: 'lea.petit@acme.test' },
      headers: bearer(world.ws.admin),
    });
    expect(lookUp.body).toEqual({ candidates: [] });
    // The prospect of the same address stays, its record a link away.
    await page.getByRole('link', { name: 'Ouvrir la fiche prospect de Léa Petit' }).click();
    await page.getByRole('heading', { name: 'Léa Petit' }).waitFor();
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);
});
