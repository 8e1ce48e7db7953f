import { randomUUID } from 'node:crypto';
import { withDeletedField, withNewField, type NewFieldInput } from '../../lib/domain/fields/field-definitions';
import { showProspect } from '../../lib/settings/prospects';
import { productionDeps } from '../../lib/storage/client';
import { editWorkspaceConfig, partsOf } from '../../lib/storage/config-edits';
import { getProspect } from '../../lib/storage/prospects';
import { runAdminInProcess } from '../support/admin-cli';
import { startTestApi, type ApiResponse, type TestApi } from '../support/local-api';
import { bearer, workspaceWithPeople, type PeopleWorkspace } from '../support/people';

/*
 * Custom fields' values over HTTP (docs/api.md#custom-fields): every view of a prospect shows them (Prospect API,
 * settings API, command line), PATCH sets and clears them with the change log and undo, and a deleted field is gone
 * from every answer at once. Fields are defined by the configuration edit the settings routes make.
 */

const deps = productionDeps();
let api: TestApi;
let people: PeopleWorkspace;

const definitions: NewFieldInput[] = [
  { key: 'budget', label: 'Budget', type: 'number' },
  { key: 'company', label: 'Entreprise', type: 'text' },
  { key: 'start', label: 'Début', type: 'date' },
  { key: 'newsletter', label: 'Lettre', type: 'boolean' },
  { key: 'plan', label: 'Offre', type: 'choice', options: ['Basic', 'Pro'] },
  { key: 'interests', label: 'Intérêts', type: 'multi_choice', options: ['Vente', 'Coaching', 'Formation'] },
];

async function defineField(input: NewFieldInput): Promise<void> {
  const edited = await editWorkspaceConfig(deps, ws(), (config) => ({
    ...partsOf(config),
    fields: withNewField(config, input),
  }));
  expect(edited).not.toBe('workspace_missing');
}

async function deleteField(key: string): Promise<void> {
  const edited = await editWorkspaceConfig(deps, ws(), (config) => ({
    ...partsOf(config),
    fields: withDeletedField(config, key, new Date().toISOString()),
  }));
  expect(edited).not.toBe('workspace_missing');
}

beforeAll(async () => {
  api = await startTestApi();
  people = await workspaceWithPeople(api);
  for (const definition of definitions) await defineField(definition);
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const ws = () => people.seed.workspace_id;
const keyId = () => people.seed.api_keys.admin?.id as string;
const withKey = (method: string, path: string, body?: unknown) =>
  api.request(method, path, { headers: { Authorization: `Bearer ${people.seed.api_keys.admin?.secret}` }, body });
const asMember = (method: string, path: string, query?: Record<string, string>) =>
  api.request(method, `/workspaces/${ws()}${path}`, { headers: bearer(people.member), ...(query ? { query } : {}) });
const bodyOf = <T = Record<string, unknown>>(response: ApiResponse) => response.body as T;

/** Every live field, none set. */
const noValues = { budget: null, company: null, start: null, newsletter: null, plan: null, interests: null };

type Entry = { id: string; field: string; before: unknown; after: unknown; undone_at: string | null };

/** A new prospect through the lead webhook, and its e-mail. */
async function aProspect(): Promise<{ id: string; email: string }> {
  const email = `champs-${randomUUID()}@acme.test`;
  const lead = await api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: people.seed.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${people.seed.webhook?.token}` },
    body: { email, first_name: 'Inès' },
  });
  expect(lead.status).toBe(200);
  return { id: bodyOf<{ prospect_id: string }>(lead).prospect_id, email };
}

const patch = (id: string, body: unknown) => withKey('PATCH', `/prospects/${id}`, body);
const fieldsOf = async (id: string) => bodyOf<{ fields: unknown }>(await withKey('GET', `/prospects/${id}`)).fields;
const changesOf = async (id: string): Promise<Entry[]> =>
  bodyOf<{ changes: Entry[] }>(await withKey('GET', `/prospects/${id}/changes`)).changes;

describe('every view of a prospect', () => {
  it('shows every live field, in creation order, null when it has none', async () => {
    const { id, email } = await aProspect();

    const got = await withKey('GET', `/prospects/${id}`);
    expect(got.status).toBe(200);
    expect(Object.entries(bodyOf(got).fields as object)).toEqual(Object.entries(noValues));
    const lookedUp = await withKey('GET', `/prospects?email=${encodeURIComponent(email)}`);
    expect(bodyOf<{ prospects: unknown[] }>(lookedUp).prospects).toEqual([got.body]);
    // The settings API answers what the Prospect API answers.
    expect((await asMember('GET', `/prospects/${id}`)).body).toEqual(got.body);
    expect((await asMember('GET', '/prospects', { email })).body).toEqual(lookedUp.body);

    const shown = await runAdminInProcess(deps, 'prospect', 'show', '--workspace', ws(), '--id', id, '--json');
    expect(shown.code).toBe(0);
    expect((JSON.parse(shown.stdout) as { prospect: { fields: unknown } }).prospect.fields).toEqual(noValues);
  });
});

describe('PATCH /prospects/{id} with fields', () => {
  it('sets each type, alone or beside another field: the answer, the views, the change logs and `prospect show` carry them', async () => {
    const { id } = await aProspect();
    const response = await patch(id, {
      setter_id: people.seed.members.alice,
      fields: {
        budget: '1 500,50',
        company: '  Acme  ',
        start: '05/01/2027',
        newsletter: 'oui',
        plan: 'pro',
        interests: 'formation, vente',
      },
    });
    const values = {
      budget: 1500.5,
      company: 'Acme',
      start: '2027-01-05',
      newsletter: true,
      plan: 'Pro',
      interests: ['Vente', 'Formation'],
    };
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id,
      fields: values,
      changed: ['setter', ...Object.keys(values).map((key) => `fields.${key}`)],
    });
    expect(await fieldsOf(id)).toEqual(values);
    expect((await asMember('GET', `/prospects/${id}`)).body).toMatchObject({ fields: values });

    const logged = (await changesOf(id)).filter((entry) => entry.field.startsWith('fields.'));
    expect(logged.map(({ field, before, after }) => ({ field, before, after }))).toEqual(
      expect.arrayContaining(
        Object.entries(values).map(([key, value]) => ({ field: `fields.${key}`, before: null, after: value })),
      ),
    );
    expect(logged).toHaveLength(6);
    const memberLog = bodyOf<{ changes: Entry[] }>(await asMember('GET', `/prospects/${id}/changes`)).changes;
    expect(memberLog).toEqual(await changesOf(id));
    const keyLog = bodyOf<{ changes: Entry[] }>(await asMember('GET', `/api-keys/${keyId()}/changes`)).changes;
    expect(keyLog.map((entry) => entry.id)).toEqual(expect.arrayContaining(logged.map((entry) => entry.id)));

    const text = await runAdminInProcess(deps, 'prospect', 'show', '--workspace', ws(), '--id', id);
    expect(text.stdout).toMatch(/Champ interests\s+: Vente, Formation/);
    expect(text.stdout).toMatch(/fields\.interests\s+—\s+Vente, Formation/);
  });

  it('clears with null or an empty value; a value sent as it is answered changes nothing', async () => {
    const { id } = await aProspect();
    await patch(id, { fields: { budget: 12, company: 'Acme', interests: ['Coaching'] } });

    const cleared = await patch(id, { fields: { budget: null, company: ' ', interests: [], plan: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({
      fields: noValues,
      changed: ['fields.budget', 'fields.company', 'fields.interests'],
    });
    expect(await fieldsOf(id)).toEqual(noValues);
    const entries = (await changesOf(id)).slice(0, 3);
    expect(entries.map(({ field, before, after }) => [field, before, after])).toEqual(
      expect.arrayContaining([
        ['fields.budget', 12, null],
        ['fields.company', 'Acme', null],
        ['fields.interests', ['Coaching'], null],
      ]),
    );

    await patch(id, { fields: { newsletter: false, plan: 'Basic' } });
    const again = await patch(id, { fields: { newsletter: 'NON', plan: 'basic' } });
    expect(again.body).toMatchObject({ changed: [], fields: { newsletter: false, plan: 'Basic' } });
  });

  it('refuses an unknown key (422), a value that does not fit (400), values over 16 KB (400), an empty `fields` alone (400): nothing applied', async () => {
    const { id } = await aProspect();
    await patch(id, { fields: { budget: 7 } });
    const before = await showProspect(deps, { workspaceId: ws(), prospectId: id });
    const stage = people.seed.pipelines.sales?.stages.fu as string;

    const refusals: [unknown, number, string][] = [
      [{ stage, fields: { budget: 8, inconnu: 1 } }, 422, 'fields.inconnu'],
      [{ stage, fields: { budget: 8, start: '2027-02-30' } }, 400, 'fields.start'],
      [{ fields: { budget: 8, plan: 'Gold' } }, 400, 'fields.plan'],
      [{ fields: { interests: ['Vente', 'Golf'] } }, 400, 'fields.interests'],
      [{ fields: { newsletter: 'peut-être' } }, 400, 'fields.newsletter'],
      [{ fields: { budget: 'beaucoup' } }, 400, 'fields.budget'],
      [{ fields: { company: 'x'.repeat(1001) } }, 400, 'fields.company'],
      [{ fields: { budget: { montant: 8 } } }, 400, 'fields'],
      [{ fields: {} }, 400, 'body'],
    ];
    for (const [body, status, field] of refusals) {
      const response = await patch(id, body);
      expect([field, response.status, response.body]).toEqual([
        field,
        status,
        {
          error: {
            code: status === 422 ? 'unprocessable' : 'bad_request',
            message: expect.any(String),
            details: { field, message: expect.any(String) },
          },
        },
      ]);
    }
    expect(await showProspect(deps, { workspaceId: ws(), prospectId: id })).toEqual(before);
  });

  it('refuses values together over 16 KB (400 naming `fields`), nothing applied', async () => {
    const texts = Array.from({ length: 17 }, (_, index) => `texte_${index}`);
    for (const key of texts) await defineField({ key, label: `Texte ${key}`, type: 'text' });
    const { id } = await aProspect();
    const response = await patch(id, {
      setter_id: people.seed.members.alice,
      fields: Object.fromEntries(texts.map((key) => [key, 'é'.repeat(1000)])),
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { details: { field: 'fields' } } });
    expect(bodyOf(await withKey('GET', `/prospects/${id}`))).toMatchObject({ setter_id: null });
    for (const key of texts) await deleteField(key);
  });
});

describe('undo of a custom field change', () => {
  const undo = (entryId: string) =>
    api.request('POST', `/workspaces/${ws()}/changes/${entryId}/undo`, { headers: bearer(people.member) });

  it('restores the value before, in the answer and the views', async () => {
    const { id } = await aProspect();
    await patch(id, { fields: { interests: ['Vente'], budget: 10 } });
    await patch(id, { fields: { interests: 'Coaching, Vente' } });
    const [last] = await changesOf(id);
    expect(last).toMatchObject({ field: 'fields.interests', before: ['Vente'], after: ['Vente', 'Coaching'] });

    const undone = await undo(last?.id as string);
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({
      entry: { id: last?.id, undone_at: expect.any(String) },
      prospect: { id, fields: { ...noValues, budget: 10, interests: ['Vente'] } },
    });
    expect(await fieldsOf(id)).toEqual({ ...noValues, budget: 10, interests: ['Vente'] });
  });

  it('removes a value that was none before, from the stored map too', async () => {
    const { id } = await aProspect();
    await patch(id, { fields: { start: '2027-03-01' } });
    const [entry] = await changesOf(id);
    expect(entry).toMatchObject({ field: 'fields.start', before: null, after: '2027-03-01' });

    expect((await undo(entry?.id as string)).status).toBe(200);
    expect(await fieldsOf(id)).toEqual(noValues);
    expect((await getProspect(deps, ws(), id))?.fields).toEqual({});
  });
});

describe('a deleted field', () => {
  it('is shown nowhere, accepted nowhere, its entries listed nowhere and never undone', async () => {
    await defineField({ key: 'legacy', label: 'Ancien', type: 'text' });
    const { id, email } = await aProspect();
    await patch(id, { fields: { legacy: 'un' } });
    await patch(id, { fields: { budget: 3 } });
    await patch(id, { fields: { legacy: 'deux' } });
    await patch(id, { fields: { legacy: 'trois' } });
    const beforeDeletion = await changesOf(id);
    expect(beforeDeletion.map((entry) => entry.field)).toEqual([
      'fields.legacy',
      'fields.legacy',
      'fields.budget',
      'fields.legacy',
    ]);
    const legacyEntry = beforeDeletion[0] as Entry;

    await deleteField('legacy');

    expect(await fieldsOf(id)).toEqual({ ...noValues, budget: 3 });
    const lookedUp = bodyOf<{ prospects: { fields: unknown }[] }>(
      await withKey('GET', `/prospects?email=${encodeURIComponent(email)}`),
    );
    expect(lookedUp.prospects[0]?.fields).toEqual({ ...noValues, budget: 3 });
    expect(bodyOf(await asMember('GET', `/prospects/${id}`)).fields).toEqual({ ...noValues, budget: 3 });

    const budgetOnly = [expect.objectContaining({ field: 'fields.budget', after: 3 })];
    expect(await changesOf(id)).toEqual(budgetOnly);
    expect(bodyOf<{ changes: Entry[] }>(await asMember('GET', `/prospects/${id}/changes`)).changes).toEqual(budgetOnly);
    const keyLog = bodyOf<{ changes: Entry[] }>(
      await asMember('GET', `/api-keys/${keyId()}/changes`, { limit: '100' }),
    ).changes;
    expect(keyLog.filter((entry) => entry.field === 'fields.legacy')).toEqual([]);

    // Pages stay full and never end empty: the deleted field's entries are skipped, not counted.
    const first = bodyOf<{ changes: Entry[]; next_cursor: string | null }>(
      await withKey('GET', `/prospects/${id}/changes?limit=1`),
    );
    expect([first.changes, first.next_cursor]).toEqual([budgetOnly, null]);

    const shown = await showProspect(deps, { workspaceId: ws(), prospectId: id });
    expect([shown.prospect.fields, shown.changelog]).toEqual([{ ...noValues, budget: 3 }, budgetOnly]);
    const listed = await runAdminInProcess(deps, 'changelog', 'list', '--workspace', ws(), '--prospect', id, '--json');
    expect((JSON.parse(listed.stdout) as { entries: Entry[] }).entries).toEqual(budgetOnly);

    const refused = await patch(id, { fields: { legacy: 'quatre' } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: { details: { field: 'fields.legacy' } } });
    const undo = await api.request('POST', `/workspaces/${ws()}/changes/${legacyEntry.id}/undo`, {
      headers: bearer(people.member),
    });
    expect(undo.status).toBe(404);
    // Its value stays stored until the purge: only the answers leave it out.
    expect((await getProspect(deps, ws(), id))?.fields).toEqual({ budget: 3, legacy: 'trois' });
  });
});
