import { isDeepStrictEqual } from 'node:util';
import type { Page } from 'playwright-core';
import { browserTests, expectAccessible, openScreen, pageWorld } from '../support/browser';
import { aWorkspace } from '../support/seed';

/**
 * « Prospects » (docs/api.md#settings-page) in Debian's Chromium against the local server: the list's filters
 * (stage, setter, closer « Aucun », tag, follow-up window) each show the prospects they keep, « Plus » reads the next
 * page, a line opens its « Fiche prospect » and Back finds the list filtered as it was; « À relancer » shows the
 * signed-in member's due follow-ups, soonest first; a key's changes name their prospects, with one list call for the
 * page's ids, and a prospect the answer does not hold in words, its id to copy. Axe finds nothing serious, and a
 * phone-width screen does not scroll sideways.
 */
browserTests('settings-page-prospects.test.ts')('the settings page’s « Prospects » screen', () => {
  const now = Date.now();
  const hoursFromNow = (hours: number) => new Date(now + hours * 3_600_000).toISOString();
  const seeded = aWorkspace();
  /** Enough prospects for two pages of the list (25 a page), with neither setter, closer, tag nor follow-up. */
  const bulk = Array.from({ length: 30 }, (_, index) => {
    const number = String(index + 1).padStart(2, '0');
    return { key: `bulk${number}`, first_name: 'Page', last_name: number, email: `page-${number}@liste.test` };
  });
  // Bob Durand (`member`) signs in: his due follow-ups, as setter or closer, and some that are not his or not due.
  const followUps = [
    { key: 'late3', first_name: 'Trois', last_name: 'Jours', setter: 'member', next_follow_up_at: hoursFromNow(-72) },
    { key: 'late2', first_name: 'Deux', last_name: 'Jours', closer: 'member', next_follow_up_at: hoursFromNow(-48) },
    { key: 'late1', first_name: 'Un', last_name: 'Jour', setter: 'member', next_follow_up_at: hoursFromNow(-24) },
    {
      key: 'lateHour',
      first_name: 'Une',
      last_name: 'Heure',
      setter: 'member',
      tags: ['hot'],
      next_follow_up_at: hoursFromNow(-1),
    },
    { key: 'later', first_name: 'Plus', last_name: 'Tard', setter: 'member', next_follow_up_at: hoursFromNow(72) },
    { key: 'alices', first_name: 'Chez', last_name: 'Alice', setter: 'admin', next_follow_up_at: hoursFromNow(-30) },
  ];
  const world = pageWorld({
    ...seeded,
    prospects: [
      ...(seeded.prospects ?? []),
      ...bulk,
      ...followUps,
      { key: 'wonAlone', email: 'seul@liste.test', pipeline: 'sales', stage: 'won' },
    ],
  });
  const workspaceId = () => world.ws.seed.workspace_id;
  const total = (seeded.prospects?.length ?? 0) + bulk.length + followUps.length + 1;

  const withKey = (method: string, path: string, body?: unknown) =>
    fetch(`${world.api.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${world.ws.seed.api_keys.admin?.secret}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /** The list's rows, and the text of their first cell (the prospect's name, a link to its record). */
  const listOf = (page: Page) => {
    const screen = page.getByRole('region', { name: 'Prospects' });
    const rows = screen
      .getByRole('table')
      .getByRole('row')
      .filter({ has: page.getByRole('cell') });
    return { screen, rows, names: () => rows.locator('td:first-child').allTextContents() };
  };

  /** Reads until it gives what is expected (the list read again after a filter changed), or fails with the last. */
  async function eventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
    let last = await read();
    for (const deadline = Date.now() + 10_000; !isDeepStrictEqual(last, expected) && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = await read();
    }
    expect(last).toEqual(expected);
  }
  const sorted = (read: () => Promise<string[]>) => async () => (await read()).sort();

  test('each filter shows the prospects it keeps: a stage, a setter, a closer « Aucun », a tag, a follow-up window', async () => {
    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.member.email, 'Prospects');
    const list = listOf(page);
    await list.rows.nth(24).waitFor();
    await expectAccessible(page);

    await page.getByLabel('Pipeline', { exact: true }).selectOption({ label: 'Ventes' });
    await page.getByLabel('Étape', { exact: true }).selectOption({ label: 'Acompte' });
    // A prospect without a name is named by its e-mail; its stage by pipeline and stage.
    await eventually(list.names, ['deposit@acme.test']);
    await expect(list.rows.getByRole('cell').nth(2).textContent()).resolves.toBe('Ventes › Acompte');

    await page.getByLabel('Étape', { exact: true }).selectOption({ label: 'Closé' });
    await page.getByLabel('Closer', { exact: true }).selectOption({ label: 'Aucun' });
    await eventually(list.names, ['seul@liste.test']);
    await page.getByLabel('Closer', { exact: true }).selectOption({ label: 'Tous' });
    await eventually(sorted(list.names), ['seul@liste.test', 'sold@acme.test']);

    await page.getByRole('button', { name: 'Retirer les filtres' }).click();
    // Two members share a name: each is named with their e-mail.
    await page.getByLabel('Setter', { exact: true }).selectOption({ label: 'Alice Martin (alice@acme.test)' });
    await eventually(list.names, ['https://www.linkedin.com/in/marc-social']);
    const social = list.rows.getByRole('cell');
    await expect(social.nth(3).textContent()).resolves.toBe('Alice Martin (alice@acme.test)');
    await expect(social.nth(6).textContent()).resolves.toBe('VIP');
    await page.getByLabel('Setter', { exact: true }).selectOption({ label: `Alice Martin (${world.ws.admin.email})` });
    await eventually(list.names, ['Chez Alice']);

    await page.getByRole('button', { name: 'Retirer les filtres' }).click();
    await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'Chaud' });
    await eventually(list.names, ['Une Heure']);

    await page.getByRole('button', { name: 'Retirer les filtres' }).click();
    await page.getByLabel('Prochain rappel', { exact: true }).selectOption({ label: 'En retard' });
    await eventually(sorted(list.names), ['Chez Alice', 'Deux Jours', 'Trois Jours', 'Un Jour', 'Une Heure']);
    await page.getByLabel('Prochain rappel', { exact: true }).selectOption({ label: 'Avec un rappel' });
    await page.getByLabel('Ordre', { exact: true }).selectOption({ label: 'Prochain rappel le plus proche d’abord' });
    await eventually(list.names, ['Trois Jours', 'Deux Jours', 'Chez Alice', 'Un Jour', 'Une Heure', 'Plus Tard']);
    await expect(list.rows.first().getByRole('cell').nth(5).textContent()).resolves.toMatch(/\(heure de Paris\)$/);
    await expectAccessible(page);

    // A filter that keeps none says so; the filters cleared, the whole list again, a page at a time.
    await page.getByLabel('Setter', { exact: true }).selectOption({ label: 'Aucun' });
    await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'Chaud' });
    await list.screen.getByText('Aucun prospect ne correspond à ces filtres.').waitFor();
    await expect(list.screen.getByRole('button', { name: 'Plus' }).count()).resolves.toBe(0);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('« Plus » reads the next page until none follows; a line opens its record, and Back finds the list filtered as it was', async () => {
    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.member.email, 'Prospects');
    const list = listOf(page);
    await list.rows.nth(24).waitFor();
    await expect(list.rows.count()).resolves.toBe(25);
    await list.screen.getByRole('button', { name: 'Plus' }).click();
    await list.rows.nth(total - 1).waitFor();
    await list.screen.getByRole('button', { name: 'Plus' }).waitFor({ state: 'detached' });
    const names = await list.names();
    expect(new Set(names).size).toBe(total);

    // A line opens its record; « Tous les prospects » and Back return to the list, its filters kept.
    await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'VIP' });
    await eventually(list.names, ['https://www.linkedin.com/in/marc-social']);
    await page.getByRole('link', { name: 'https://www.linkedin.com/in/marc-social' }).click();
    const record = page.getByRole('article');
    await record.getByRole('heading', { name: 'https://www.linkedin.com/in/marc-social' }).waitFor();
    expect(page.url()).toBe(
      `${world.api.url}/app/#/espaces/${workspaceId()}/prospects/${world.ws.seed.prospects.social}`,
    );
    await expectAccessible(page);
    await page.goBack();
    await eventually(list.names, ['https://www.linkedin.com/in/marc-social']);
    await expect(page.getByLabel('Tag', { exact: true }).inputValue()).resolves.toBe(world.ws.seed.tags.vip);
    await page.getByRole('link', { name: 'https://www.linkedin.com/in/marc-social' }).click();
    await page.getByRole('link', { name: 'Tous les prospects' }).click();
    await eventually(list.names, ['https://www.linkedin.com/in/marc-social']);

    // On a phone-width screen, the filters and the list fit without scrolling sideways.
    await page.getByRole('button', { name: 'Retirer les filtres' }).click();
    await list.rows.nth(24).waitFor();
    await page.setViewportSize({ width: 390, height: 800 });
    await expect(page.evaluate('[window.innerWidth, document.documentElement.scrollWidth]')).resolves.toEqual([
      390, 390,
    ]);
    await expectAccessible(page);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('« À relancer » shows the signed-in member’s due follow-ups, as setter or closer, soonest first', async () => {
    const { page, outside, errors } = await world.openPage();
    await openScreen(page, world.ws.member.email, 'Prospects');
    const list = listOf(page);
    await list.rows.nth(24).waitFor();
    const listed: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/workspaces/${workspaceId()}/prospects`) listed.push(url);
    });
    await list.screen.getByRole('button', { name: 'À relancer' }).click();
    await eventually(list.names, ['Trois Jours', 'Deux Jours', 'Un Jour', 'Une Heure']);
    const asked = listed.at(-1) as URL;
    expect(asked.searchParams.getAll('member_id')).toEqual([world.ws.member.memberId]);
    expect(asked.searchParams.getAll('follow_up')).toEqual(['due']);
    expect(asked.searchParams.get('sort')).toBe('next_follow_up_at');
    // The filters say what the preset chose, so that a person sees why these prospects and no others.
    await expect(page.getByLabel('Setter ou closer', { exact: true }).inputValue()).resolves.toBe(
      world.ws.member.memberId,
    );
    await expect(page.getByLabel('Prochain rappel', { exact: true }).inputValue()).resolves.toBe('due');
    await expect(page.getByLabel('Ordre', { exact: true }).inputValue()).resolves.toBe('next_follow_up_at');
    await expectAccessible(page);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);

  test('a key’s changes name their prospects, with one list call for the page’s ids; a prospect the answer does not hold is said in words, its id to copy', async () => {
    const [lead, bulk1, bulk2] = [
      world.ws.seed.prospects.lead as string,
      world.ws.seed.prospects.bulk01 as string,
      world.ws.seed.prospects.bulk02 as string,
    ];
    for (const id of [lead, bulk1, bulk2])
      expect((await withKey('PATCH', `/prospects/${id}`, { stage: 'Relance' })).status).toBe(200);
    expect((await withKey('PATCH', `/prospects/${lead}`, { setter_id: world.ws.admin.memberId })).status).toBe(200);

    await world.browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.api.url });
    const { page, outside, errors } = await world.openPage();
    // The list's answer without `bulk02`, as if it had been deleted since its change.
    const isList = (url: URL) =>
      url.pathname === `/workspaces/${workspaceId()}/prospects` && url.searchParams.has('id');
    await page.route(isList, async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as { prospects: { id: string }[] };
      body.prospects = body.prospects.filter((prospect) => prospect.id !== bulk2);
      await route.fulfill({ response: answer, json: body });
    });
    const listed: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/workspaces/${workspaceId()}/prospects`) listed.push(url);
    });
    await openScreen(page, world.ws.member.email, 'Clés d’API');
    await page.getByRole('link', { name: 'Modifications faites avec la clé « Zapier »' }).click();
    const changes = page
      .getByRole('table')
      .getByRole('row')
      .filter({ has: page.getByRole('cell') });
    await changes.nth(3).waitFor();
    await expect(changes.count()).resolves.toBe(4);

    // Each entry's prospect by its name, a link to its record; never its id.
    await expect(changes.filter({ hasText: 'Léa Petit' }).count()).resolves.toBe(2);
    await expect(changes.getByRole('link', { name: 'Page 01' }).getAttribute('href')).resolves.toBe(
      `#/espaces/${workspaceId()}/prospects/${bulk1}`,
    );
    const gone = changes.filter({ hasText: 'prospect supprimé' });
    await expect(gone.count()).resolves.toBe(1);
    await gone.getByRole('button', { name: 'Copier l’identifiant du prospect supprimé' }).click();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(bulk2);
    const shown = (await page.getByRole('table').textContent()) ?? '';
    for (const id of [lead, bulk1]) expect(shown).not.toContain(id);

    // One list call for the page, each prospect's id once.
    expect(listed).toHaveLength(1);
    expect(listed[0]?.searchParams.getAll('id').sort()).toEqual([lead, bulk1, bulk2].sort());
    await expectAccessible(page);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);
  test('the audit log names the prospect an undo names, with one list call for the page', async () => {
    const prospectId = world.ws.seed.prospects.late1 as string;
    expect((await withKey('PATCH', `/prospects/${prospectId}`, { stage: 'Relance' })).status).toBe(200);
    const asAdmin = (method: string, path: string) =>
      fetch(`${world.api.url}/workspaces/${workspaceId()}${path}`, {
        method,
        headers: { Authorization: `Bearer ${world.ws.admin.accessToken}` },
      });
    const { changes } = (await (await asAdmin('GET', `/prospects/${prospectId}/changes`)).json()) as {
      changes: { id: string }[];
    };
    expect((await asAdmin('POST', `/changes/${changes[0]?.id}/undo`)).status).toBe(200);

    const { page, outside, errors } = await world.openPage();
    const listed: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/workspaces/${workspaceId()}/prospects`) listed.push(url);
    });
    await openScreen(page, world.ws.admin.email, 'Journal d’audit');
    const undone = page.getByRole('row').filter({ hasText: 'Modification par l’API annulée' });
    await expect(undone.getByRole('link', { name: 'Un Jour' }).getAttribute('href')).resolves.toBe(
      `#/espaces/${workspaceId()}/prospects/${prospectId}`,
    );
    expect(await undone.textContent()).not.toContain(prospectId);
    expect(listed.map((url) => url.searchParams.getAll('id'))).toEqual([[prospectId]]);
    await expectAccessible(page);
    expect([outside, errors]).toEqual([[], []]);
  }, 60_000);
});
