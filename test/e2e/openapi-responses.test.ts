import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { SeedOutput } from '../../tools/seed/seed';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { productionDeps } from '../../lib/storage/client';
import { createField } from '../../lib/settings/fields';
import { eventItems } from '../../lib/storage/event-items';
import type { DeliveryMessage, DeliveryQueue } from '../../lib/domain/events/ports';
import { poolIdentityProvider } from '../../lib/identity/cognito';
import { admitRequest, requestLimit } from '../../lib/storage/rate-limit';
import { deployedRoutes as routes } from '../../infra/cdk/route-grants';
import { matchRoute } from '../../tools/local/api-gateway';
import { startTestApi, type ApiResponse, type RequestOptions, type TestApi } from '../support/local-api';
import { bearer, peoplePassword, signIn, workspaceWithPeople, type PeopleWorkspace } from '../support/people';
import { aWorkspace, seedTestWorkspace } from '../support/seed';
import { plantFailedDelivery } from '../support/deliveries';
import { editWorkspaceConfig, partsOf } from '../../lib/storage/config-edits';
import { withNewField } from '../../lib/domain/fields/field-definitions';

/**
 * Real answers of the local API, checked against the OpenAPI document it serves: each status must
 * be documented for its operation, each body valid against the documented schema (ajv, JSON Schema
 * 2020-12 as OpenAPI 3.1 uses it), each required header present and valid. The last test checks
 * that every documented answer was met, so the document promises nothing the code does not do.
 */

type HeaderSpec = { required?: boolean; schema: object };
type ResponseSpec = { headers?: Record<string, HeaderSpec>; content?: Record<string, { schema: object }> };
type OperationSpec = { operationId: string; responses: Record<string, ResponseSpec> };
type Document = { paths: Record<string, Record<string, OperationSpec>> };

let api: TestApi;
let limitedApi: TestApi;
let failingApi: TestApi;
let gatedApi: TestApi;
let document: Document;
let ws: SeedOutput;
let noRecruitment: SeedOutput;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
const met = new Set<string>();
/** The delivery queue of the API under test: what the redeliver route queues (the delivery function is not run here). */
const queuedMessages: DeliveryMessage[] = [];
const queued: DeliveryQueue = { send: async (sent) => void queuedMessages.push(...sent.map(({ message }) => message)) };
const store = productionDeps();
const limitedNow = new Date('2030-01-01T10:00:00.000Z');

const failingDeps = productionDeps();
failingDeps.db.middlewareStack.add(
  () => async () => {
    throw new Error('DynamoDB injoignable');
  },
  { step: 'initialize', name: 'outage' },
);

/** Holds the first transaction written until released: a second call with the same Idempotency-Key meets it in flight. */
const gatedDeps = productionDeps();
let gate: { arrived: () => void; release: Promise<void> } | undefined;
gatedDeps.db.middlewareStack.add(
  (next, context) => async (args) => {
    if (context.commandName === 'TransactWriteItemsCommand' && gate !== undefined) {
      gate.arrived();
      await gate.release;
    }
    return next(args);
  },
  { step: 'initialize', name: 'gate' },
);

beforeAll(async () => {
  [ws, noRecruitment] = await Promise.all([
    seedTestWorkspace(
      aWorkspace({
        api_keys: [
          { key: 'admin', name: 'Zapier', scopes: ['*'] },
          { key: 'reader', name: 'Tableau de bord', scopes: ['pipelines:read'] },
          { key: 'notes', name: 'Notes', scopes: ['notes:write'] },
          { key: 'burst', name: 'Rafale', scopes: ['*'] },
        ],
        recruitment_pipelines: [
          { key: 'devs', name: 'Développeurs', is_default: true, active: true, columns: [{ key: 'a', name: 'Reçue' }] },
          { key: 'sales1', name: 'Commerciaux', active: true, columns: [{ key: 'a', name: 'Reçue' }] },
          { key: 'sales2', name: 'commerciaux', active: true, columns: [{ key: 'a', name: 'Reçue' }] },
        ],
      }),
    ),
    seedTestWorkspace({ workspace: { name: 'Sans recrutement' }, webhook: { active: true } }),
  ]);
  [api, limitedApi, failingApi, gatedApi] = await Promise.all([
    startTestApi({}, {}, { queue: queued }),
    startTestApi({ clock: () => limitedNow }),
    startTestApi({ db: failingDeps.db }),
    startTestApi({ db: gatedDeps.db }),
  ]);
  const served = await api.request('GET', '/openapi.json');
  document = served.body as Document;
  ajv.addSchema(document, 'openapi.json');
});

afterAll(async () => {
  await Promise.all([api, limitedApi, failingApi, gatedApi].map((server) => server.close()));
  for (const deps of [store, failingDeps, gatedDeps]) deps.db.destroy();
});

const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

/** What the document says that this answer breaks; records the operation and status as met. */
function disagreements(method: string, path: string, response: ApiResponse): string[] {
  const match = matchRoute(routes, method, path);
  if (match === undefined) return [`${method} ${path} is no route`];
  const operation = document.paths[match.route.path]?.[method.toLowerCase()];
  if (operation === undefined) return [`${method} ${match.route.path} is not documented`];
  const status = String(response.status);
  const spec = operation.responses[status];
  if (spec === undefined) return [`status ${status} is not documented`];
  met.add(`${operation.operationId} ${status}`);
  const problems: string[] = [];
  for (const [name, header] of Object.entries(spec.headers ?? {})) {
    const value = response.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`header ${name} missing`);
      continue;
    }
    const typed = (header.schema as { type?: string }).type === 'integer' ? Number(value) : value;
    if (!ajv.validate(header.schema, typed)) problems.push(`header ${name}: ${ajv.errorsText()}`);
  }
  // An answer documented without content (204) has no body.
  if (spec.content === undefined) return response.text === '' ? problems : [...problems, `a body: ${response.text}`];
  if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) {
    problems.push(`content-type ${response.headers.get('content-type')}`);
  }
  const schemaRef = [
    'paths',
    match.route.path,
    method.toLowerCase(),
    'responses',
    status,
    'content',
    'application/json',
  ]
    .map(escape)
    .join('/');
  const validate = ajv.getSchema(`openapi.json#/${schemaRef}/schema`);
  if (validate === undefined) problems.push(`no schema at ${schemaRef}`);
  else if (!validate(response.body)) problems.push(`body: ${ajv.errorsText(validate.errors)} in ${response.text}`);
  return problems;
}

async function call(server: TestApi, method: string, path: string, options: RequestOptions = {}) {
  const response = await server.request(method, path, options);
  expect({ call: `${method} ${path} → ${response.status}`, problems: disagreements(method, path, response) }).toEqual({
    call: `${method} ${path} → ${response.status}`,
    problems: [],
  });
  return response;
}

const key = (name: string) => ({ Authorization: `Bearer ${ws.api_keys[name]?.secret}` });
const prospect = (name: string) => `/prospects/${ws.prospects[name]}`;
const webhookQuery = (seed: SeedOutput = ws) => ({ endpoint_id: seed.webhook?.endpoint_id as string });
const token = (seed: SeedOutput = ws) => ({ Authorization: `Bearer ${seed.webhook?.token}` });
const unknownId = '00000000-0000-4000-8000-000000000000';

/** Every Prospect API call, with a body each route accepts. */
const prospectApiCalls = (): [string, string, RequestOptions][] => [
  ['GET', '/pipelines', {}],
  ['GET', '/members', {}],
  ['GET', '/fields', {}],
  ['PATCH', prospect('lead'), { body: { follow_up_at: null } }],
  ['POST', `${prospect('lead')}/notes`, { body: { content: 'Note' } }],
  ['POST', `${prospect('lead')}/tags`, { body: { tag: 'VIP' } }],
  ['DELETE', `${prospect('lead')}/tags/VIP`, {}],
  ['GET', prospect('lead'), {}],
  ['GET', '/prospects', { query: { email: 'nina.openapi.lookup@exemple.test' } }],
  ['GET', `${prospect('lead')}/notes`, {}],
  ['GET', `${prospect('lead')}/changes`, {}],
];

describe('the Prospect API answers as documented', () => {
  test('GET /pipelines', async () => {
    await call(api, 'GET', '/pipelines', { headers: key('reader') });
    await call(api, 'GET', '/pipelines', { headers: key('notes') });
  });

  test('GET /members', async () => {
    await call(api, 'GET', '/members', { headers: key('reader') });
    await call(api, 'GET', '/members', { headers: key('notes') });
  });

  test('GET /fields', async () => {
    await call(api, 'GET', '/fields', { headers: key('reader') });
    await call(api, 'GET', '/fields', { headers: key('notes') });
  });

  test('PATCH /prospects/{prospect_id}', async () => {
    await call(api, 'PATCH', prospect('lead'), {
      headers: key('admin'),
      body: { stage: 'Relance', setter_id: ws.members.alice, follow_up_at: '2026-12-01T09:30:00+01:00' },
    });
    await call(api, 'PATCH', prospect('lead'), { headers: key('admin'), body: { status: 'x' } });
    await call(api, 'PATCH', '/prospects/pas-un-uuid', { headers: key('admin'), body: { setter_id: null } });
    await call(api, 'PATCH', prospect('sold'), { headers: key('admin'), body: { stage: 'Nouveau' } });
    await call(api, 'PATCH', prospect('lead'), { headers: key('admin'), body: { stage: 'Inconnue' } });
    await call(api, 'PATCH', prospect('lead'), { headers: key('reader'), body: { setter_id: null } });
  });

  test("a prospect's custom fields: PATCH, the read routes, the change log", async () => {
    await editWorkspaceConfig(store, ws.workspace_id, (config) => {
      const withBudget = withNewField(config, { key: 'budget', label: 'Budget', type: 'number' });
      const fields = withNewField(
        { fields: withBudget },
        { key: 'interests', label: 'Intérêts', type: 'multi_choice', options: ['Vente', 'Coaching'] },
      );
      return { ...partsOf(config), fields: withNewField({ fields }, { key: 'vip', label: 'VIP', type: 'boolean' }) };
    });
    const admin = key('admin');
    const patched = await call(api, 'PATCH', prospect('social'), {
      headers: admin,
      body: { fields: { budget: '1 500', interests: 'Coaching, Vente', vip: 'oui' } },
    });
    expect((patched.body as { fields: unknown }).fields).toEqual({
      budget: 1500,
      interests: ['Vente', 'Coaching'],
      vip: true,
    });
    await call(api, 'PATCH', prospect('social'), { headers: admin, body: { fields: { budget: null, inconnu: 1 } } });
    await call(api, 'PATCH', prospect('social'), { headers: admin, body: { fields: { budget: 'beaucoup' } } });
    await call(api, 'GET', prospect('social'), { headers: admin });
    await call(api, 'GET', '/prospects', {
      headers: admin,
      query: { social_url: 'https://www.linkedin.com/in/marc-social' },
    });
    const changes = await call(api, 'GET', `${prospect('social')}/changes`, { headers: admin });
    expect((changes.body as { changes: { field: string }[] }).changes.map((entry) => entry.field)).toEqual(
      expect.arrayContaining(['fields.budget', 'fields.interests', 'fields.vip']),
    );
  });

  test('POST /prospects/{prospect_id}/notes', async () => {
    const idempotency = randomUUID();
    const note = (content: string) => ({
      headers: { ...key('notes'), 'Idempotency-Key': idempotency },
      body: { content, date: '2999-01-01T00:00:00Z' },
    });
    await call(api, 'POST', `${prospect('lead')}/notes`, note('Rappelé, intéressé.'));
    await call(api, 'POST', `${prospect('lead')}/notes`, note('Un autre contenu'));
    await call(api, 'POST', `${prospect('lead')}/notes`, { headers: key('admin'), body: { content: '   ' } });
    await call(api, 'POST', `/prospects/${unknownId}/notes`, { headers: key('admin'), body: { content: 'Note' } });
    await call(api, 'POST', `${prospect('lead')}/notes`, { headers: key('reader'), body: { content: 'Note' } });
  });

  test('POST /prospects/{prospect_id}/tags and DELETE /prospects/{prospect_id}/tags/{tag}', async () => {
    const tags = `${prospect('deposit')}/tags`;
    await call(api, 'POST', tags, { headers: key('admin'), body: { tag: 'vip' } });
    await call(api, 'POST', tags, { headers: key('admin'), body: { tag: ws.tags.vip } });
    await call(api, 'POST', tags, { headers: key('admin'), body: { tag: '' } });
    await call(api, 'POST', tags, { headers: key('admin'), body: { tag: 'Premium' } });
    await call(api, 'POST', `/prospects/${unknownId}/tags`, { headers: key('admin'), body: { tag: 'VIP' } });
    await call(api, 'POST', tags, { headers: key('reader'), body: { tag: 'VIP' } });
    await call(api, 'DELETE', `${tags}/VIP`, { headers: key('admin') });
    await call(api, 'DELETE', `${tags}/VIP`, { headers: key('admin') });
    await call(api, 'DELETE', `${tags}/Premium`, { headers: key('admin') });
    await call(api, 'DELETE', `${tags}/VIP`, { headers: { ...key('admin'), 'Idempotency-Key': 'k'.repeat(256) } });
    await call(api, 'DELETE', `/prospects/${unknownId}/tags/VIP`, { headers: key('admin') });
    await call(api, 'DELETE', `${tags}/VIP`, { headers: key('reader') });
  });

  test('the read routes', async () => {
    const admin = key('admin');
    await call(api, 'GET', prospect('lead'), { headers: admin });
    await call(api, 'GET', `/prospects/${unknownId}`, { headers: admin });
    await call(api, 'GET', '/prospects/pas-un-uuid', { headers: admin });
    await call(api, 'GET', prospect('lead'), { headers: key('reader') });
    const lead = (await api.request('GET', prospect('lead'), { headers: admin })).body as { email: string | null };
    if (lead.email !== null) {
      const found = await call(api, 'GET', '/prospects', {
        headers: admin,
        query: { email: lead.email.toUpperCase() },
      });
      expect((found.body as { prospects: unknown[] }).prospects).toHaveLength(1);
    }
    await call(api, 'GET', '/prospects', { headers: admin, query: { phone: '+33000000000' } });
    await call(api, 'GET', '/prospects', { headers: admin, query: { email: 'pas-une-adresse' } });
    // Without a contact, the list: a page and the next one by its cursor, filtered and sorted, a parameter it does not
    // read, an unknown stage; and a list parameter beside a contact.
    const page = await call(api, 'GET', '/prospects', { headers: admin, query: { limit: '1' } });
    const cursor = (page.body as { next_cursor: string | null }).next_cursor;
    expect(cursor).not.toBeNull();
    await call(api, 'GET', '/prospects', { headers: admin, query: { limit: '1', cursor: cursor as string } });
    await call(api, 'GET', '/prospects', { headers: admin, query: { tag: ['VIP', 'Chaud'], sort: 'updated_at' } });
    await call(api, 'GET', '/prospects', { headers: admin, query: { tags: 'VIP' } });
    await call(api, 'GET', '/prospects', { headers: admin, query: { stage: 'Inconnue' } });
    await call(api, 'GET', '/prospects', { headers: admin, query: { email: 'a@exemple.test', limit: '1' } });
    await call(api, 'GET', '/prospects', { headers: admin, query: { email: 'a@exemple.test', phone: '+33600000000' } });
    await call(api, 'GET', '/prospects', { headers: key('notes'), query: { email: 'a@exemple.test' } });
    for (const list of ['notes', 'changes']) {
      const path = `${prospect('lead')}/${list}`;
      await call(api, 'POST', `${prospect('lead')}/notes`, { headers: admin, body: { content: `Pour ${list}` } });
      await call(api, 'PATCH', prospect('lead'), {
        headers: admin,
        body: { follow_up_at: `2026-12-0${list === 'notes' ? 1 : 2}T09:30:00+01:00` },
      });
      const first = await call(api, 'GET', path, { headers: admin, query: { limit: '1' } });
      const next = (first.body as { next_cursor: string | null }).next_cursor;
      expect(next).not.toBeNull();
      await call(api, 'GET', path, { headers: admin, query: { limit: '100', cursor: next as string } });
      await call(api, 'GET', path, { headers: admin, query: { limit: '0' } });
      await call(api, 'GET', path, { headers: admin, query: { cursor: 'pas-un-curseur' } });
      await call(api, 'GET', path, { headers: admin, query: { limit: ['1', '2'] } });
      await call(api, 'GET', `/prospects/${unknownId}/${list}`, { headers: admin });
      await call(api, 'GET', `/prospects/${unknownId}/${list}`, { headers: admin, query: { limit: 'x' } });
      await call(api, 'GET', path, { headers: key('reader') });
    }
  });

  test('every route without a key: 401', async () => {
    for (const [method, path, options] of prospectApiCalls()) await call(api, method, path, options);
  });

  test('every route past the limit: 429 with Retry-After', async () => {
    const burst = { Authorization: `Bearer ${ws.api_keys.burst?.secret}` };
    const keyId = ws.api_keys.burst?.id as string;
    const count = () => admitRequest(store, { keyId, now: limitedNow, stageChange: false, enforce: true });
    await Promise.all(Array.from({ length: requestLimit }, count));
    for (const [method, path, options] of prospectApiCalls()) {
      await call(limitedApi, method, path, { ...options, headers: burst });
    }
  });

  test('a write whose Idempotency-Key is still in flight: 409 with Retry-After', async () => {
    const writes = prospectApiCalls().filter(([method]) => method === 'POST' || method === 'DELETE');
    for (const [method, path, options] of writes) {
      let arrived!: () => void;
      let release!: () => void;
      const first = new Promise<void>((resolve) => (arrived = resolve));
      gate = { arrived, release: new Promise((resolve) => (release = resolve)) };
      const request = { ...options, headers: { ...key('admin'), 'Idempotency-Key': randomUUID() } };
      const running = gatedApi.request(method, path, request);
      await first;
      const second = await call(gatedApi, method, path, request);
      expect(second.status).toBe(409);
      gate = undefined;
      release();
      await running;
    }
  });

  test('GET /pipelines ignores an Idempotency-Key: the header is for writes only', async () => {
    const headers = { ...key('reader'), 'Idempotency-Key': 'k'.repeat(256) };
    expect((await call(api, 'GET', '/pipelines', { headers })).status).toBe(200);
  });
});

describe('the webhooks answer as documented', () => {
  test('POST /webhooks/ingest-lead', async () => {
    const lead = { first_name: 'Nina', email: 'nina.openapi@exemple.test', pipeline: 'Ventes', stage: 'Nouveaux' };
    const path = '/webhooks/ingest-lead';
    await call(api, 'POST', path, { query: webhookQuery(), headers: token(), body: { ...lead, entreprise: 'Acme' } });
    await call(api, 'POST', path, {
      query: webhookQuery(),
      headers: { 'x-webhook-token': ws.webhook?.token as string, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `email=nina.openapi%40exemple.test&tag_ids=${ws.tags.vip},${unknownId}`,
    });
    await call(api, 'POST', path, { query: { endpoint_id: 'pas-un-uuid' }, headers: token(), body: lead });
    await call(api, 'POST', path, { query: webhookQuery(), headers: token(), body: { first_name: 'Nina' } });
    await call(api, 'POST', path, { query: { endpoint_id: unknownId }, headers: token(), body: lead });
    await call(api, 'POST', path, { headers: token(), body: lead });
  });

  test('POST /webhooks/recruitment', async () => {
    const application = {
      email: 'camille.openapi@exemple.test',
      name: 'Camille Dupont',
      answers: { 'Disponible ?': 'Oui' },
    };
    const path = '/webhooks/recruitment';
    await call(api, 'POST', path, {
      query: { ...webhookQuery(), token: ws.webhook?.token as string },
      body: application,
    });
    await call(api, 'POST', path, { query: webhookQuery(), headers: token(), body: { ...application, email: 'non' } });
    await call(api, 'POST', path, {
      query: webhookQuery(),
      headers: { Authorization: 'Bearer faux' },
      body: application,
    });
    await call(api, 'POST', path, { query: { endpoint_id: unknownId }, headers: token(), body: application });
    await call(api, 'POST', path, {
      query: webhookQuery(),
      headers: token(),
      body: { ...application, pipeline: 'Commerciaux' },
    });
    await call(api, 'POST', path, {
      query: webhookQuery(noRecruitment),
      headers: token(noRecruitment),
      body: application,
    });
  });
});

describe('the sign-in routes and the settings API answer as documented', () => {
  const identity = poolIdentityProvider();
  let people: PeopleWorkspace;
  beforeAll(async () => {
    people = await workspaceWithPeople(api);
  });

  /** Someone of their own, signed up with the people's password (a test that changes it changes only theirs). */
  async function aPerson(): Promise<string> {
    const email = `openapi-${randomUUID()}@acme.test`;
    await identity.invite(email, 'Provisoire-Passw0rd!');
    await identity.setPermanentPassword(email, peoplePassword);
    return email;
  }

  test('POST /session', async () => {
    await call(api, 'POST', '/session', {
      body: { email: people.admin.email.toUpperCase(), password: peoplePassword },
    });
    await call(api, 'POST', '/session', { body: { email: people.admin.email, password: peoplePassword, remember: 1 } });
    await call(api, 'POST', '/session', { body: { email: people.admin.email, password: 'Pas-le-bon-1!' } });
    const invited = `openapi-${randomUUID()}@acme.test`;
    await identity.invite(invited, 'Provisoire-Passw0rd!');
    await call(api, 'POST', '/session', { body: { email: invited, password: 'Provisoire-Passw0rd!' } });
    const guessed = await aPerson();
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      await api.request('POST', '/session', { body: { email: guessed, password: `Devine-${attempt}!` } });
    }
    const limited = await call(api, 'POST', '/session', { body: { email: guessed, password: peoplePassword } });
    expect(limited.status).toBe(429);
  });

  test('POST /session/refresh', async () => {
    await call(api, 'POST', '/session/refresh', { body: { refresh_token: people.admin.refreshToken } });
    await call(api, 'POST', '/session/refresh', { body: { refresh_token: '' } });
    await call(api, 'POST', '/session/refresh', { body: { refresh_token: 'pas-un-jeton' } });
  });

  test('GET /workspaces and DELETE /session', async () => {
    await call(api, 'GET', '/workspaces', { headers: bearer(people.member) });
    await call(api, 'GET', '/workspaces', {});
    const session = await signIn(api, await aPerson());
    await call(api, 'DELETE', '/session', { headers: bearer(session) });
    await call(api, 'DELETE', '/session', { headers: bearer(session) });
  });

  test('POST /session/password', async () => {
    const session = await signIn(api, await aPerson());
    const change = (body: unknown, headers: Record<string, string> = bearer(session)) =>
      call(api, 'POST', '/session/password', { headers, body });
    await change({ password: peoplePassword, new_password: 'faible' });
    await change({ password: peoplePassword, new_password: 'Nouveau-Passw0rd!', remember: 1 });
    await change({ password: 'Pas-le-bon-1!', new_password: 'Nouveau-Passw0rd!' });
    await change({ password: peoplePassword, new_password: 'Nouveau-Passw0rd!' }, {});
    await change({ password: peoplePassword, new_password: 'Nouveau-Passw0rd!' });
  });

  test('POST /password-reset and /password-reset/confirm', async () => {
    const email = await aPerson();
    const started = await call(api, 'POST', '/password-reset', { body: { email } });
    await call(api, 'POST', '/password-reset', { body: { mail: email } });
    const { code } = started.body as { code: string };
    const confirm = (body: object) =>
      call(api, 'POST', '/password-reset/confirm', { body: { email, new_password: 'Oublie-Passw0rd!', ...body } });
    await confirm({ code: code === '000000' ? '111111' : '000000' });
    await confirm({ code, new_password: 'faible' });
    await confirm({ code, remember: 1 });
    await confirm({ code });
  });

  test('the routes that only call the identity provider, when it is unreachable: 500', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const endpoint = process.env.IDENTITY_ENDPOINT;
    // Fault injection: the functions of this API are built, on their first call, for a provider nobody answers at.
    process.env.IDENTITY_ENDPOINT = 'http://127.0.0.1:9';
    const unreachable = await startTestApi();
    try {
      const body = { email: 'panne@acme.test', code: '123456', new_password: 'Oublie-Passw0rd!' };
      await call(unreachable, 'POST', '/password-reset', { body: { email: body.email } });
      await call(unreachable, 'POST', '/password-reset/confirm', { body });
    } finally {
      process.env.IDENTITY_ENDPOINT = endpoint;
      await unreachable.close();
      jest.restoreAllMocks();
    }
  });

  test('the members routes and GET /audit, each answer of docs/api.md#settings-api', async () => {
    const mine = await workspaceWithPeople(
      api,
      aWorkspace({ members: [...(aWorkspace().members ?? []), { key: 'noEmail', name: 'Sans Adresse', email: null }] }),
    );
    const w = `/workspaces/${mine.seed.workspace_id}`;
    const [admin, member, stranger] = [bearer(mine.admin), bearer(mine.member), bearer(people.admin)];
    const newMember = { email: `openapi-${randomUUID()}@acme.test`, role: 'member' };
    const routesOf = (memberId: string): [string, string, RequestOptions][] => [
      ['GET', `${w}/members`, {}],
      ['POST', `${w}/members`, { body: { email: `openapi-${randomUUID()}@acme.test`, role: 'member' } }],
      ['POST', `${w}/members/${memberId}/invite`, {}],
      ['PATCH', `${w}/members/${memberId}`, { body: { role: 'member' } }],
      ['DELETE', `${w}/members/${memberId}`, {}],
      ['GET', `${w}/audit`, {}],
    ];
    const added = await call(api, 'POST', `${w}/members`, { headers: admin, body: newMember });
    const addedId = (added.body as { id: string }).id;
    await call(api, 'POST', `${w}/members`, { headers: admin, body: newMember });
    await call(api, 'POST', `${w}/members`, { headers: admin, body: { ...newMember, role: 'owner' } });
    await call(api, 'GET', `${w}/members`, { headers: member });
    await call(api, 'POST', `${w}/members/${addedId}/invite`, { headers: admin });
    await call(api, 'POST', `${w}/members/${mine.seed.members.noEmail}/invite`, { headers: admin });
    await call(api, 'PATCH', `${w}/members/${addedId}`, { headers: admin, body: { role: 'admin' } });
    await call(api, 'PATCH', `${w}/members/${addedId}`, { headers: admin, body: { role: 'owner' } });
    await call(api, 'PATCH', `${w}/members/${unknownId}`, { headers: admin, body: { role: 'admin' } });
    await call(api, 'DELETE', `${w}/members/${addedId}`, { headers: admin });
    await call(api, 'POST', `${w}/members/${addedId}/invite`, { headers: admin });
    await call(api, 'PATCH', `${w}/members/${mine.admin.memberId}`, { headers: admin, body: { role: 'member' } });
    await call(api, 'DELETE', `${w}/members/${mine.admin.memberId}`, { headers: admin });
    await call(api, 'DELETE', `${w}/members/${unknownId}`, { headers: admin });
    await call(api, 'POST', `${w}/members/${unknownId}/invite`, { headers: admin });
    await call(api, 'GET', `${w}/audit`, { headers: admin, query: { limit: '1' } });
    await call(api, 'GET', `${w}/audit`, { headers: admin, query: { limit: '0' } });
    for (const [method, path, options] of routesOf(mine.member.memberId)) {
      await call(api, method, path, options);
      await call(api, method, path, { ...options, headers: stranger });
      if (method !== 'GET' || path.endsWith('/audit')) await call(api, method, path, { ...options, headers: member });
    }
    // Past the member's limit: 429 on each, after the role (an admin's calls).
    const keyId = `MEMBER#${mine.admin.memberId}`;
    const count = () => admitRequest(store, { keyId, now: limitedNow, stageChange: false, enforce: true });
    await Promise.all(Array.from({ length: requestLimit }, count));
    for (const [method, path, options] of routesOf(mine.member.memberId)) {
      await call(limitedApi, method, path, { ...options, headers: admin });
    }
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const [method, path, options] of routesOf(mine.member.memberId)) {
      await call(failingApi, method, path, { ...options, headers: admin });
    }
    jest.restoreAllMocks();
  });

  test('every settings route, when DynamoDB fails: 500', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const headers = bearer(people.member);
    await call(failingApi, 'POST', '/session', { body: { email: people.member.email, password: peoplePassword } });
    await call(failingApi, 'POST', '/session/refresh', { body: { refresh_token: people.member.refreshToken } });
    await call(failingApi, 'GET', '/workspaces', { headers });
    await call(failingApi, 'DELETE', '/session', { headers });
    const change = { password: peoplePassword, new_password: 'Nouveau-Passw0rd!' };
    await call(failingApi, 'POST', '/session/password', { headers, body: change });
    jest.restoreAllMocks();
  });
});

describe("the settings API's prospect routes, and the pipelines that name their stages, answer as documented", () => {
  let people: PeopleWorkspace;
  beforeAll(async () => {
    people = await workspaceWithPeople(api);
  });
  const inWorkspace = (path: string) => `/workspaces/${people.seed.workspace_id}${path}`;
  const withKey = () => ({ Authorization: `Bearer ${people.seed.api_keys.admin?.secret}` });
  const prospectOf = (name: string) => people.seed.prospects[name] as string;
  /** The key's stage change of a prospect of the workspace: its change-log entry's id. */
  async function aStageChange(name: string, stage: string): Promise<string> {
    const patched = await api.request('PATCH', `/prospects/${prospectOf(name)}`, {
      headers: withKey(),
      body: { stage },
    });
    expect(patched.status).toBe(200);
    const changes = await api.request('GET', `/prospects/${prospectOf(name)}/changes`, { headers: withKey() });
    return (changes.body as { changes: { id: string }[] }).changes[0]?.id as string;
  }
  /** Each route once, with a member's token, as it succeeds. */
  const calls = (): [string, string, RequestOptions][] => [
    ['GET', inWorkspace('/pipelines'), {}],
    ['GET', inWorkspace('/prospects'), { query: { email: 'lea.petit@acme.test' } }],
    ['GET', inWorkspace(`/prospects/${prospectOf('lead')}`), {}],
    ['GET', inWorkspace(`/prospects/${prospectOf('lead')}/changes`), {}],
    ['POST', inWorkspace(`/changes/${unknownId}/undo`), {}],
  ];

  test('their answers, and refusals: 400, 404, 409, 422', async () => {
    const headers = bearer(people.member);
    for (const [method, path, options] of calls()) await call(api, method, path, { ...options, headers });
    // Without a contact, the list: a page and the next one by its cursor, a parameter it does not read, an unknown stage.
    const page = await call(api, 'GET', inWorkspace('/prospects'), { headers, query: { limit: '1' } });
    const cursor = (page.body as { next_cursor: string | null }).next_cursor;
    expect(cursor).not.toBeNull();
    await call(api, 'GET', inWorkspace('/prospects'), { headers, query: { limit: '1', cursor: cursor as string } });
    await call(api, 'GET', inWorkspace('/prospects'), { headers, query: { tags: 'VIP' } });
    await call(api, 'GET', inWorkspace('/prospects'), { headers, query: { stage: 'Inconnue' } });
    await call(api, 'GET', inWorkspace(`/prospects/${unknownId}`), { headers });
    await call(api, 'GET', inWorkspace(`/prospects/${prospectOf('lead')}/changes`), { headers, query: { limit: '0' } });
    await call(api, 'GET', inWorkspace(`/prospects/${unknownId}/changes`), { headers });
    const entry = await aStageChange('lead', 'Relance');
    await call(api, 'POST', inWorkspace(`/changes/${entry}/undo`), { headers, body: { reason: 'erreur' } });
    expect((await call(api, 'POST', inWorkspace(`/changes/${entry}/undo`), { headers })).status).toBe(200);
    expect((await call(api, 'POST', inWorkspace(`/changes/${entry}/undo`), { headers })).status).toBe(409);
    const noted = await api.request('POST', `/prospects/${prospectOf('lead')}/notes`, {
      headers: withKey(),
      body: { content: 'Rappelé.' },
    });
    expect(noted.status).toBe(201);
    const changes = await api.request('GET', `/prospects/${prospectOf('lead')}/changes`, { headers: withKey() });
    const note = (changes.body as { changes: { id: string }[] }).changes[0]?.id as string;
    expect((await call(api, 'POST', inWorkspace(`/changes/${note}/undo`), { headers })).status).toBe(422);
  });

  test("a custom field's value: the member's views, the change log, its undo", async () => {
    await editWorkspaceConfig(store, people.seed.workspace_id, (config) => ({
      ...partsOf(config),
      fields: withNewField(config, { key: 'interests', label: 'Intérêts', type: 'multi_choice', options: ['Vente'] }),
    }));
    const lead = prospectOf('lead');
    const patched = await api.request('PATCH', `/prospects/${lead}`, {
      headers: withKey(),
      body: { fields: { interests: ['Vente'] } },
    });
    expect(patched.status).toBe(200);
    const headers = bearer(people.member);
    await call(api, 'GET', inWorkspace(`/prospects/${lead}`), { headers });
    await call(api, 'GET', inWorkspace('/prospects'), { headers, query: { email: 'lea.petit@acme.test' } });
    const changes = await call(api, 'GET', inWorkspace(`/prospects/${lead}/changes`), { headers });
    const [entry] = (changes.body as { changes: { id: string; field: string }[] }).changes;
    expect(entry?.field).toBe('fields.interests');
    const keyId = people.seed.api_keys.admin?.id as string;
    await call(api, 'GET', inWorkspace(`/api-keys/${keyId}/changes`), { headers });
    const undone = await call(api, 'POST', inWorkspace(`/changes/${entry?.id}/undo`), { headers });
    expect(undone.body).toMatchObject({
      entry: { before: null, after: ['Vente'] },
      prospect: { fields: { interests: null } },
    });
  });

  test('without a session: 401; another workspace: 404', async () => {
    for (const [method, path, options] of calls()) {
      await call(api, method, path, options);
      await call(api, method, path.replace(people.seed.workspace_id, unknownId), {
        ...options,
        headers: bearer(people.member),
      });
    }
  });

  test('past the member’s limit: 429 with Retry-After', async () => {
    const keyId = `MEMBER#${people.member.memberId}`;
    const count = () => admitRequest(store, { keyId, now: limitedNow, stageChange: false, enforce: true });
    await Promise.all(Array.from({ length: requestLimit }, count));
    for (const [method, path, options] of calls()) {
      expect((await call(limitedApi, method, path, { ...options, headers: bearer(people.member) })).status).toBe(429);
    }
  });

  test('when DynamoDB fails: 500', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const [method, path, options] of calls()) {
      await call(failingApi, method, path, { ...options, headers: bearer(people.member) });
    }
    jest.restoreAllMocks();
  });
});

describe('the webhook call journal, subscriptions and deliveries answer as documented', () => {
  let people: PeopleWorkspace;
  let base: string;
  const admin = () => bearer(people.admin);
  /** A call of each route, with what it accepts (`id`: a subscription, `delivery`, `call` of the workspace). */
  const eventCalls = (ids: {
    call: string;
    subscription: string;
    delivery: string;
  }): [string, string, RequestOptions][] => [
    ['GET', `${base}/webhook/calls`, {}],
    ['GET', `${base}/webhook/calls/${ids.call}`, {}],
    ['POST', `${base}/webhook/calls/${ids.call}/replay`, {}],
    ['GET', `${base}/subscriptions`, {}],
    ['POST', `${base}/subscriptions`, { body: { url: 'http://127.0.0.1:9/evenements' } }],
    ['PATCH', `${base}/subscriptions/${ids.subscription}`, { body: { active: true } }],
    ['POST', `${base}/subscriptions/${ids.subscription}/secret`, {}],
    ['GET', `${base}/subscriptions/${ids.subscription}/deliveries`, {}],
    ['POST', `${base}/deliveries/${ids.delivery}/redeliver`, {}],
    ['DELETE', `${base}/subscriptions/${ids.subscription}`, {}],
  ];
  const unknown = { call: unknownId, subscription: unknownId, delivery: unknownId };

  beforeAll(async () => {
    people = await workspaceWithPeople(api, aWorkspace({ prospects: [] }));
    base = `/workspaces/${people.seed.workspace_id}`;
  });

  test('the journal: a page, a call, a replay; a bad filter, an unknown call, a call without a body', async () => {
    const lead = (body: unknown) =>
      api.request('POST', '/webhooks/ingest-lead', {
        query: webhookQuery(people.seed),
        headers: token(people.seed),
        body,
      });
    expect((await lead({ first_name: 'Sans contact' })).status).toBe(400);
    expect((await lead({ email: `${randomUUID()}@exemple.test` })).status).toBe(200);
    const listed = await call(api, 'GET', `${base}/webhook/calls`, { headers: admin(), query: { limit: '1' } });
    const [succeeded] = (listed.body as { calls: { id: string }[] }).calls;
    const failed = await call(api, 'GET', `${base}/webhook/calls`, { headers: admin(), query: { failed: 'true' } });
    const [refused] = (failed.body as { calls: { id: string }[] }).calls;
    await call(api, 'GET', `${base}/webhook/calls`, { headers: admin(), query: { failed: 'oui' } });
    await call(api, 'GET', `${base}/webhook/calls/${refused?.id}`, { headers: admin() });
    await call(api, 'GET', `${base}/webhook/calls/${unknownId}`, { headers: admin() });
    await call(api, 'POST', `${base}/webhook/calls/${refused?.id}/replay`, { headers: admin() });
    await call(api, 'POST', `${base}/webhook/calls/${succeeded?.id}/replay`, { headers: admin() });
    await call(api, 'POST', `${base}/webhook/calls/${unknownId}/replay`, { headers: admin() });
  });

  test('subscriptions and deliveries: each answer, the refusals of their use cases', async () => {
    const created = await call(api, 'POST', `${base}/subscriptions`, {
      headers: admin(),
      body: { url: 'http://127.0.0.1:9/evenements', events: ['prospect.created'] },
    });
    const { id } = created.body as { id: string };
    await call(api, 'POST', `${base}/subscriptions`, { headers: admin(), body: { url: 'ftp://exemple.test' } });
    await call(api, 'GET', `${base}/subscriptions`, { headers: admin() });
    await call(api, 'PATCH', `${base}/subscriptions/${id}`, { headers: admin(), body: { active: false } });
    await call(api, 'PATCH', `${base}/subscriptions/${unknownId}`, { headers: admin(), body: { active: false } });
    await call(api, 'PATCH', `${base}/subscriptions/${id}`, { headers: admin(), body: { active: 'oui' } });
    await call(api, 'PATCH', `${base}/subscriptions/${id}`, {
      headers: admin(),
      body: { events: ['prospect.created', 'prospect.follow_up_due'] },
    });
    await call(api, 'PATCH', `${base}/subscriptions/${id}`, { headers: admin(), body: { events: ['inconnu'] } });
    await call(api, 'PATCH', `${base}/subscriptions/${unknownId}`, { headers: admin(), body: { events: [] } });
    // A subscription an earlier version wrote with its secret on its own item, not yet moved: 409.
    const legacy = randomUUID();
    await store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: {
          ...eventItems.subscription({
            id: legacy,
            workspace_id: people.seed.workspace_id,
            url: 'https://exemple.test/ancien',
            events: ['prospect.created'],
            active: true,
            created_at: new Date().toISOString(),
          }),
          secret: 'whsec_ancien',
        },
      }),
    );
    await call(api, 'POST', `${base}/subscriptions/${legacy}/secret`, { headers: admin() });
    await call(api, 'POST', `${base}/subscriptions/${id}/secret`, { headers: admin() });
    await call(api, 'POST', `${base}/subscriptions/${unknownId}/secret`, { headers: admin() });
    await call(api, 'GET', `${base}/subscriptions/${id}/deliveries`, { headers: admin(), query: { status: 'failed' } });
    await call(api, 'GET', `${base}/subscriptions/${id}/deliveries`, { headers: admin(), query: { status: 'perdue' } });
    await call(api, 'GET', `${base}/subscriptions/${unknownId}/deliveries`, { headers: admin() });
    await call(api, 'POST', `${base}/deliveries/${unknownId}/redeliver`, { headers: admin() });
    // A delivery of a subscription turned off (as `subscription deliveries` lists it): 409; turned on: queued.
    const deliveryId = await plantFailedDelivery(people.seed.workspace_id, id);
    await call(api, 'POST', `${base}/deliveries/${deliveryId}/redeliver`, { headers: admin() });
    await call(api, 'PATCH', `${base}/subscriptions/${id}`, { headers: admin(), body: { active: true } });
    await call(api, 'POST', `${base}/deliveries/${deliveryId}/redeliver`, { headers: admin() });
    expect(queuedMessages.at(-1)).toMatchObject({ delivery_id: deliveryId, redelivery: true });
    await call(api, 'DELETE', `${base}/subscriptions/${id}`, { headers: admin() });
    await call(api, 'DELETE', `${base}/subscriptions/${id}`, { headers: admin() });
  });

  test('no session: 401; a member: 403; a workspace not theirs: 404', async () => {
    const stranger = await workspaceWithPeople(api, aWorkspace({ prospects: [] }));
    for (const [method, path, options] of eventCalls(unknown)) {
      await call(api, method, path, options);
      await call(api, method, path, { ...options, headers: bearer(people.member) });
      await call(api, method, path, { ...options, headers: bearer(stranger.admin) });
    }
  });

  test('past the limit of the member: 429', async () => {
    const burst = await workspaceWithPeople(api, aWorkspace({ prospects: [] }));
    const path = `/workspaces/${burst.seed.workspace_id}`;
    for (let round = 0; round < 2; round += 1) {
      const now = new Date();
      const keyId = `MEMBER#${burst.admin.memberId}`;
      const count = () => admitRequest(store, { keyId, now, stageChange: false, enforce: true });
      await Promise.all(Array.from({ length: requestLimit }, count));
      const answers = [];
      for (const [method, target, options] of eventCalls(unknown)) {
        const relative = target.slice(base.length);
        answers.push(
          (await call(api, method, `${path}${relative}`, { ...options, headers: bearer(burst.admin) })).status,
        );
      }
      // Counted in the minute they were made: a minute that ended meanwhile is counted again.
      if (answers.every((status) => status === 429)) return;
    }
    throw new Error('the member was never limited');
  });

  test('when DynamoDB fails: 500', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const [method, path, options] of eventCalls(unknown)) {
      await call(failingApi, method, path, { ...options, headers: admin() });
    }
    jest.restoreAllMocks();
  });
});

describe("a person's rights answer as documented", () => {
  let people: PeopleWorkspace;
  beforeAll(async () => {
    people = await workspaceWithPeople(api);
  });
  const under = (suffix: string) => `/workspaces/${people.seed.workspace_id}${suffix}`;
  const admin = () => ({ headers: bearer(people.admin) });
  const lead = async (body: Record<string, unknown>) => {
    const answer = await api.request('POST', '/webhooks/ingest-lead', {
      query: { endpoint_id: people.seed.webhook?.endpoint_id as string },
      headers: { 'x-webhook-token': people.seed.webhook?.token as string },
      body,
    });
    return (answer.body as { prospect_id: string }).prospect_id;
  };
  const candidate = async () => {
    const answer = await api.request('POST', '/webhooks/recruitment', {
      query: { endpoint_id: people.seed.webhook?.endpoint_id as string },
      headers: { 'x-webhook-token': people.seed.webhook?.token as string },
      body: { email: `${randomUUID()}@candidat.test`, name: 'Camille Candidat' },
    });
    return (answer.body as { talent_id: string }).talent_id;
  };
  /** Every route, on records that need not exist. */
  const everyCall = (): [string, string, RequestOptions][] => [
    ['POST', under(`/prospects/${unknownId}/erase`), {}],
    ['POST', under(`/candidates/${unknownId}/erase`), {}],
    ['GET', under('/candidates'), { query: { email: 'personne@candidat.test' } }],
    ['GET', under(`/prospects/${unknownId}/export`), {}],
    ['GET', under(`/candidates/${unknownId}/export`), {}],
  ];

  test("a person's candidates found by e-mail, or none; a missing or unreadable e-mail refused", async () => {
    const email = `${randomUUID()}@candidat.test`;
    await api.request('POST', '/webhooks/recruitment', {
      query: { endpoint_id: people.seed.webhook?.endpoint_id as string },
      headers: { 'x-webhook-token': people.seed.webhook?.token as string },
      body: { email, name: 'Camille Candidat' },
    });
    const member = { headers: bearer(people.member) };
    expect((await call(api, 'GET', under('/candidates'), { ...member, query: { email } })).body).toMatchObject({
      candidates: [{ email }],
    });
    await call(api, 'GET', under('/candidates'), { ...member, query: { email: `autre-${email}` } });
    await call(api, 'GET', under('/candidates'), { ...member, query: { email: 'pas-une-adresse' } });
  });

  test('exported; a member, an unknown or erased record refused', async () => {
    for (const [kind, id] of [
      ['prospects', await lead({ email: `${randomUUID()}@acme.test` })],
      ['candidates', await candidate()],
    ] as const) {
      await call(api, 'GET', under(`/${kind}/${id}/export`), { headers: bearer(people.member) });
      expect((await call(api, 'GET', under(`/${kind}/${id}/export`), admin())).status).toBe(200);
      expect((await call(api, 'POST', under(`/${kind}/${id}/erase`), admin())).status).toBe(200);
      expect((await call(api, 'GET', under(`/${kind}/${id}/export`), admin())).status).toBe(404);
    }
  });

  test('erased; a body, a member, an unknown or erased record refused', async () => {
    for (const [kind, id] of [
      ['prospects', await lead({ email: `${randomUUID()}@acme.test` })],
      ['candidates', await candidate()],
    ] as const) {
      await call(api, 'POST', under(`/${kind}/${id}/erase`), { ...admin(), body: { reason: 'demande' } });
      await call(api, 'POST', under(`/${kind}/${id}/erase`), { headers: bearer(people.member) });
      expect((await call(api, 'POST', under(`/${kind}/${id}/erase`), admin())).status).toBe(200);
      expect((await call(api, 'POST', under(`/${kind}/${id}/erase`), admin())).status).toBe(404);
    }
  });

  test('a record written under every round of its erasure: 409, nothing erased', async () => {
    const prospect = await lead({ email: `${randomUUID()}@acme.test` });
    let rounds = 0;
    const nextGate = () => {
      let release!: () => void;
      gate = {
        arrived: () => {
          rounds += 1;
          // Each round's read is stale by the time its transaction runs: the key moved the prospect meanwhile.
          void api
            .request('PATCH', `/prospects/${prospect}`, {
              headers: { Authorization: `Bearer ${people.seed.api_keys.admin?.secret}` },
              body: { setter_id: rounds % 2 === 1 ? people.admin.memberId : null },
            })
            .then(() => {
              nextGate();
              release();
            });
        },
        release: new Promise((resolve) => (release = resolve)),
      };
    };
    nextGate();
    const refused = await call(gatedApi, 'POST', under(`/prospects/${prospect}/erase`), admin());
    gate = undefined;
    expect(refused.status).toBe(409);
    expect((await api.request('GET', under(`/prospects/${prospect}`), admin())).status).toBe(200);
  });

  test('no session: 401; another workspace: 404', async () => {
    for (const [method, path, options] of everyCall()) {
      await call(api, method, path, options);
      await call(api, method, path.replace(people.seed.workspace_id, unknownId), { ...options, ...admin() });
    }
  });

  test('past the member’s limit: 429 with Retry-After', async () => {
    const keyId = `MEMBER#${people.admin.memberId}`;
    const count = () => admitRequest(store, { keyId, now: limitedNow, stageChange: false, enforce: true });
    await Promise.all(Array.from({ length: requestLimit }, count));
    for (const [method, path, options] of everyCall()) {
      expect((await call(limitedApi, method, path, { ...options, ...admin() })).status).toBe(429);
    }
  });

  test('when DynamoDB fails: 500', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const [method, path, options] of everyCall()) await call(failingApi, method, path, { ...options, ...admin() });
    jest.restoreAllMocks();
  });
});

describe('the custom fields answer as documented', () => {
  let people: PeopleWorkspace;
  beforeAll(async () => {
    people = await workspaceWithPeople(api);
  });
  const under = (suffix: string) => `/workspaces/${people.seed.workspace_id}${suffix}`;
  const admin = () => ({ headers: bearer(people.admin) });
  const member = () => ({ headers: bearer(people.member) });
  const channels = { key: 'canaux', label: 'Canaux', type: 'multi_choice', options: ['Instagram', 'TikTok'] };
  /** A choice of 50 options of 100 characters, 10 aliases of 200 and a label of 100: about 7.4 KB as JSON. */
  const heavy = (key: string) => ({
    key,
    label: key.padEnd(100, 'l'),
    type: 'choice' as const,
    options: Array.from({ length: 50 }, (_, index) => `${index}`.padEnd(100, 'o')),
    aliases: Array.from({ length: 10 }, (_, index) => `${key} ${index}`.padEnd(200, 'a')),
  });
  /** Every route, with what it accepts. */
  const everyCall = (): [string, string, RequestOptions][] => [
    ['GET', under('/fields'), {}],
    ['POST', under('/fields'), { body: { key: 'plein', label: 'Plein', type: 'text' } }],
    ['PATCH', under('/fields/canaux'), { body: { label: 'Réseaux' } }],
    ['DELETE', under('/fields/canaux'), {}],
  ];

  test('defined, listed, changed and deleted; the refusals of their rules', async () => {
    await call(api, 'GET', under('/fields'), member());
    await call(api, 'POST', under('/fields'), { ...admin(), body: channels });
    await call(api, 'POST', under('/fields'), { ...admin(), body: channels });
    await call(api, 'POST', under('/fields'), { ...admin(), body: { key: 'email', label: 'E-mail', type: 'text' } });
    await call(api, 'POST', under('/fields'), { ...member(), body: { key: 'non', label: 'Non', type: 'text' } });
    await call(api, 'GET', under('/fields'), member());
    await call(api, 'PATCH', under('/fields/canaux'), { ...admin(), body: { options: ['TikTok', 'Instagram', 'X'] } });
    await call(api, 'PATCH', under('/fields/canaux'), { ...admin(), body: { options: ['TikTok'] } });
    await call(api, 'PATCH', under('/fields/canaux'), { ...admin(), body: { type: 'choice' } });
    await call(api, 'PATCH', under('/fields/inconnu'), { ...admin(), body: { label: 'Inconnu' } });
    await call(api, 'PATCH', under('/fields/canaux'), { ...member(), body: { label: 'Non' } });
    // Past 64 KB of definitions: a ninth heavy field, or one grown as heavy.
    for (let index = 0; index < 8; index += 1) {
      const field = heavy(`gros_${index}`);
      await createField(store, { workspaceId: people.seed.workspace_id, actingMemberId: people.admin.memberId, field });
    }
    await call(api, 'POST', under('/fields'), { ...admin(), body: heavy('gros_8') });
    const grown = heavy('canaux');
    const options = grown.options.map((option, index) => ['TikTok', 'Instagram', 'X'][index] ?? option);
    await call(api, 'PATCH', under('/fields/canaux'), { ...admin(), body: { options, aliases: grown.aliases } });
    await call(api, 'DELETE', under('/fields/canaux'), member());
    await call(api, 'DELETE', under('/fields/canaux'), admin());
    await call(api, 'DELETE', under('/fields/canaux'), admin());
  });

  test('no session: 401; another workspace: 404', async () => {
    for (const [method, path, options] of everyCall()) {
      await call(api, method, path, options);
      await call(api, method, path.replace(people.seed.workspace_id, unknownId), { ...options, ...admin() });
    }
  });

  test('past the member’s limit: 429 with Retry-After', async () => {
    const keyId = `MEMBER#${people.admin.memberId}`;
    const count = () => admitRequest(store, { keyId, now: limitedNow, stageChange: false, enforce: true });
    await Promise.all(Array.from({ length: requestLimit }, count));
    for (const [method, path, options] of everyCall()) {
      expect((await call(limitedApi, method, path, { ...options, ...admin() })).status).toBe(429);
    }
  });

  test('when DynamoDB fails: 500', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const [method, path, options] of everyCall()) await call(failingApi, method, path, { ...options, ...admin() });
    jest.restoreAllMocks();
  });
});

describe('the workspace, its tags, API keys and webhook answer as documented', () => {
  let people: PeopleWorkspace;
  beforeAll(async () => {
    // A workspace of their own, without a webhook yet: GET /webhook's 404 comes first.
    people = await workspaceWithPeople(api, { ...aWorkspace(), webhook: undefined });
  });
  const under = (suffix = '') => `/workspaces/${people.seed.workspace_id}${suffix}`;
  const elsewhere = (suffix = '') => `/workspaces/${unknownId}${suffix}`;
  const admin = () => ({ headers: bearer(people.admin) });
  const member = () => ({ headers: bearer(people.member) });

  test('GET /workspaces/{workspace_id} and GET /tags', async () => {
    for (const path of ['', '/tags']) {
      await call(api, 'GET', under(path), member());
      await call(api, 'GET', under(path), {});
      await call(api, 'GET', elsewhere(path), member());
    }
  });

  test('PATCH /workspaces/{workspace_id}: the time zone and the retention set, refused, above the role', async () => {
    await call(api, 'PATCH', under(), { ...admin(), body: { time_zone: 'America/Montreal' } });
    await call(api, 'PATCH', under(), { ...admin(), body: { time_zone: 'Europe/Lyon' } });
    await call(api, 'PATCH', under(), { ...admin(), body: {} });
    await call(api, 'PATCH', under(), { ...admin(), body: { retention_months: 36 } });
    await call(api, 'PATCH', under(), { ...admin(), body: { retention_months: null } });
    await call(api, 'PATCH', under(), { ...admin(), body: { retention_months: 121 } });
    await call(api, 'PATCH', under(), { ...member(), body: { time_zone: 'Asia/Tokyo' } });
    await call(api, 'PATCH', under(), { body: { time_zone: 'Asia/Tokyo' } });
    await call(api, 'PATCH', elsewhere(), { ...admin(), body: { time_zone: 'Asia/Tokyo' } });
  });

  test('POST /tags and PATCH /tags/{tag_id}', async () => {
    const created = await call(api, 'POST', under('/tags'), { ...admin(), body: { name: 'Relance' } });
    const tagId = (created.body as { id: string }).id;
    await call(api, 'POST', under('/tags'), { ...admin(), body: { name: 'relance' } });
    await call(api, 'POST', under('/tags'), { ...admin(), body: { name: '  ' } });
    await call(api, 'POST', under('/tags'), { ...member(), body: { name: 'Non' } });
    await call(api, 'POST', under('/tags'), { body: { name: 'Non' } });
    await call(api, 'POST', elsewhere('/tags'), { ...admin(), body: { name: 'Non' } });
    await call(api, 'PATCH', under(`/tags/${tagId}`), { ...admin(), body: { name: 'Relance été' } });
    await call(api, 'PATCH', under(`/tags/${tagId}`), { ...admin(), body: { name: 'VIP' } });
    await call(api, 'PATCH', under(`/tags/${tagId}`), { ...admin(), body: { name: 'X', color: 'rouge' } });
    await call(api, 'PATCH', under(`/tags/${unknownId}`), { ...admin(), body: { name: 'Inconnue' } });
    await call(api, 'PATCH', under(`/tags/${tagId}`), { ...member(), body: { name: 'Non' } });
    await call(api, 'PATCH', under(`/tags/${tagId}`), { body: { name: 'Non' } });
  });

  test('the API keys: listed, created, their changes, revoked', async () => {
    await call(api, 'GET', under('/api-keys'), member());
    await call(api, 'GET', under('/api-keys'), {});
    await call(api, 'GET', elsewhere('/api-keys'), member());
    const created = await call(api, 'POST', under('/api-keys'), { ...admin(), body: { name: 'Zapier' } });
    const keyId = (created.body as { id: string }).id;
    await call(api, 'POST', under('/api-keys'), { ...admin(), body: { name: 'X', scopes: ['lecture'] } });
    await call(api, 'POST', under('/api-keys'), { ...member(), body: { name: 'Non' } });
    await call(api, 'POST', under('/api-keys'), { body: { name: 'Non' } });
    await call(api, 'POST', elsewhere('/api-keys'), { ...admin(), body: { name: 'Non' } });
    const changes = under(`/api-keys/${keyId}/changes`);
    await call(api, 'GET', changes, { ...member(), query: { limit: '10' } });
    await call(api, 'GET', changes, { ...member(), query: { limit: '0' } });
    await call(api, 'GET', under(`/api-keys/${unknownId}/changes`), member());
    await call(api, 'GET', changes, {});
    await call(api, 'DELETE', under(`/api-keys/${keyId}`), member());
    await call(api, 'DELETE', under(`/api-keys/${keyId}`), admin());
    await call(api, 'DELETE', under(`/api-keys/${unknownId}`), admin());
    await call(api, 'DELETE', under(`/api-keys/${keyId}`), {});
  });

  test('the webhook: none yet, generated, read, disabled', async () => {
    await call(api, 'GET', under('/webhook'), admin());
    await call(api, 'PATCH', under('/webhook'), { ...admin(), body: { active: true } });
    await call(api, 'POST', under('/webhook/token'), admin());
    await call(api, 'POST', under('/webhook/token'), { ...admin(), body: { token: 'le mien' } });
    await call(api, 'POST', under('/webhook/token'), member());
    await call(api, 'POST', under('/webhook/token'), {});
    await call(api, 'POST', elsewhere('/webhook/token'), admin());
    await call(api, 'GET', under('/webhook'), admin());
    await call(api, 'GET', under('/webhook'), member());
    await call(api, 'GET', under('/webhook'), {});
    await call(api, 'PATCH', under('/webhook'), { ...admin(), body: { active: false } });
    await call(api, 'PATCH', under('/webhook'), { ...admin(), body: { active: 'non' } });
    await call(api, 'PATCH', under('/webhook'), { ...member(), body: { active: true } });
    await call(api, 'PATCH', under('/webhook'), { body: { active: true } });
  });

  /** Every route of this block, with what it accepts. */
  const everyCall = (): [string, string, RequestOptions][] => [
    ['GET', under(), {}],
    ['PATCH', under(), { body: { time_zone: 'Asia/Tokyo' } }],
    ['GET', under('/tags'), {}],
    ['POST', under('/tags'), { body: { name: 'Pleine' } }],
    ['PATCH', under(`/tags/${people.seed.tags.vip}`), { body: { name: 'VIP' } }],
    ['GET', under('/api-keys'), {}],
    ['POST', under('/api-keys'), { body: { name: 'Pleine' } }],
    ['DELETE', under(`/api-keys/${unknownId}`), {}],
    ['GET', under(`/api-keys/${unknownId}/changes`), {}],
    ['GET', under('/webhook'), {}],
    ['POST', under('/webhook/token'), {}],
    ['PATCH', under('/webhook'), { body: { active: true } }],
  ];

  test('past the member’s limit: 429 with Retry-After', async () => {
    const count = () =>
      admitRequest(store, {
        keyId: `MEMBER#${people.admin.memberId}`,
        now: limitedNow,
        stageChange: false,
        enforce: true,
      });
    await Promise.all(Array.from({ length: requestLimit }, count));
    for (const [method, path, options] of everyCall()) {
      const answer = await call(limitedApi, method, path, { ...options, ...admin() });
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 429 });
    }
  });

  test('when DynamoDB fails: 500', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const [method, path, options] of everyCall()) await call(failingApi, method, path, { ...options, ...admin() });
    jest.restoreAllMocks();
  });
});

test('every route, when DynamoDB fails: 500 in its own shape', async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const webhookCall = { query: webhookQuery(), headers: token(), body: { email: 'panne@exemple.test', name: 'Panne' } };
  const calls: [string, string, RequestOptions][] = [
    ...prospectApiCalls().map(([method, path, options]): [string, string, RequestOptions] => [
      method,
      path,
      { ...options, headers: key('admin') },
    ]),
    ['POST', '/webhooks/ingest-lead', webhookCall],
    ['POST', '/webhooks/recruitment', webhookCall],
  ];
  for (const [method, path, options] of calls) await call(failingApi, method, path, options);
  jest.restoreAllMocks();
});

test('every answer the document lists was met', () => {
  const documented = Object.values(document.paths).flatMap((operations) =>
    Object.values(operations).flatMap((operation) =>
      Object.keys(operation.responses).map((status) => `${operation.operationId} ${status}`),
    ),
  );
  expect(documented.filter((answer) => !met.has(answer))).toEqual([]);
  expect(new Set(documented.map((answer) => answer.split(' ')[0]))).toEqual(new Set(routes.map((route) => route.id)));
});
