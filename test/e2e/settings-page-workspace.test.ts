import type { Page } from 'playwright-core';
import { messages } from '../../lib/messages';
import { browserTests, expectAccessible, openScreen, pageWorld } from '../support/browser';
import { bearer } from '../support/people';

type Detail = { name: string; time_zone: string; retention_months: number | null };

/** A Monday of December: 18:20 in Paris (UTC+1), 12:20 in Montreal (UTC−5). */
const shownAt = new Date('2026-12-07T17:20:00Z');

/**
 * The « Espace » screen of the settings page (docs/api.md#workspaces) in Debian's Chromium against the local server,
 * the page's clock fixed (`shownAt`): an admin reads the workspace's name and time zone with the time it is there, is
 * refused an unknown zone as the API words it, changes it to `America/Montreal`, reads it again after a reload and in
 * the audit log; a member reads the same without any form. An admin sets the retention, refused 0 months as the API
 * words it, then clears it. Each result is read back from the API.
 */
browserTests('settings-page-workspace.test.ts')('the settings page’s « Espace » screen', () => {
  const world = pageWorld();
  const workspacePath = () => `/workspaces/${world.ws.seed.workspace_id}`;

  /** The workspace as the API answers it to a member. */
  const read = async (): Promise<Detail> => {
    const response = await world.api.request('GET', workspacePath(), { headers: bearer(world.ws.member) });
    expect(response.status).toBe(200);
    return response.body as Detail;
  };

  /** A fresh tab whose clock says `shownAt`, its timers running. */
  const openAtShownTime = async () => {
    const opened = await world.openPage();
    await opened.page.clock.setFixedTime(shownAt);
    return opened;
  };

  /** The screen's summary, each term with its description. */
  const summary = async (page: Page) => {
    const screen = page.getByRole('region', { name: 'Réglages de l’espace' });
    await screen.locator('dl').waitFor();
    const [terms, descriptions] = await Promise.all([
      screen.locator('dt').allTextContents(),
      screen.locator('dd').allTextContents(),
    ]);
    return Object.fromEntries(terms.map((term, index) => [term, descriptions[index]]));
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

  test('an admin changes the time zone to America/Montreal, refused an unknown one, and reads it after a reload and in the audit log', async () => {
    const { name } = await read();
    const { page, outside, errors } = await openAtShownTime();
    await openScreen(page, world.ws.admin.email, 'Espace');
    expect(page.url()).toBe(`${world.api.url}/app/#/espaces/${world.ws.seed.workspace_id}/espace`);
    await expect(summary(page)).resolves.toEqual({
      Nom: name,
      'Fuseau horaire': 'Europe/Paris',
      'Date et heure actuelles dans ce fuseau': 'lundi 7 décembre 2026, 18:20',
      'Conservation des données': 'Jusqu’à effacement',
    });
    const screen = page.getByRole('region', { name: 'Réglages de l’espace' });
    const field = screen.getByLabel('Fuseau horaire de l’espace');
    await expect(field.inputValue()).resolves.toBe('Europe/Paris');
    // The browser's zones are suggested as one types.
    const suggested = await screen
      .locator('datalist option')
      .evaluateAll((options) => options.map((option) => option.getAttribute('value')));
    expect(suggested.length).toBeGreaterThan(300);
    expect(suggested).toEqual(expect.arrayContaining(['Europe/Paris', 'America/Toronto', 'Asia/Tokyo']));
    await expectAccessible(page);
    await fitsPhone(page);

    // A name no time zone has: the API's 400, as it words it; nothing changed, the field kept as typed.
    await field.fill('Europe/Lutece');
    await screen.getByRole('button', { name: 'Enregistrer le fuseau horaire' }).click();
    await expect(screen.getByRole('alert').textContent()).resolves.toBe(
      messages.body.invalidField('time_zone', messages.rules.timeZone),
    );
    await expect(field.inputValue()).resolves.toBe('Europe/Lutece');
    await expect(read()).resolves.toEqual(expect.objectContaining({ time_zone: 'Europe/Paris' }));
    await expectAccessible(page);

    // Montreal: a name the browser lists under America/Toronto, accepted by the API as written.
    await field.fill('America/Montreal');
    await screen.getByRole('button', { name: 'Enregistrer le fuseau horaire' }).click();
    await screen.getByRole('status').getByText('Fuseau horaire de l’espace : America/Montreal.').waitFor();
    await expect(screen.getByRole('alert').count()).resolves.toBe(0);
    const montreal = {
      Nom: name,
      'Fuseau horaire': 'America/Montreal',
      'Date et heure actuelles dans ce fuseau': 'lundi 7 décembre 2026, 12:20',
      'Conservation des données': 'Jusqu’à effacement',
    };
    await expect(summary(page)).resolves.toEqual(montreal);
    await expect(read()).resolves.toEqual(expect.objectContaining({ time_zone: 'America/Montreal' }));
    await expectAccessible(page);

    // After a reload, the zone is the API's.
    await page.reload();
    await expect(summary(page)).resolves.toEqual(montreal);
    await expect(page.getByLabel('Fuseau horaire de l’espace').inputValue()).resolves.toBe('America/Montreal');
    await fitsPhone(page);

    // The audit log names the change, the zone before and after.
    await page.getByRole('navigation').getByRole('link', { name: 'Journal d’audit' }).click();
    const audit = page.getByRole('region', { name: 'Journal d’audit' });
    const entry = audit.getByRole('row').filter({ hasText: 'Fuseau horaire de l’espace modifié' });
    await entry.waitFor();
    await expect(entry.count()).resolves.toBe(1);
    await expect(entry.getByRole('cell').nth(4).textContent()).resolves.toBe(
      messages.audit.workspaceSettingChanged(
        messages.audit.workspaceSettings.time_zone,
        'Europe/Paris',
        'America/Montreal',
      ),
    );
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('a member reads the name, the time zone and the time there, without any form', async () => {
    const zone = { time_zone: 'Asia/Tokyo' };
    const changed = await world.api.request('PATCH', workspacePath(), { headers: bearer(world.ws.admin), body: zone });
    expect(changed.status).toBe(200);
    const { name } = await read();

    const { page, requests, outside, errors } = await openAtShownTime();
    await openScreen(page, world.ws.member.email, 'Espace');
    // Tokyo (UTC+9): already Tuesday.
    await expect(summary(page)).resolves.toEqual({
      Nom: name,
      'Fuseau horaire': 'Asia/Tokyo',
      'Date et heure actuelles dans ce fuseau': 'mardi 8 décembre 2026, 02:20',
      'Conservation des données': 'Jusqu’à effacement',
    });
    const screen = page.getByRole('region', { name: 'Réglages de l’espace' });
    await expect(screen.locator('form, input, select, textarea, button').count()).resolves.toBe(0);
    await expectAccessible(page);
    await fitsPhone(page);
    expect(requests.filter((request) => !request.startsWith('GET '))).toEqual([
      expect.stringMatching(/^POST .*\/session$/),
    ]);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('an admin sets the retention to 36 months, refused 0 and a word, clears it, and a member reads it', async () => {
    const { page, outside, errors } = await openAtShownTime();
    await openScreen(page, world.ws.admin.email, 'Espace');
    const screen = page.getByRole('region', { name: 'Réglages de l’espace' });
    const field = screen.getByLabel('Conservation des données', { exact: true });
    const submit = screen.getByRole('button', { name: 'Enregistrer la conservation' });
    await expect(field.inputValue()).resolves.toBe('');
    await expect(summary(page)).resolves.toMatchObject({ 'Conservation des données': 'Jusqu’à effacement' });
    await expectAccessible(page);

    // 0 months: the API's 400, as it words it; nothing changed, the field kept as typed.
    await field.fill('0');
    await submit.click();
    await expect(screen.getByRole('alert').textContent()).resolves.toBe(
      messages.body.invalidField('retention_months', messages.rules.retentionMonths(1, 120)),
    );
    await expect(field.inputValue()).resolves.toBe('0');
    await expect(read()).resolves.toEqual(expect.objectContaining({ retention_months: null }));
    await expectAccessible(page);

    // A word is no number: the page says so and sends nothing.
    await field.fill('trois ans');
    await submit.click();
    await expect(screen.getByRole('alert').textContent()).resolves.toBe(
      'Indiquez un nombre de mois, par exemple 36, ou laissez le champ vide pour garder les données jusqu’à leur effacement.',
    );

    await field.fill('36');
    await submit.click();
    await screen
      .getByRole('status')
      .getByText('Données conservées 36 mois après leur dernière modification.')
      .waitFor();
    await expect(screen.getByRole('alert').count()).resolves.toBe(0);
    await expect(summary(page)).resolves.toMatchObject({
      'Conservation des données': '36 mois après la dernière modification',
    });
    await expect(read()).resolves.toEqual(expect.objectContaining({ retention_months: 36 }));
    await expectAccessible(page);
    await fitsPhone(page);

    // After a reload, the retention is the API's; a member reads it, without a form.
    await page.reload();
    await expect(screen.getByLabel('Conservation des données', { exact: true }).inputValue()).resolves.toBe('36');
    const member = await openAtShownTime();
    await openScreen(member.page, world.ws.member.email, 'Espace');
    await expect(summary(member.page)).resolves.toMatchObject({
      'Conservation des données': '36 mois après la dernière modification',
    });
    await expect(member.page.locator('form').count()).resolves.toBe(0);

    // Emptied: kept until erased again.
    await screen.getByLabel('Conservation des données', { exact: true }).fill('');
    await submit.click();
    await screen.getByRole('status').getByText('Données conservées jusqu’à leur effacement.').waitFor();
    await expect(read()).resolves.toEqual(expect.objectContaining({ retention_months: null }));
    await expect(summary(page)).resolves.toMatchObject({ 'Conservation des données': 'Jusqu’à effacement' });
    await expectAccessible(page);
    expect([outside, errors, member.outside, member.errors]).toEqual([[], [], [], []]);
  }, 60_000);
});
