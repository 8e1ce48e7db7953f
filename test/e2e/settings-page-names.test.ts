import type { Page } from 'playwright-core';
import { browserTests, expectAccessible, openScreen, pageWorld, signInOnPage } from '../support/browser';
import { aWorkspace } from '../support/seed';

/**
 * Names, not ids (docs/api.md#settings-page), in Debian's Chromium against the local server: a prospect's change
 * entries, the webhook's calls and the audit log name the stages, members, tags and keys they carry, each screen
 * reading the names once however many rows it has; an entry that can no longer be undone says why; an undo shows the
 * prospect as the API reads it; the tags and members screens give their ids to copy.
 */
browserTests('settings-page-names.test.ts')('the settings page names what ids stand for', () => {
  const seeded = aWorkspace();
  // A prospect left on a pipeline since made inactive: the page lists active pipelines only, so its stage has no name.
  const world = pageWorld({
    ...seeded,
    prospects: [
      ...(seeded.prospects ?? []),
      { key: 'archived', email: 'archive@names.test', pipeline: 'archive', stage: 'old' },
    ],
  });
  const workspaceId = () => world.ws.seed.workspace_id;

  const withKey = (method: string, path: string, body?: unknown) =>
    fetch(`${world.api.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${world.ws.seed.api_keys.admin?.secret}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  const asAdmin = async (method: string, path: string, body?: unknown) =>
    fetch(`${world.api.url}/workspaces/${workspaceId()}${path}`, {
      method,
      headers: { Authorization: `Bearer ${world.ws.admin.accessToken}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /** The settings API's requests a tab makes from now on (`page.on('request')`), as `METHOD path`. */
  const apiRequests = (page: Page): string[] => {
    const seen: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === world.api.url && !url.pathname.startsWith('/app/'))
        seen.push(`${request.method()} ${url.pathname}`);
    });
    return seen;
  };

  /** The ids a person never needs to read on these screens. */
  const ids = () => [
    world.ws.admin.memberId,
    world.ws.seed.tags.vip as string,
    world.ws.seed.api_keys.admin?.id as string,
    ...Object.values(world.ws.seed.pipelines.sales?.stages ?? {}),
  ];

  test('a prospect’s changes name the stage, the setter, the tag and the key; the screen’s requests do not grow with its rows; entries written over say why they cannot be undone; an undo shows the prospect read again', async () => {
    const prospectId = world.ws.seed.prospects.lead as string;
    const patched = await withKey('PATCH', `/prospects/${prospectId}`, {
      stage: 'Relance',
      setter_id: world.ws.admin.memberId,
    });
    expect(patched.status).toBe(200);
    expect((await withKey('POST', `/prospects/${prospectId}/tags`, { tag: 'VIP' })).status).toBe(201);

    const { page, outside, errors } = await world.openPage();
    const address = `${world.api.url}/app/#/espaces/${workspaceId()}/prospects/${prospectId}`;
    await page.goto(address);
    await signInOnPage(page, world.ws.member.email);
    const record = page.getByRole('article');
    const rows = record.getByRole('row').filter({ has: page.getByRole('cell') });
    await rows.nth(2).waitFor();

    const admin = `Alice Martin (${world.ws.admin.email})`;
    const stageRow = rows.filter({ hasText: 'Étape' });
    await stageRow.getByText('Avant : Ventes › Nouveau — Après : Ventes › Relance').waitFor();
    await rows.filter({ hasText: 'Setter' }).getByText(`Avant : (aucun) — Après : ${admin}`).waitFor();
    const tagRow = rows.filter({ hasText: 'Tags' }).filter({ hasText: 'Après : VIP' });
    await tagRow.waitFor();
    // The key that made each change, by its name.
    await expect(rows.filter({ hasText: 'Zapier' }).count()).resolves.toBe(3);
    const shown = (await record.textContent()) ?? '';
    for (const id of ids()) expect(shown).not.toContain(id);

    // The tag was added after the PATCH: its entries cannot be undone any more, and say so instead of a button.
    const changedSince = 'Le prospect a été modifié depuis : cette modification ne peut plus être annulée.';
    await stageRow.getByText(changedSince).waitFor();
    await rows.filter({ hasText: 'Setter' }).getByText(changedSince).waitFor();
    await expect(record.getByRole('button', { name: 'Annuler cette modification' }).count()).resolves.toBe(1);
    await expectAccessible(page);

    // Read again: the names are read once for the screen, whatever the number of rows.
    const requests = apiRequests(page);
    await page.reload();
    await rows.nth(2).waitFor();
    await tagRow.waitFor();
    expect(new Set(requests).size).toBe(requests.length);
    expect(requests.sort()).toEqual(
      [
        `GET /workspaces/${workspaceId()}/api-keys`,
        `GET /workspaces/${workspaceId()}/fields`,
        `GET /workspaces/${workspaceId()}/members`,
        `GET /workspaces/${workspaceId()}/pipelines`,
        `GET /workspaces/${workspaceId()}/prospects/${prospectId}`,
        `GET /workspaces/${workspaceId()}/prospects/${prospectId}/changes`,
      ].sort(),
    );

    // The undo's answer carries no tags: the record read again no longer shows the tag the undo took off.
    const tagsShown = record.locator('dt', { hasText: 'Tags' }).locator('xpath=following-sibling::dd[1]');
    await expect(tagsShown.textContent()).resolves.toBe('VIP');
    await tagRow.getByRole('button', { name: 'Annuler cette modification' }).click();
    await record.getByRole('status').filter({ hasText: 'Modification annulée' }).waitFor();
    await record
      .locator('dt', { hasText: 'Tags' })
      .locator('xpath=following-sibling::dd[1]')
      .getByText('(aucun)')
      .waitFor();
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('a lead’s call names its stage and links its prospect; the audit log names the member and what they acted on', async () => {
    const lead = await fetch(
      `${world.api.url}/webhooks/ingest-lead?endpoint_id=${encodeURIComponent(world.ws.seed.webhook?.endpoint_id as string)}`,
      {
        method: 'POST',
        headers: { 'x-webhook-token': world.ws.seed.webhook?.token as string, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'noe.blanc@names.test', pipeline: 'Ventes', stage: 'Relance' }),
      },
    );
    expect(lead.status).toBe(200);
    const { prospect_id: prospectId } = (await lead.json()) as { prospect_id: string };
    const listed = (await (await asAdmin('GET', '/webhook/calls')).json()) as { calls: { id: string }[] };
    const callId = listed.calls[0]?.id as string;
    expect((await asAdmin('PATCH', `/tags/${world.ws.seed.tags.hot}`, { name: 'Brûlant' })).status).toBe(200);

    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.admin.email, 'Appels du webhook');
    await page.goto(`${world.api.url}/app/#/espaces/${workspaceId()}/appels/${callId}`);
    const call = page.getByRole('article');
    const placement = call.locator('dt', { hasText: 'Placement' }).locator('xpath=following-sibling::dd[1]');
    await expect(placement.textContent()).resolves.toBe('Ventes › Relance (à l’étape demandée)');
    await expect(call.getByRole('link', { name: 'Ouvrir la fiche du prospect' }).getAttribute('href')).resolves.toBe(
      `#/espaces/${workspaceId()}/prospects/${prospectId}`,
    );
    // A call that succeeded has no refusal to report.
    await expect(call.getByText('Le webhook a refusé cet appel').count()).resolves.toBe(0);
    await expectAccessible(page);

    await page.getByRole('navigation').getByRole('link', { name: 'Journal d’audit' }).click();
    const audit = page.getByRole('region', { name: 'Journal d’audit' });
    const renamed = audit.getByRole('row').filter({ hasText: 'Tag renommé' });
    await renamed.waitFor();
    const cells = renamed.getByRole('cell');
    await expect(cells.nth(1).textContent()).resolves.toBe(`Alice Martin (${world.ws.admin.email})`);
    await expect(cells.nth(3).textContent()).resolves.toBe('Brûlant');
    const text = (await audit.textContent()) ?? '';
    expect(text).not.toContain(world.ws.admin.memberId);
    expect(text).not.toContain(world.ws.seed.tags.hot);
    await expectAccessible(page);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('a stage the workspace no longer names is said in words, its id beside it to copy', async () => {
    await world.browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.api.url });
    const { page, errors } = await world.openPage();
    await page.goto(`${world.api.url}/app/#/espaces/${workspaceId()}/prospects/${world.ws.seed.prospects.archived}`);
    await signInOnPage(page, world.ws.member.email);
    const stage = page
      .getByRole('article')
      .locator('dt', { hasText: 'Étape' })
      .locator('xpath=following-sibling::dd[1]');
    await stage.getByText('étape d’un pipeline inactif ou supprimé').waitFor();
    await stage.getByRole('button', { name: 'Copier l’identifiant de l’étape introuvable' }).click();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(
      world.ws.seed.pipelines.archive?.stages.old,
    );
    await expectAccessible(page);
    expect(errors).toEqual([]);
  }, 60_000);

  test('the tags and members screens give each id to copy, the button naming what it copies', async () => {
    await world.browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.api.url });
    const { page, errors } = await world.openPage();
    await openScreen(page, world.ws.admin.email, 'Tags & Webhook');
    const vip = page.getByRole('region', { name: 'Tags' }).getByRole('row').filter({ hasText: 'VIP' });
    await vip.getByText(world.ws.seed.tags.vip as string).waitFor();
    await vip.getByRole('button', { name: 'Copier l’identifiant du tag « VIP »' }).click();
    await vip.getByRole('button', { name: 'Copier l’identifiant du tag « VIP » : copié' }).waitFor();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(world.ws.seed.tags.vip);
    await expectAccessible(page);

    await page.getByRole('navigation').getByRole('link', { name: 'Membres' }).click();
    const who = `Bob Durand (${world.ws.member.email})`;
    const bob = page
      .getByRole('region', { name: 'Membres' })
      .getByRole('row')
      .filter({ hasText: world.ws.member.email });
    await bob.getByRole('button', { name: `Copier l’identifiant de ${who}` }).click();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(world.ws.member.memberId);
    await expectAccessible(page);
    expect(errors).toEqual([]);
  }, 60_000);
});
