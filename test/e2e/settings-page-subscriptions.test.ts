import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { listAudit } from '../../lib/settings/audit';
import { messages } from '../../lib/messages';
import type { SubscriptionView } from '../../lib/settings/subscription-list';
import { productionSecretsDeps } from '../../lib/storage/client';
import type { DeliveryView } from '../../lib/domain/events/delivery-view';
import { startEventPipeline, type EventPipeline } from '../../tools/local/event-pipeline';
import { browserTests, expectAccessible, openScreen, pageWorld, signInOnPage } from '../support/browser';
import { bearer } from '../support/people';

/**
 * The « Abonnements » screen of the settings page (docs/api.md#settings-page) in Debian's Chromium against the local
 * server and its outbound events as `npm start` runs them (the table's stream, the delivery function, the in-process
 * queue the redeliver route queues on): an admin subscribes a URL (its secret shown once), turns it off and on, rotates
 * its secret and deletes it after confirming, reads a lead's delivery and sends it again, changes the event types of an
 * existing subscription; a member has no such screen.
 * Nothing listens on 127.0.0.1:9, so every attempt fails at once and stays pending. Skipped, with a warning, where
 * Chromium is absent (CI installs it).
 */
browserTests('settings-page-subscriptions.test.ts')('the settings page’s « Abonnements » screen', () => {
  const deps = productionSecretsDeps();
  let pipeline: EventPipeline;
  // The pipeline starts after the API (below); the redeliver route queues on it only when a test runs.
  const world = pageWorld(undefined, { queue: { send: (sent) => pipeline.queue.send(sent) } });
  beforeAll(async () => {
    pipeline = await startEventPipeline({
      deps,
      endpoint: process.env.DYNAMODB_ENDPOINT as string,
      startingPosition: 'LATEST',
    });
  }, 60_000);
  afterAll(async () => {
    await pipeline?.stop();
    deps.db.destroy();
  });

  const url = 'http://127.0.0.1:9/x';
  const base = () => `/workspaces/${world.ws.seed.workspace_id}/subscriptions`;
  const asAdmin = (path = '') => world.api.request('GET', `${base()}${path}`, { headers: bearer(world.ws.admin) });
  const listed = async () => ((await asAdmin()).body as { subscriptions: SubscriptionView[] }).subscriptions;
  const rotations = async () =>
    (await listAudit(deps, { workspaceId: world.ws.seed.workspace_id })).entries.filter(
      (entry) => entry.action === 'subscription.secret_rotated',
    ).length;
  const kept = (page: Page) =>
    page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));

  /** Every write so far through the stream handler, every message due handed to the delivery function. */
  async function settle(): Promise<void> {
    for (let round = 0; round < 3; round += 1) {
      await pipeline.caughtUp();
      await pipeline.idle();
    }
  }

  test('an admin subscribes (secret seen once), turns it off and on, rotates its secret, redelivers, deletes it', async () => {
    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.admin.email, 'Abonnements');
    await page.getByText("Cet espace n'a encore aucun abonnement.").waitFor();
    await expectAccessible(page);

    // No event type chosen: the API refuses, and the page shows its message.
    await page.getByLabel('URL qui recevra les événements').fill(url);
    const events = page.getByRole('group', { name: 'Événements à envoyer' }).getByRole('checkbox');
    for (const checkbox of await events.all()) await checkbox.uncheck();
    const submit = page.getByRole('button', { name: 'Créer l’abonnement' });
    await submit.click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(messages.admin.subscription.noEventType);
    expect(await listed()).toEqual([]);
    for (const type of ['prospect.created', 'prospect.updated'])
      await page.getByRole('checkbox', { name: `(${type})` }).check();
    await submit.click();
    const secretField = page.getByRole('textbox', { name: `Secret de signature de l’abonnement à ${url}` });
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_/);
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: url, exact: true }) });
    await row
      .getByText('Prospect créé (prospect.created) ; Prospect modifié (prospect.updated)', { exact: true })
      .waitFor();
    expect(await listed()).toMatchObject([{ url, events: ['prospect.created', 'prospect.updated'], active: true }]);
    await expectAccessible(page);

    // Dismissed, the secret is nowhere in the tab: not in the page, not in its storage.
    await page.getByRole('button', { name: 'J’ai copié la valeur, la masquer' }).click();
    await secretField.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);
    expect(await kept(page)).not.toContain(secret);

    await row.getByRole('button', { name: `Désactiver l’abonnement à ${url}` }).click();
    await row.getByText('désactivé (plus rien n’est envoyé)').waitFor();
    expect(await listed()).toMatchObject([{ active: false }]);
    await row.getByRole('button', { name: `Activer l’abonnement à ${url}` }).click();
    await row.getByText('actif', { exact: true }).waitFor();
    expect(await listed()).toMatchObject([{ active: true }]);

    // The subscription's own page, at its own address: its secret, its deliveries, its deletion.
    await row.getByRole('link', { name: `Ouvrir l’abonnement à ${url}` }).click();
    const card = page.getByRole('region', { name: `Abonnement à ${url}` });
    await card.getByText('Aucun envoi pour cet abonnement', { exact: false }).waitFor();
    expect(page.url()).toMatch(new RegExp(`#/espaces/${world.ws.seed.workspace_id}/abonnements/[^/]+$`));

    // Rotation waits for the confirmation: declined, nothing is rotated; accepted, a new secret shown once.
    const rotate = card.getByRole('button', { name: `Changer le secret de l’abonnement à ${url}` });
    page.once('dialog', (dialog) => void dialog.dismiss());
    await rotate.click();
    expect(await rotations()).toBe(0);
    await expect(secretField.count()).resolves.toBe(0);
    page.once('dialog', (dialog) => void dialog.accept());
    await rotate.click();
    const rotated = await secretField.inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(await rotations()).toBe(1);
    await page.getByRole('button', { name: 'J’ai copié la valeur, la masquer' }).click();
    await secretField.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(rotated);
    expect(await kept(page)).not.toContain(rotated);

    // A lead makes a `prospect.created` delivery; its first attempt fails (nothing listens), « Renvoyer » tries again.
    const lead = await world.api.request('POST', '/webhooks/ingest-lead', {
      query: { endpoint_id: world.ws.seed.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${world.ws.seed.webhook?.token}` },
      body: { first_name: 'Abonné', email: `${randomUUID()}@exemple.test` },
    });
    expect(lead.status).toBe(200);
    await settle();
    const subscriptionId = (await listed())[0]?.id as string;
    const deliveries = async () =>
      ((await asAdmin(`/${subscriptionId}/deliveries`)).body as { deliveries: DeliveryView[] }).deliveries;
    expect(await deliveries()).toMatchObject([{ type: 'prospect.created', attempts: 1 }]);
    await card.getByRole('button', { name: 'Recharger les envois' }).click();
    const delivery = card.getByRole('row').filter({ hasText: 'prospect.created' });
    await delivery.getByText('en attente', { exact: true }).waitFor();
    // The columns: created on, event, state, attempts.
    await expect(delivery.getByRole('cell').nth(3).textContent()).resolves.toBe('1');
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await expectAccessible(page);
    // On a phone-width screen, the subscription and its delivery fit without scrolling sideways.
    await page.setViewportSize({ width: 360, height: 740 });
    // A string: evaluated in the page, whose DOM types this Node project does not load.
    expect(await page.evaluate('[window.innerWidth, document.documentElement.scrollWidth]')).toEqual([360, 360]);
    const attemptsBefore = (await deliveries())[0]?.attempts ?? 0;
    await delivery.getByRole('button', { name: /^Renvoyer l’envoi Prospect créé \(prospect\.created\) du / }).click();
    await card.getByText('Envoi remis en file', { exact: false }).waitFor();
    // Deletion waits for the confirmation: declined, the subscription stays (checked once the pipeline has settled,
    // well after a deletion would have landed); accepted (below), it is gone.
    const remove = card.getByRole('button', { name: `Supprimer l’abonnement à ${url}` });
    page.once('dialog', (dialog) => void dialog.dismiss());
    await remove.click();
    await settle();
    expect(await listed()).toHaveLength(1);
    // One attempt more at least: the scheduled retry, 5 s after the first attempt, may also have come meanwhile on a
    // loaded machine (the page's checks above take seconds), and the list shows what the API counts.
    const [redelivered] = await deliveries();
    expect(redelivered).toMatchObject({ type: 'prospect.created' });
    expect(redelivered?.attempts).toBeGreaterThan(attemptsBefore);
    // Reloaded, the list shows that count, or one or two more: the retries go on (nothing listens) between the API's
    // answer above and the page's reading.
    const counted = redelivered?.attempts ?? 0;
    await card.getByRole('button', { name: 'Recharger les envois' }).click();
    await delivery
      .getByRole('cell')
      .nth(3)
      .filter({ hasText: new RegExp(`^(${counted}|${counted + 1}|${counted + 2})$`) })
      .waitFor();

    page.once('dialog', (dialog) => void dialog.accept());
    await remove.click();
    await page.getByText("Cet espace n'a encore aucun abonnement.").waitFor();
    expect(await listed()).toEqual([]);
    await expectAccessible(page);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('an existing subscription takes other event types, the new one among them: checked as stored, saved, kept on a reload', async () => {
    // As one created before `prospect.follow_up_due` existed: a list without it.
    const existing = 'http://127.0.0.1:9/existant';
    const created = await world.api.request('POST', base(), {
      headers: bearer(world.ws.admin),
      body: { url: existing, events: ['prospect.created', 'prospect.note_added'] },
    });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const stored = async () => (await listed()).find((subscription) => subscription.id === id)?.events;
    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.admin.email, 'Abonnements');
    await page.getByRole('link', { name: `Ouvrir l’abonnement à ${existing}` }).click();
    const card = page.getByRole('region', { name: `Abonnement à ${existing}` });
    const group = card.getByRole('group', { name: 'Événements à envoyer désormais' });
    const checked = async () => {
      const boxes = await group.getByRole('checkbox').all();
      const states = await Promise.all(
        boxes.map(async (box) => ((await box.isChecked()) ? await box.getAttribute('value') : undefined)),
      );
      return states.filter((value) => value !== undefined);
    };
    await group.getByRole('checkbox').first().waitFor();
    await expect(group.getByRole('checkbox').count()).resolves.toBe(10);
    await expect(checked()).resolves.toEqual(['prospect.created', 'prospect.note_added']);
    await expectAccessible(page);

    // None checked: the API refuses in its own words, nothing changes.
    for (const box of await group.getByRole('checkbox').all()) await box.uncheck();
    const save = card.getByRole('button', { name: 'Enregistrer les événements' });
    await save.click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(messages.admin.subscription.noEventType);
    expect(await stored()).toEqual(['prospect.created', 'prospect.note_added']);

    // The new type and notes: saved, said, the refusal gone, audited.
    await group.getByRole('checkbox', { name: '(prospect.follow_up_due)' }).check();
    await group.getByRole('checkbox', { name: '(prospect.note_added)' }).check();
    await save.click();
    await card.getByText(`Événements de l’abonnement à ${existing} enregistrés.`, { exact: true }).waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    expect(await stored()).toEqual(['prospect.note_added', 'prospect.follow_up_due']);
    await card
      .getByText('Note ajoutée (prospect.note_added) ; Rappel dû (prospect.follow_up_due)', { exact: true })
      .waitFor();
    const [entry] = (await listAudit(deps, { workspaceId: world.ws.seed.workspace_id })).entries;
    expect(entry).toMatchObject({
      action: 'subscription.events_changed',
      member_id: world.ws.admin.memberId,
      target_id: id,
    });
    await expectAccessible(page);

    // Read again on a reload: checked as stored.
    await page.reload();
    await group.getByRole('checkbox').first().waitFor();
    await expect(checked()).resolves.toEqual(['prospect.note_added', 'prospect.follow_up_due']);
    // On a phone-width screen, the boxes and the button fit without scrolling sideways.
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate('[window.innerWidth, document.documentElement.scrollWidth]')).toEqual([360, 360]);
    await expectAccessible(page);

    expect((await world.api.request('DELETE', `${base()}/${id}`, { headers: bearer(world.ws.admin) })).status).toBe(
      200,
    );
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('the address’s help says where http is accepted, and the local server holds to it', async () => {
    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.admin.email, 'Abonnements');
    const field = page.getByLabel('URL qui recevra les événements');
    const help = page.locator(`#${await field.getAttribute('aria-describedby')}`);
    await expect(help.textContent()).resolves.toBe(
      'En https (http n’est accepté que par le serveur local, npm start, et vers 127.0.0.1 ou localhost seulement) ; ' +
        'elle reçoit chaque événement choisi en POST, signé.',
    );
    // Elsewhere than this machine, http is refused here too, with the API's own words.
    const elsewhere = 'http://exemple.test/crm/evenements';
    await field.fill(elsewhere);
    await page.getByRole('button', { name: 'Créer l’abonnement' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      messages.admin.subscription.httpsRequired(elsewhere),
    );
    expect((await listed()).map((subscription) => subscription.url)).not.toContain(elsewhere);
    await expectAccessible(page);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('a member has no « Abonnements » in the menu', async () => {
    const { page, errors } = await world.openPage();
    await signInOnPage(page, world.ws.member.email);
    await page.getByRole('link', { name: /^Ouvrir l'espace/ }).click();
    const menu = page.getByRole('navigation');
    await menu.getByRole('link', { name: 'Clés d’API' }).waitFor();
    await expect(menu.getByRole('link', { name: 'Abonnements' }).count()).resolves.toBe(0);
    await expectAccessible(page);
    expect(errors).toEqual([]);
  }, 60_000);
});
