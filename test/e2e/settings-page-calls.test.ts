import { messages } from '../../lib/messages';
import { browserTests, expectAccessible, openScreen, pageWorld } from '../support/browser';
import { formatDateTime } from '../../app/src/dates';

/**
 * « Appels du webhook » and « Journal d'audit » (docs/api.md#settings-page) in Debian's Chromium against the local
 * server: a lead refused by the webhook and one accepted are both in the journal; the failed-only filter keeps the
 * refused one; opened, it shows its kept body; replayed, the webhook's answer is shown and the journal lists the new
 * call; the audit log then lists the replay in words, by the admin's name. A member has neither screen. axe-core checks
 * each state reached.
 */
browserTests('settings-page-calls.test.ts')('the settings page’s « Appels du webhook » and « Journal d’audit »', () => {
  const world = pageWorld();

  /** A form posting a lead to the workspace's lead webhook, as a website does. */
  const sendLead = (body: unknown) =>
    fetch(
      `${world.api.url}/webhooks/ingest-lead?endpoint_id=${encodeURIComponent(world.ws.seed.webhook?.endpoint_id as string)}`,
      {
        method: 'POST',
        headers: { 'x-webhook-token': world.ws.seed.webhook?.token as string, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      },
    );

  /** The failed calls as the settings API lists them to the admin. */
  const failedCalls = async () => {
    const response = await fetch(
      `${world.api.url}/workspaces/${world.ws.seed.workspace_id}/webhook/calls?failed=true`,
      { headers: { Authorization: `Bearer ${world.ws.admin.accessToken}` } },
    );
    return ((await response.json()) as { calls: { id: string; at: string; status: number }[] }).calls;
  };

  test('the admin sees both calls, filters the refused one, opens it, replays it; the audit log lists the replay', async () => {
    expect((await sendLead({ first_name: 'Sans contact' })).status).toBe(400);
    expect((await sendLead({ first_name: 'Nina', email: 'nina.roux@calls.test' })).status).toBe(200);

    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.admin.email, 'Appels du webhook');
    const screen = page.getByRole('region', { name: 'Appels du webhook' });
    const calls = screen.getByRole('row').filter({ has: page.getByRole('cell') });
    // Each outcome in words: the refusal's code (invalid_payload) and the lead webhook's `created`.
    const refused = 'Refusé : corps illisible, sans e-mail, téléphone ni profil social utilisable';
    await calls.filter({ hasText: refused }).waitFor();
    await calls.filter({ hasText: 'Prospect créé' }).waitFor();
    await expect(calls.count()).resolves.toBe(2);
    await expect(screen.getByText('invalid_payload').count()).resolves.toBe(0);
    await expectAccessible(page);

    await screen.getByLabel('Échecs seulement').check();
    await calls.filter({ hasText: 'Prospect créé' }).waitFor({ state: 'detached' });
    await calls.filter({ hasText: refused }).waitFor();
    await expect(calls.count()).resolves.toBe(1);
    await calls
      .first()
      .getByRole('link', { name: /^Ouvrir l’appel du / })
      .click();
    const callAddress = page.url();
    expect(callAddress).toMatch(new RegExp(`#/espaces/${world.ws.seed.workspace_id}/appels/[^/]+$`));

    const opened = screen.getByRole('article');
    await opened.getByText('"first_name": "Sans contact"').waitFor();
    // Opening a call moves the focus to it, so the keyboard goes on from what was asked for.
    await opened.locator('h3:focus').waitFor();
    // The refusal as the webhook answered it, first under the heading, before the call's facts and its body.
    const first = opened.locator('h3 + *');
    await expect(first.getByRole('heading').textContent()).resolves.toBe('Le webhook a refusé cet appel');
    await expect(first.getByRole('paragraph').textContent()).resolves.toBe(messages.lead.noContact);
    await expectAccessible(page);

    await opened.getByRole('button', { name: 'Rejouer' }).click();
    await opened.getByRole('heading', { name: 'Réponse du webhook au rejeu : statut 400' }).waitFor();
    await opened.locator('pre').filter({ hasText: messages.lead.noContact }).waitFor();
    await screen.getByRole('status').filter({ hasText: 'Appel rejoué.' }).waitFor();
    const listed = await failedCalls();
    expect(listed.map((call) => call.status)).toEqual([400, 400]);
    // The new call the screen shows is the one the API now lists first (newest first).
    const newestAt = formatDateTime(listed[0]?.at as string);
    await expect(opened.locator('dl').nth(1).locator('dd').first().textContent()).resolves.toBe(newestAt);
    // On a phone-width screen nothing is wider than the screen (the bodies included).
    await page.setViewportSize({ width: 320, height: 640 });
    await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(320);
    await expectAccessible(page);

    // Back: the journal, as it was read again after the replay, lists the new call first; a table fits the phone too.
    await page.goBack();
    await calls.nth(1).waitFor();
    await expect(calls.count()).resolves.toBe(2);
    await expect(calls.first().getByRole('cell').first().textContent()).resolves.toBe(newestAt);
    await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(320);
    await expectAccessible(page);
    // Forward, then a reload: the call has its own address, which shows it again.
    await page.goForward();
    await opened.getByText('"first_name": "Sans contact"').waitFor();
    expect(page.url()).toBe(callAddress);
    await page.reload();
    await opened.getByText('"first_name": "Sans contact"').waitFor();

    await page.getByRole('navigation').getByRole('link', { name: 'Journal d’audit' }).click();
    const audit = page.getByRole('region', { name: 'Journal d’audit' });
    // The entry says what happened in words, and who did it by name and e-mail (the seeded admin), not by id.
    const replayed = audit.getByRole('row').filter({ hasText: 'Appel du webhook rejoué' });
    await replayed.waitFor();
    await replayed.getByText(`Alice Martin (${world.ws.admin.email})`, { exact: true }).waitFor();
    await expect(audit.getByText('webhook_call.replayed').count()).resolves.toBe(0);
    await expect(audit.getByText(world.ws.admin.memberId).count()).resolves.toBe(0);
    // What it acted on: the replayed call, at its own address.
    await expect(replayed.getByRole('link', { name: /^Ouvrir l’appel rejoué/ }).getAttribute('href')).resolves.toBe(
      new URL(callAddress).hash,
    );
    await expectAccessible(page);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('past the API’s page of 50 calls, « Plus » shows the next page, then no more', async () => {
    // 51 refused leads, 17 at a time to spare the shared machine.
    for (let batch = 0; batch < 51; batch += 17)
      await Promise.all(
        Array.from({ length: 17 }, async () => expect((await sendLead({ first_name: 'Page' })).status).toBe(400)),
      );

    const { page, errors } = await world.openPage();
    await openScreen(page, world.ws.admin.email, 'Appels du webhook');
    const screen = page.getByRole('region', { name: 'Appels du webhook' });
    const calls = screen.getByRole('row').filter({ has: page.getByRole('cell') });
    await calls.nth(49).waitFor();
    await expect(calls.count()).resolves.toBe(50);

    await screen.getByRole('button', { name: 'Plus' }).click();
    await calls.nth(50).waitFor();
    await screen.getByRole('button', { name: 'Plus' }).waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  }, 30_000);

  test('a member has neither screen in the menu', async () => {
    const { page } = await world.openPage();
    await openScreen(page, world.ws.member.email, 'Prospects');
    const menu = page.getByRole('navigation');
    await menu.getByRole('link', { name: 'Mon compte' }).waitFor();
    await expect(menu.getByRole('link', { name: 'Appels du webhook' }).count()).resolves.toBe(0);
    await expect(menu.getByRole('link', { name: 'Journal d’audit' }).count()).resolves.toBe(0);
  }, 30_000);
});
