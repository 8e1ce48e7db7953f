import { randomUUID } from 'node:crypto';
import { aWorkspace, seedTestWorkspace } from '../support/seed';
import { useSeededApi } from '../support/seeded-api';

/** End to end: the four read routes of the Prospect API (docs/api.md#read-routes). */
const world = useSeededApi({
  ...aWorkspace(),
  api_keys: [
    { key: 'admin', name: 'Zapier', scopes: ['*'] },
    { key: 'reads', name: 'Synchro', scopes: ['prospects:read'] },
    { key: 'writes', name: 'Écritures', scopes: ['prospects:write', 'notes:write', 'tags:write'] },
  ],
});

type Prospect = Record<string, unknown> & { id: string; tags: { id: string; name: string | null }[] };
type NotesPage = {
  notes: { id: string; content: string; date: string; created_at: string }[];
  next_cursor: string | null;
};
type ChangesPage = { changes: { id: string; field: string; at: string }[]; next_cursor: string | null };

const get = (path: string, query: Record<string, string> = {}, key = 'reads') =>
  world.api.request('GET', path, {
    query,
    headers: { Authorization: `Bearer ${world.ws.api_keys[key]?.secret}` },
  });

describe('GET /prospects/{prospect_id}', () => {
  it('answers every field of the prospect, absent ones null, tags by name, after its writes', async () => {
    const id = await world.aProspect({ first_name: 'Zoé', phone: '+33 6 11 22 33 44', tag_ids: ['Chaud'] });
    await world.call('PATCH', `/prospects/${id}`, { follow_up_at: '2027-03-01T09:30:00+01:00' });
    await world.call('POST', `/prospects/${id}/tags`, { tag: 'VIP' });
    const response = await get(`/prospects/${id}`);
    expect(response.status).toBe(200);
    const prospect = response.body as Prospect;
    expect(Object.keys(prospect).sort()).toEqual(
      [
        'id',
        'pipeline_id',
        'stage_id',
        'setter_id',
        'closer_id',
        'next_follow_up_at',
        'first_name',
        'last_name',
        'email',
        'phone',
        'social_url',
        'source',
        'tags',
        'fields',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(prospect).toMatchObject({
      id,
      first_name: 'Zoé',
      last_name: null,
      phone: '+33 6 11 22 33 44',
      social_url: null,
      setter_id: null,
      next_follow_up_at: '2027-03-01T08:30:00.000Z',
      fields: {},
    });
    expect(prospect.tags.map((tag) => tag.name)).toContain('VIP');
    expect(prospect.created_at).toMatch(/Z$/);
    expect(String(prospect.updated_at) >= String(prospect.created_at)).toBe(true);
  });

  it('is 404 for an unknown id, a non-UUID id, and another workspace’s prospect', async () => {
    const other = await seedTestWorkspace(aWorkspace());
    const theirs = other.prospects.lead as string;
    for (const path of [`/prospects/${randomUUID()}`, '/prospects/pas-un-uuid', `/prospects/${theirs}`]) {
      const response = await get(path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.body).toMatchObject({ error: { code: 'not_found' } });
    }
  });
});

describe('GET /prospects?email=|phone=|social_url=', () => {
  it('finds what the lead webhook would match: e-mail ignoring case and Unicode form, phone and link as sent', async () => {
    const email = `Hélène.${randomUUID()}@Exemple.fr`;
    const phone = `+33 7 ${Math.floor(Math.random() * 1e8)}`;
    const social = `https://www.linkedin.com/in/${randomUUID()}`;
    const id = await world.aProspect({ email, phone, social_url: social });
    const socialOnly = `https://instagram.com/${randomUUID()}`;
    const socialId = ((await world.lead({ email: undefined, social_url: socialOnly })).body as { prospect_id: string })
      .prospect_id;
    for (const [query, expected] of [
      [{ email: email.toUpperCase().normalize('NFD') }, id],
      [{ email: `  ${email}  ` }, id],
      [{ phone }, id],
      [{ social_url: socialOnly }, socialId],
    ] as const) {
      const response = await get('/prospects', query);
      expect(response.status).toBe(200);
      expect((response.body as { prospects: Prospect[] }).prospects.map((prospect) => prospect.id)).toEqual([expected]);
    }
  });

  it('answers an empty list for a contact nobody has', async () => {
    for (const query of [
      { email: `${randomUUID()}@nulle.part` },
      { phone: '+0000' },
      { social_url: 'https://x.y/z' },
    ] as Record<string, string>[]) {
      const response = await get('/prospects', query);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ prospects: [] });
    }
  });

  it('is 400 with two, a repeated or an unreadable parameter, or another one beside it, naming it', async () => {
    const cases: [Record<string, string> | string, string][] = [
      [{ email: 'a@b.fr', phone: '+33' }, 'query'],
      [{ email: 'a@b.fr', utm_source: 'x' }, 'utm_source'],
      [{ email: 'pas-une-adresse' }, 'email'],
      [{ phone: '   ' }, 'phone'],
      [{ phone: '1'.repeat(41) }, 'phone'],
      ['email=a%40b.fr&email=c%40d.fr', 'email'],
    ];
    for (const [query, field] of cases) {
      const response =
        typeof query === 'string'
          ? await world.api.request('GET', `/prospects?${query}`, {
              headers: { Authorization: `Bearer ${world.ws.api_keys.reads?.secret}` },
            })
          : await get('/prospects', query);
      expect([query, response.status]).toEqual([query, 400]);
      expect(response.body).toMatchObject({ error: { code: 'bad_request', details: { field } } });
    }
  });

  it('never finds another workspace’s prospect', async () => {
    const other = await seedTestWorkspace(aWorkspace());
    expect(other.prospects.lead).toBeDefined();
    const response = await get('/prospects', { email: 'lea.petit@acme.test' });
    const found = (response.body as { prospects: Prospect[] }).prospects.map((prospect) => prospect.id);
    expect(found).toEqual([world.ws.prospects.lead]);
  });
});

async function allPages<T>(path: string, items: (body: unknown) => T[], limit: string): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | null = null;
  do {
    const response = await get(path, { limit, ...(cursor ? { cursor } : {}) });
    expect(response.status).toBe(200);
    const body = response.body as { next_cursor: string | null };
    pages.push(items(body));
    cursor = body.next_cursor;
  } while (cursor !== null && pages.length < 50);
  return pages;
}

describe('GET /prospects/{prospect_id}/notes and /changes', () => {
  it('pages notes newest first, no empty last page, default 50', async () => {
    const id = await world.aProspect();
    for (let n = 1; n <= 7; n += 1) await world.call('POST', `/prospects/${id}/notes`, { content: `note ${n}` });
    const pages = await allPages(`/prospects/${id}/notes`, (body) => (body as NotesPage).notes, '3');
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat().map((note) => note.content)).toEqual(
      ['7', '6', '5', '4', '3', '2', '1'].map((n) => `note ${n}`),
    );
    const exact = await allPages(`/prospects/${id}/notes`, (body) => (body as NotesPage).notes, '7');
    expect(exact.map((page) => page.length)).toEqual([7]);
    const all = await get(`/prospects/${id}/notes`);
    expect((all.body as NotesPage).notes).toHaveLength(7);
    expect(Object.keys((all.body as NotesPage).notes[0] ?? {}).sort()).toEqual(['content', 'created_at', 'date', 'id']);
  });

  it('pages changes newest first with the change-log entry shape', async () => {
    const id = await world.aProspect();
    await world.call('PATCH', `/prospects/${id}`, { stage: 'Relance' });
    await world.call('POST', `/prospects/${id}/tags`, { tag: 'VIP' });
    await world.call('POST', `/prospects/${id}/notes`, { content: 'x' });
    await world.call('DELETE', `/prospects/${id}/tags/VIP`);
    const pages = await allPages(`/prospects/${id}/changes`, (body) => (body as ChangesPage).changes, '2');
    expect(pages.map((page) => page.length)).toEqual([2, 2]);
    expect(pages.flat().map((entry) => entry.field)).toEqual(['tags', 'note', 'tags', 'stage']);
    expect(Object.keys(pages[0]?.[0] ?? {}).sort()).toEqual(
      ['after', 'at', 'before', 'field', 'id', 'key_id', 'prospect_id', 'undone_at'].sort(),
    );
  });

  it('answers an empty list with a null cursor for a prospect with nothing yet', async () => {
    const id = await world.aProspect();
    expect((await get(`/prospects/${id}/notes`)).body).toEqual({ notes: [], next_cursor: null });
    expect((await get(`/prospects/${id}/changes`)).body).toEqual({ changes: [], next_cursor: null });
  });

  it('is 404 for a prospect of nobody or of another workspace, 400 before 404 for a bad limit or cursor', async () => {
    const other = await seedTestWorkspace(aWorkspace());
    for (const list of ['notes', 'changes']) {
      for (const id of [randomUUID(), other.prospects.lead as string, 'pas-un-uuid']) {
        expect((await get(`/prospects/${id}/${list}`)).status).toBe(404);
        const bad = await get(`/prospects/${id}/${list}`, { limit: '0' });
        expect(bad.status).toBe(400);
        expect(bad.body).toMatchObject({ error: { code: 'bad_request', details: { field: 'limit' } } });
      }
    }
  });

  it('refuses a malformed limit', async () => {
    const id = await world.aProspect();
    for (const limit of ['0', '101', '-1', '1.5', 'abc', '', ' 5', '1e2', '٣']) {
      const response = await get(`/prospects/${id}/notes`, { limit });
      expect([limit, response.status]).toEqual([limit, 400]);
    }
    for (const limit of ['1', '100', '050']) expect((await get(`/prospects/${id}/notes`, { limit })).status).toBe(200);
  });

  it('refuses a cursor that is forged, altered, or issued for another list, prospect or workspace', async () => {
    const id = await world.aProspect();
    const otherId = await world.aProspect();
    for (const target of [id, otherId]) {
      for (let n = 0; n < 3; n += 1) {
        await world.call('POST', `/prospects/${target}/notes`, { content: `n${n}` });
        await world.call('PATCH', `/prospects/${target}`, { follow_up_at: `2027-0${n + 1}-01T10:00:00Z` });
      }
    }
    const cursorOf = async (path: string) =>
      ((await get(path, { limit: '1' })).body as { next_cursor: string }).next_cursor;
    const notesCursor = await cursorOf(`/prospects/${id}/notes`);
    const changesCursor = await cursorOf(`/prospects/${id}/changes`);
    expect((await get(`/prospects/${id}/notes`, { cursor: notesCursor })).status).toBe(200);

    const decoded = JSON.parse(Buffer.from(notesCursor, 'base64url').toString()) as Record<string, string>;
    const forge = (changes: Record<string, unknown>) =>
      Buffer.from(JSON.stringify({ ...decoded, ...changes })).toString('base64url');
    const refused = [
      ['another list', `/prospects/${id}/notes`, changesCursor],
      ['another prospect', `/prospects/${otherId}/notes`, notesCursor],
      ['altered id', `/prospects/${id}/notes`, forge({ i: 'x' })],
      ['impossible date', `/prospects/${id}/notes`, forge({ a: '2026-02-30T10:00:00.000Z' })],
      ['extra field', `/prospects/${id}/notes`, forge({ pk: 'PROSPECT#x' })],
      ['not base64', `/prospects/${id}/notes`, 'a+b/c='],
      ['garbage', `/prospects/${id}/notes`, 'e30'],
      ['huge', `/prospects/${id}/notes`, 'A'.repeat(5000)],
    ] as const;
    for (const [why, path, cursor] of refused) {
      const response = await get(path, { cursor });
      expect([why, response.status]).toEqual([why, 400]);
      expect(response.body).toMatchObject({ error: { code: 'bad_request', details: { field: 'cursor' } } });
    }

    const elsewhere = await seedTestWorkspace({
      ...aWorkspace(),
      api_keys: [{ key: 'admin', name: 'Zapier', scopes: ['*'] }],
    });
    const theirs = await world.api.request('GET', `/prospects/${id}/notes`, {
      query: { cursor: notesCursor },
      headers: { Authorization: `Bearer ${elsewhere.api_keys.admin?.secret}` },
    });
    expect(theirs.status).toBe(400);
  });

  it('stays stable under concurrent writes: no item twice, none skipped among those there at the first page', async () => {
    const id = await world.aProspect();
    for (let n = 0; n < 12; n += 1) await world.call('POST', `/prospects/${id}/notes`, { content: `avant ${n}` });
    const first = await get(`/prospects/${id}/notes`, { limit: '4' });
    const seen = [...(first.body as NotesPage).notes];
    let cursor = (first.body as NotesPage).next_cursor;
    let written = 0;
    while (cursor) {
      await Promise.all(
        [1, 2, 3].map(() => world.call('POST', `/prospects/${id}/notes`, { content: `pendant ${(written += 1)}` })),
      );
      const page = await get(`/prospects/${id}/notes`, { limit: '4', cursor });
      seen.push(...(page.body as NotesPage).notes);
      cursor = (page.body as NotesPage).next_cursor;
    }
    const ids = seen.map((note) => note.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(seen.filter((note) => note.content.startsWith('avant')).map((note) => note.content)).toEqual(
      Array.from({ length: 12 }, (_, n) => `avant ${11 - n}`),
    );
  });
});

describe('scope, credentials and limits on every read route', () => {
  const paths = (id: string) => [
    `/prospects/${id}`,
    `/prospects?email=lea.petit%40acme.test`,
    `/prospects/${id}/notes`,
    `/prospects/${id}/changes`,
  ];
  const raw = (path: string, headers: Record<string, string>) => world.api.request('GET', path, { headers });

  it('needs prospects:read (403 otherwise), and counts toward the limits with their headers', async () => {
    const id = world.ws.prospects.lead as string;
    for (const path of paths(id)) {
      const forbidden = await raw(path, { Authorization: `Bearer ${world.ws.api_keys.writes?.secret}` });
      expect([path, forbidden.status]).toEqual([path, 403]);
      expect(forbidden.body).toMatchObject({ error: { code: 'forbidden' } });
      const allowed = await raw(path, { Authorization: `Bearer ${world.ws.api_keys.admin?.secret}` });
      expect([path, allowed.status]).toEqual([path, 200]);
      expect(allowed.headers.get('ratelimit-limit')).toBe('120');
      expect(Number(allowed.headers.get('ratelimit-remaining'))).toBeLessThan(120);
      expect(allowed.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    }
  });

  it('refuses the webhook token, no credential, and a credential in the URL (401)', async () => {
    const id = world.ws.prospects.lead as string;
    const key = world.ws.api_keys.reads?.secret as string;
    for (const path of paths(id)) {
      const separator = path.includes('?') ? '&' : '?';
      const attempts = [
        raw(path, { Authorization: `Bearer ${world.ws.webhook?.token}` }),
        raw(path, {}),
        raw(`${path}${separator}api_key=${key}`, { Authorization: `Bearer ${key}` }),
        raw(`${path}${separator}token=${key}`, {}),
      ];
      for (const response of await Promise.all(attempts)) {
        expect([path, response.status]).toEqual([path, 401]);
        expect(response.body).toMatchObject({ error: { code: 'unauthorized' } });
      }
    }
  });
});
