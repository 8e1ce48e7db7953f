import { listAudit } from '../../lib/settings/audit';
import { createField } from '../../lib/settings/fields';
import { messages } from '../../lib/messages';
import { productionDeps } from '../../lib/storage/client';
import { startLocalApi, type TestApi } from '../support/local-api';
import { countRoundTrips, type RoundTripCounter } from '../support/round-trips';
import { aWorkspace } from '../support/seed';
import { bearer, workspaceWithPeople, type PeopleWorkspace, type Person } from '../support/people';

/*
 * A workspace's custom field definitions over HTTP (docs/api.md#custom-fields), through the local server with real
 * sign-in: GET /fields (member), POST /fields, PATCH and DELETE /fields/{key} (admin), each change an audit entry with
 * the acting member, the refusals' shapes (400, 404, 409, 422), and the Prospect API's GET /fields with a key.
 */

const deps = productionDeps();
const refusals = messages.fields;
let api: TestApi;
let ws: PeopleWorkspace;
let other: PeopleWorkspace;
let counter: RoundTripCounter;

/** Keys with and without the scope of GET /fields. */
const keys = aWorkspace({
  api_keys: [
    { key: 'admin', name: 'Zapier', scopes: ['*'] },
    { key: 'reader', name: 'Tableau de bord', scopes: ['pipelines:read'] },
    { key: 'notes', name: 'Notes', scopes: ['notes:write'] },
  ],
});

beforeAll(async () => {
  counter = countRoundTrips(deps.db);
  api = await startLocalApi({ db: deps.db });
  [ws, other] = [await workspaceWithPeople(api, keys), await workspaceWithPeople(api)];
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

type Definition = {
  key: string;
  label: string;
  type: string;
  options: string[] | null;
  aliases: string[];
  update: string;
};
const under = (suffix: string, workspace: PeopleWorkspace = ws) =>
  `/workspaces/${workspace.seed.workspace_id}${suffix}`;
const list = (person: Person = ws.member, workspace = ws) =>
  api.request('GET', under('/fields', workspace), { headers: bearer(person) });
const fieldsOf = async (workspace = ws) => (await list(workspace.member, workspace)).body as { fields: Definition[] };
const create = (body: unknown, person: Person = ws.admin, workspace = ws) =>
  api.request('POST', under('/fields', workspace), { headers: bearer(person), body });
const change = (key: string, body: unknown, person: Person = ws.admin, workspace = ws) =>
  api.request('PATCH', under(`/fields/${key}`, workspace), { headers: bearer(person), body });
const remove = (key: string, person: Person = ws.admin, workspace = ws) =>
  api.request('DELETE', under(`/fields/${key}`, workspace), { headers: bearer(person) });
const withKey = (name: string) => ({ Authorization: `Bearer ${ws.seed.api_keys[name]?.secret}` });
const auditOf = async (targetId: string, workspace = ws) =>
  (await listAudit(deps, { workspaceId: workspace.seed.workspace_id })).entries.filter(
    (entry) => entry.target_id === targetId,
  );
const error = (code: string, message?: string, field?: string) => ({
  error: {
    code,
    message: message ?? expect.any(String),
    ...(field === undefined ? {} : { details: { field, message: message ?? expect.any(String) } }),
  },
});

const company: Definition = {
  key: 'societe',
  label: 'Société',
  type: 'text',
  options: null,
  aliases: ['Nom de votre société', 'Entreprise'],
  update: 'always',
};
const channels: Definition = {
  key: 'canaux',
  label: 'Canaux',
  type: 'multi_choice',
  options: ['Instagram', 'TikTok', 'YouTube'],
  aliases: ['Sur quels réseaux êtes-vous ?'],
  update: 'always',
};

test('GET: no field at first, to a member', async () => {
  const response = await list();
  expect(response.status).toBe(200);
  expect(response.body).toEqual({ fields: [] });
});

test('POST: 201 the definition, every part written out, audited with the admin; a member lists it', async () => {
  const created = await create({ key: 'societe', label: '  Société ', type: 'text', aliases: company.aliases });
  expect(created.status).toBe(201);
  expect(created.body).toEqual(company);
  expect(await fieldsOf()).toEqual({ fields: [company] });
  expect(await auditOf('societe')).toEqual([
    expect.objectContaining({
      action: 'field.created',
      member_id: ws.admin.memberId,
      target_id: 'societe',
      summary: messages.audit.fieldCreated('Société', 'societe'),
    }),
  ]);
});

test('POST: every type, options for the choices; listed in creation order', async () => {
  const more: Definition[] = [
    { key: 'budget', label: 'Budget mensuel', type: 'number', options: null, aliases: [], update: 'if_empty' },
    channels,
    { key: 'rappel', label: 'Rappel', type: 'date', options: null, aliases: [], update: 'always' },
    { key: 'accord', label: 'Accord RGPD', type: 'boolean', options: null, aliases: ['J’accepte'], update: 'always' },
    { key: 'statut', label: 'Statut', type: 'choice', options: ['Particulier', 'Pro'], aliases: [], update: 'always' },
  ];
  for (const { options, ...definition } of more) {
    const body = options === null ? definition : { ...definition, options };
    const created = await create(body);
    expect({ key: definition.key, status: created.status, body: created.body }).toEqual({
      key: definition.key,
      status: 201,
      body: { ...definition, options },
    });
  }
  expect((await fieldsOf()).fields.map((field) => field.key)).toEqual([
    'societe',
    'budget',
    'canaux',
    'rappel',
    'accord',
    'statut',
  ]);
});

test('POST: a key taken, or a key or alias equal as names to another field’s key or alias: 409, nothing written', async () => {
  const before = await fieldsOf();
  const fresh = { key: 'nouveau', label: 'Nouveau', type: 'text' };
  for (const [body, message] of [
    [{ key: 'societe' }, refusals.keyTaken('societe')],
    [{ key: 'entreprise' }, refusals.nameTaken('entreprise')],
    [{ aliases: ['SOCIETE'] }, refusals.nameTaken('SOCIETE')],
    [{ aliases: [' nom de votre socie\u0301te\u0301 '] }, refusals.nameTaken('nom de votre socie\u0301te\u0301')],
    [{ aliases: ['Sur quels RÉSEAUX êtes-vous ?'] }, refusals.nameTaken('Sur quels RÉSEAUX êtes-vous ?')],
  ] as const) {
    const response = await create({ ...fresh, ...body });
    expect({ body, status: response.status, answer: response.body }).toEqual({
      body,
      status: 409,
      answer: error('conflict', message),
    });
  }
  expect(await fieldsOf()).toEqual(before);
});

test('POST: a rule of the definition broken: 400 naming the part, nothing written', async () => {
  const before = await fieldsOf();
  const valid = { key: 'secteur', label: 'Secteur', type: 'text' };
  const options = (count: number) => Array.from({ length: count }, (_, index) => `Option ${index}`);
  for (const [body, field, reason] of [
    [{ key: 'Secteur' }, 'key', refusals.keyPattern],
    [{ key: 'secteur-activite' }, 'key', refusals.keyPattern],
    [{ key: 'email' }, 'key', refusals.reservedName],
    [{ key: undefined }, 'key', undefined],
    [{ aliases: ['Tags'] }, 'aliases', refusals.reservedName],
    [{ aliases: options(11) }, 'aliases', refusals.aliasesCount(10)],
    [{ label: ' ' }, 'label', refusals.textLength('label', 100)],
    [{ label: 'x'.repeat(101) }, 'label', refusals.textLength('label', 100)],
    [{ type: 'email' }, 'type', refusals.type],
    [{ options: ['A'] }, 'options', refusals.optionsRefused],
    [{ type: 'choice' }, 'options', refusals.optionsRequired],
    [{ type: 'choice', options: ['Oui, bien sûr'] }, 'options', refusals.optionComma],
    [{ type: 'choice', options: ['Oui', ' OUI'] }, 'options', refusals.optionsRepeated],
    [{ type: 'multi_choice', options: options(51) }, 'options', refusals.optionsCount(50)],
    [{ update: 'parfois' }, 'update', refusals.updateRule],
    [{ couleur: 'rouge' }, 'couleur', undefined],
  ] as const) {
    const response = await create({ ...valid, ...body });
    const message = reason === undefined ? undefined : messages.body.invalidField(field, reason);
    expect({ body, status: response.status, answer: response.body }).toEqual({
      body,
      status: 400,
      answer: error('bad_request', message, field),
    });
  }
  expect((await create('[]')).status).toBe(400);
  expect(await fieldsOf()).toEqual(before);
});

test('PATCH: the parts sent replaced, options in a new order kept, audited naming what changed', async () => {
  const options = ['YouTube', 'instagram', 'TikTok', 'LinkedIn'];
  const changed = await change('canaux', { label: 'Réseaux', options });
  expect(changed.status).toBe(200);
  expect(changed.body).toEqual({ ...channels, label: 'Réseaux', options });
  expect((await fieldsOf()).fields.find((field) => field.key === 'canaux')).toEqual(changed.body);
  expect((await auditOf('canaux')).map((entry) => [entry.action, entry.member_id, entry.summary])).toEqual([
    ['field.changed', ws.admin.memberId, messages.audit.fieldChanged('Réseaux', 'canaux', 'libellé, options')],
    ['field.created', ws.admin.memberId, messages.audit.fieldCreated('Canaux', 'canaux')],
  ]);
});

test('PATCH: what the definition already says writes nothing and answers it', async () => {
  const before = await auditOf('societe');
  const response = await change('societe', { label: 'Société', aliases: [' Nom de votre société', 'Entreprise'] });
  expect(response.status).toBe(200);
  expect(response.body).toEqual(company);
  expect(await auditOf('societe')).toEqual(before);
});

test('PATCH: an option left out or an alias of another field: 409; key, type, options of a text: 400', async () => {
  const before = await fieldsOf();
  for (const [key, body, status, answer] of [
    [
      'canaux',
      { options: ['YouTube', 'Instagram', 'LinkedIn'] },
      409,
      error('conflict', refusals.optionDropped('TikTok')),
    ],
    ['canaux', { aliases: ['Entreprise'] }, 409, error('conflict', refusals.nameTaken('Entreprise'))],
    ['canaux', { aliases: ['BUDGET'] }, 409, error('conflict', refusals.nameTaken('BUDGET'))],
    [
      'canaux',
      { type: 'choice' },
      400,
      error('bad_request', messages.body.invalidField('type', refusals.typeFixed), 'type'),
    ],
    [
      'societe',
      { key: 'entreprise', label: 'Entreprise' },
      400,
      error('bad_request', messages.body.invalidField('key', refusals.keyFixed), 'key'),
    ],
    [
      'societe',
      { options: ['Acme'] },
      400,
      error('bad_request', messages.body.invalidField('options', refusals.optionsRefused), 'options'),
    ],
    ['societe', {}, 400, error('bad_request', undefined, 'body')],
  ] as const) {
    const response = await change(key, body);
    expect({ body, status: response.status, answer: response.body }).toEqual({ body, status, answer });
  }
  expect(await fieldsOf()).toEqual(before);
});

test('PATCH and DELETE: an unknown key, or one that cannot be a key: 404, before any read of it', async () => {
  for (const key of ['inconnu', 'Societe', 'soci%C3%A9t%C3%A9', `a${'b'.repeat(40)}`, '%E9']) {
    const changed = await change(key, { label: 'Nouveau' });
    const removed = await remove(key);
    expect({ key, changed: changed.status, removed: removed.status }).toEqual({ key, changed: 404, removed: 404 });
    expect(changed.body).toEqual(error('not_found'));
  }
  expect((await remove('inconnu')).body).toEqual(error('not_found', refusals.unknownField('inconnu')));
});

test('DELETE: gone from every listing, audited; its key never used again, its aliases free', async () => {
  const deleted = await remove('societe');
  expect(deleted.status).toBe(200);
  expect(deleted.body).toEqual({ key: 'societe', deleted: true });
  expect((await fieldsOf()).fields.map((field) => field.key)).not.toContain('societe');
  const byKey = await api.request('GET', '/fields', { headers: withKey('reader') });
  expect((byKey.body as { fields: Definition[] }).fields.map((field) => field.key)).not.toContain('societe');
  expect((await auditOf('societe')).map((entry) => [entry.action, entry.member_id, entry.summary])[0]).toEqual([
    'field.deleted',
    ws.admin.memberId,
    messages.audit.fieldDeleted('Société', 'societe'),
  ]);
  for (const response of [await change('societe', { label: 'Retour' }), await remove('societe')]) {
    expect(response.body).toEqual(error('not_found', refusals.unknownField('societe')));
  }
  const again = await create({ key: 'societe', label: 'Société', type: 'text' });
  expect(again.status).toBe(409);
  expect(again.body).toEqual(error('conflict', refusals.keyTaken('societe')));
  const freed = await create({
    key: 'entreprise',
    label: 'Entreprise',
    type: 'text',
    aliases: ['Nom de votre société'],
  });
  expect(freed.status).toBe(201);
});

test('the Prospect API: GET /fields with a key of scope pipelines:read, as the settings API lists them', async () => {
  const response = await api.request('GET', '/fields', { headers: withKey('reader') });
  expect(response.status).toBe(200);
  expect(response.body).toEqual(await fieldsOf());
  expect((await api.request('GET', '/fields', { headers: withKey('admin') })).status).toBe(200);
  const refused = await api.request('GET', '/fields', { headers: withKey('notes') });
  expect(refused.status).toBe(403);
  expect(refused.body).toEqual(error('forbidden', messages.access.forbidden));
  expect((await api.request('GET', '/fields')).status).toBe(401);
  // The key's own workspace only: another's fields are not this key's.
  await create({ key: 'ailleurs', label: 'Ailleurs', type: 'text' }, other.admin, other);
  const mine = (await api.request('GET', '/fields', { headers: withKey('reader') })).body as { fields: Definition[] };
  expect(mine.fields.map((field) => field.key)).not.toContain('ailleurs');
});

test('a member reads but may not write (403); another workspace’s admin: 404 on every route', async () => {
  expect((await create({ key: 'non', label: 'Non', type: 'text' }, ws.member)).status).toBe(403);
  expect((await change('canaux', { label: 'Non' }, ws.member)).status).toBe(403);
  expect((await remove('canaux', ws.member)).status).toBe(403);
  expect((await list(ws.member)).status).toBe(200);
  const intruder = other.admin;
  for (const response of [
    await list(intruder),
    await create({ key: 'intrus', label: 'Intrus', type: 'text' }, intruder),
    await change('canaux', { label: 'Intrus' }, intruder),
    await remove('canaux', intruder),
  ]) {
    expect(response.status).toBe(404);
  }
  expect((await fieldsOf()).fields.find((field) => field.key === 'canaux')?.label).toBe('Réseaux');
});

describe('the limits', () => {
  let full: PeopleWorkspace;
  beforeAll(async () => {
    full = await workspaceWithPeople(api);
  });
  const actingMemberId = () => full.admin.memberId;
  const define = (key: string, more: Record<string, unknown> = {}) =>
    createField(deps, {
      workspaceId: full.seed.workspace_id,
      actingMemberId: actingMemberId(),
      field: { key, label: key, type: 'text', ...more } as Parameters<typeof createField>[1]['field'],
    });

  test('a 51st field: 422; a deleted one does not count', async () => {
    for (let index = 0; index < 50; index += 1) await define(`champ_${index}`);
    const over = await create({ key: 'champ_50', label: 'De trop', type: 'text' }, full.admin, full);
    expect(over.status).toBe(422);
    expect(over.body).toEqual(error('unprocessable', refusals.tooMany(50)));
    expect((await remove('champ_0', full.admin, full)).status).toBe(200);
    expect((await create({ key: 'champ_50', label: 'À sa place', type: 'text' }, full.admin, full)).status).toBe(201);
    expect((await fieldsOf(full)).fields).toHaveLength(50);
  });

  test('definitions over 64 KB in all: 422, from a POST or a PATCH; deleted ones do not count', async () => {
    const large = await workspaceWithPeople(api);
    /** A choice of 50 options of 100 characters, 10 aliases of 200 and a label of 100: about 7.4 KB as JSON. */
    const heavy = (key: string) => ({
      key,
      label: key.padEnd(100, 'l'),
      type: 'choice',
      options: Array.from({ length: 50 }, (_, index) => `${index}`.padEnd(100, 'o')),
      aliases: Array.from({ length: 10 }, (_, index) => `${key} ${index}`.padEnd(200, 'a')),
    });
    for (let index = 0; index < 8; index += 1) {
      await createField(deps, {
        workspaceId: large.seed.workspace_id,
        actingMemberId: large.admin.memberId,
        field: heavy(`gros_${index}`) as Parameters<typeof createField>[1]['field'],
      });
    }
    const tooLarge = error('unprocessable', refusals.tooLarge(64));
    const ninth = await create(heavy('gros_8'), large.admin, large);
    expect({ status: ninth.status, body: ninth.body }).toEqual({ status: 422, body: tooLarge });
    expect((await create(channels, large.admin, large)).status).toBe(201);
    const grown = { options: heavy('canaux').options.map((option, index) => channels.options?.[index] ?? option) };
    const changed = await change('canaux', { ...grown, aliases: heavy('canaux').aliases }, large.admin, large);
    expect({ status: changed.status, body: changed.body }).toEqual({ status: 422, body: tooLarge });
    expect((await remove('gros_0', large.admin, large)).status).toBe(200);
    expect((await create(heavy('gros_8'), large.admin, large)).status).toBe(201);
  });
});

test('round trips: the authorizer’s and the member’s counter, then one read, and the edit’s one transaction', async () => {
  const gate = ['BatchGetItem', 'UpdateItem'];
  counter.reset();
  await list();
  expect(counter.calls).toEqual([...gate, 'GetItem']);
  counter.reset();
  await create({ key: 'comptee', label: 'Comptée', type: 'text' });
  expect(counter.calls).toEqual([...gate, 'GetItem', 'TransactWriteItems']);
  counter.reset();
  await change('comptee', { label: 'Comptée deux fois' });
  expect(counter.calls).toEqual([...gate, 'GetItem', 'TransactWriteItems']);
  counter.reset();
  await change('comptee', { label: 'Comptée deux fois' });
  expect(counter.calls).toEqual([...gate, 'GetItem']);
  counter.reset();
  await remove('comptee');
  expect(counter.calls).toEqual([...gate, 'GetItem', 'TransactWriteItems']);
  counter.reset();
  await remove('Comptee');
  expect(counter.calls).toEqual(gate);
  counter.reset();
  await api.request('GET', '/fields', { headers: withKey('reader') });
  expect(counter.calls).toEqual(['GetItem', 'UpdateItem', 'GetItem']);
});
