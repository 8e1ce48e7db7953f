import type { BrowserContext } from 'playwright-core';
import { productionDeps } from '../../lib/storage/client';
import { seedDemoWorkspace, type Demo } from '../../tools/local/demo-workspace';
import { browserTests, openPage, picture, signInOnPage, startBrowser } from '../support/browser';
import { startTestApi, type TestApi } from '../support/local-api';

/**
 * An administrator's whole journey through the settings page, in Debian's Chromium, as `npm start`'s demo admin (the
 * workspace and the admin it seeds, tools/local/demo-workspace.ts): sign in → a new webhook token → a lead sent with
 * the copied URL and token → the call in « Appels du webhook » (a custom field created on the way) → an API key with
 * scopes → a stage changed with it → the lead in « Prospects », the change in its « Fiche prospect » and in the key's
 * changes, its prospect named → undone → `GET /prospects/{id}` shows the old stage; then a subscription, the members,
 * « Espace » (its time zone), the audit log and « Mon compte ». Every screen is checked by axe-core at a desktop's width
 * and a phone's (`picture`); `npm run screenshots` runs this same journey to picture each at both widths (the README's
 * pictures); `npm test` makes none.
 */
browserTests('settings-page-journey.test.ts')('the settings page, as the demo admin', () => {
  let api: TestApi;
  let browser: BrowserContext;
  let closeBrowser: () => Promise<void>;
  let demo: Demo;

  beforeAll(async () => {
    const deps = productionDeps();
    const started = await Promise.all([startTestApi(), startBrowser(), seedDemoWorkspace(deps)]);
    [api, { browser, close: closeBrowser }, demo] = started;
    deps.db.destroy();
    // The copy buttons write to the clipboard, which the test reads back: what a person would paste.
    await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
  }, 60_000);
  afterAll(async () => {
    await closeBrowser?.();
    await api?.close();
  });

  const withKey = (key: string, method: string, path: string, body?: unknown) =>
    fetch(`${api.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  test('from the sign-in to the undone change, every step checked where it lands, every screen at both widths', async () => {
    const { page, outside, errors } = await openPage(browser, api.url);
    await page.setViewportSize({ width: 1280, height: 800 });
    const menu = page.getByRole('navigation');
    const clipboard = async () => String(await page.evaluate('navigator.clipboard.readText()'));
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await picture(page, 'connexion');
    await signInOnPage(page, demo.admin.email, demo.admin.password);
    await page.getByRole('heading', { name: 'Vos espaces' }).waitFor();
    await picture(page, 'espaces');
    await page.getByRole('link', { name: /^Ouvrir l'espace/ }).click();

    // The demo workspace has a webhook: a new token, after confirmation, shown once and copied with the URL.
    const webhook = page.getByRole('region', { name: 'Webhook' });
    page.once('dialog', (dialog) => void dialog.accept());
    await webhook.getByRole('button', { name: 'Régénérer le jeton' }).click();
    const token = webhook.getByRole('group', { name: 'Jeton du webhook' });
    await token.getByRole('button', { name: 'Copier' }).click();
    const copiedToken = await clipboard();
    await token.getByRole('button', { name: 'J’ai copié la valeur, la masquer' }).click();
    await webhook.getByRole('button', { name: 'Copier : URL du webhook des leads' }).click();
    const leadUrl = await clipboard();
    expect(leadUrl).toBe(`${api.url}/webhooks/ingest-lead?endpoint_id=${demo.seed.webhook?.endpoint_id}`);

    const lead = await fetch(leadUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${copiedToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ first_name: 'Nina', last_name: 'Roux', email: 'nina.roux@exemple.test' }),
    });
    expect(lead.status).toBe(200);
    const { prospect_id: prospectId } = (await lead.json()) as { prospect_id: string };
    // A reload keeps the workspace's screen (its address), signed in.
    await page.reload();
    await webhook.getByText(/^Dernier appel reçu le /).waitFor();
    await picture(page, 'tags-webhook');

    // A custom field the workspace's forms fill: a single choice, its options one a line, a question's title as alias.
    await menu.getByRole('link', { name: 'Champs', exact: true }).click();
    await page.getByLabel('Libellé du nouveau champ').fill('Type de projet');
    await page.getByLabel('Clé du nouveau champ').fill('type_projet');
    await page.getByLabel('Type du nouveau champ').selectOption({ label: 'Choix unique' });
    await page.getByLabel('Options du nouveau champ').fill('Rénovation\nConstruction\nExtension');
    await page.getByLabel('Alias du nouveau champ (facultatif)').fill('Quel est votre projet ?');
    await page.getByRole('button', { name: 'Créer le champ' }).click();
    await page.getByRole('status').getByText('Champ « Type de projet » créé.').waitFor();
    // The screen from its top, its list first (the button pressed is at the bottom of the form).
    await page.evaluate('window.scrollTo(0, 0)');
    await picture(page, 'champs');

    await menu.getByRole('link', { name: 'Appels du webhook' }).click();
    const callsScreen = page.getByRole('region', { name: 'Appels du webhook' });
    const created = callsScreen.getByRole('row').filter({ hasText: 'Prospect créé' });
    await created.waitFor();
    await picture(page, 'appels-du-webhook');
    await created.getByRole('link', { name: /^Ouvrir l’appel du / }).click();
    await callsScreen.getByRole('article').waitFor();
    await picture(page, 'appel-du-webhook');

    // A key with two scopes: it moves the lead to « Relance ».
    await menu.getByRole('link', { name: 'Clés d’API' }).click();
    await page.getByLabel('Nom de la clé').fill('Synchronisation agenda');
    for (const scope of ['pipelines:read', 'notes:write', 'tags:write'])
      await page.getByRole('checkbox', { name: `(${scope})` }).uncheck();
    await page.getByRole('button', { name: 'Créer la clé' }).click();
    const key = await page.getByRole('textbox', { name: 'Valeur de la clé « Synchronisation agenda »' }).inputValue();
    await page.getByRole('button', { name: 'J’ai copié la valeur, la masquer' }).click();
    await picture(page, 'cles-d-api');
    const stages = demo.seed.pipelines.ventes?.stages as Record<string, string>;
    expect((await withKey(key, 'PATCH', `/prospects/${prospectId}`, { stage: 'Relance' })).status).toBe(200);

    await menu.getByRole('link', { name: 'Prospects' }).click();
    await page.getByRole('region', { name: 'Prospects' }).getByRole('link', { name: 'Nina Roux' }).waitFor();
    await picture(page, 'prospects');
    await page.getByLabel('Adresse e-mail ou numéro du prospect').fill('nina.roux@exemple.test');
    await page.getByRole('button', { name: 'Chercher' }).click();
    const record = page.getByRole('article');
    await record.getByRole('button', { name: 'Annuler cette modification' }).waitFor();
    expect(page.url()).toBe(`${api.url}/app/#/espaces/${demo.seed.workspace_id}/prospects/${prospectId}`);
    await picture(page, 'fiche-prospect');

    await menu.getByRole('link', { name: 'Clés d’API' }).click();
    await page.getByRole('link', { name: 'Modifications faites avec la clé « Synchronisation agenda »' }).click();
    const keyPage = page.getByRole('region', { name: 'Clé « Synchronisation agenda »' });
    const change = keyPage.getByRole('row').filter({ hasText: 'Nina Roux' });
    await change.getByText('Avant : Ventes › Nouveau — Après : Ventes › Relance').waitFor();
    await picture(page, 'cle-d-api');
    await change.getByRole('button', { name: 'Annuler cette modification' }).click();
    await keyPage.getByRole('status').getByText('Modification annulée', { exact: false }).waitFor();
    const read = (await (await withKey(key, 'GET', `/prospects/${prospectId}`)).json()) as { stage_id: string };
    expect(read.stage_id).toBe(stages.nouveau);
    // The change's prospect, by its name, is a link to its record.
    await change.getByRole('link', { name: 'Nina Roux' }).click();
    await record.getByText('Ventes › Nouveau', { exact: true }).waitFor();

    await menu.getByRole('link', { name: 'Abonnements' }).click();
    await page.getByLabel('URL qui recevra les événements').fill('https://exemple.test/crm-events');
    await page.getByRole('button', { name: 'Créer l’abonnement' }).click();
    await page.getByRole('button', { name: 'J’ai copié la valeur, la masquer' }).click();
    await picture(page, 'abonnements');
    await page.getByRole('link', { name: 'Ouvrir l’abonnement à https://exemple.test/crm-events' }).click();
    await page.getByRole('region', { name: 'Abonnement à https://exemple.test/crm-events' }).waitFor();
    await picture(page, 'abonnement');

    await menu.getByRole('link', { name: 'Membres' }).click();
    await page.getByRole('cell', { name: 'Camille Laurent', exact: true }).waitFor();
    await picture(page, 'membres');
    await menu.getByRole('link', { name: 'Espace', exact: true }).click();
    await page.getByLabel('Fuseau horaire de l’espace').waitFor();
    await picture(page, 'espace');
    await menu.getByRole('link', { name: 'Journal d’audit' }).click();
    await page.getByRole('region', { name: 'Journal d’audit' }).getByRole('row').nth(1).waitFor();
    await picture(page, 'journal-d-audit');
    await menu.getByRole('link', { name: 'Mon compte' }).click();
    await page.getByRole('region', { name: 'Mon compte' }).waitFor();
    await picture(page, 'mon-compte');
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);
});
