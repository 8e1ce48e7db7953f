import fc from 'fast-check';
import type { SeedOutput } from '../../tools/seed/seed';
import { openApiDocumentText } from '../../tools/openapi/document-file';
import { notBlank } from '../../tools/openapi/document/patterns';
import {
  documentProblems,
  startTestApi,
  type ApiResponse,
  type RequestOptions,
  type TestApi,
} from '../support/local-api';
import { fuzzBody } from '../support/fuzz-inputs';
import { bearer, peoplePassword, workspaceWithPeople, type PeopleWorkspace } from '../support/people';
import { seedTestWorkspace } from '../support/seed';
import { productionDeps } from '../../lib/storage/client';
import { editWorkspaceConfig, partsOf } from '../../lib/storage/config-edits';
import { withNewField } from '../../lib/domain/fields/field-definitions';

/**
 * The OpenAPI document against the service, request side. Every request the end-to-end suite
 * sends and the service accepts is checked against the document by test/support/local-api.ts;
 * here, the other way round: for every rule the document's request schemas and parameters state,
 * a request breaking that rule alone is refused by the document and by the service, in the route's
 * error shape (the lead webhook accepts with a warning what it only ignores: its schema enforces
 * nothing else). Then requests the service accepts and the previous document refused.
 */

type Schema = {
  type?: string | string[];
  anyOf?: Schema[];
  enum?: string[];
  items?: Schema;
  maxItems?: number;
  maxLength?: number;
  maxProperties?: number;
  minProperties?: number;
  pattern?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
};
type Parameter = { name: string; in: string; schema: Schema; example?: unknown };
const document = JSON.parse(openApiDocumentText()) as {
  paths: Record<string, Record<string, { parameters: ({ $ref: string } | Parameter)[] }>>;
  components: { schemas: Record<string, Schema>; parameters: Record<string, Parameter> };
};
const components = document.components.schemas;
const component = (name: string): Schema => {
  const schema = components[name];
  if (schema === undefined) throw new Error(`No component ${name}`);
  return schema;
};

let api: TestApi;
let ws: SeedOutput;
let people: PeopleWorkspace;
let subscriptionId: string;
let offset = 0;

beforeAll(async () => {
  ws = await seedTestWorkspace();
  // Each call a minute later: the many PATCHes carrying `stage` never meet the stage-change limit.
  api = await startTestApi({ clock: () => new Date(Date.now() + (offset += 61_000)) });
  people = await workspaceWithPeople(api);
  // A subscription whose PATCH the document describes; its URL is never called (no lead is written to its workspace).
  const subscription = await api.request('POST', `/workspaces/${people.seed.workspace_id}/subscriptions`, {
    headers: bearer(people.admin),
    body: { url: 'http://127.0.0.1:9/evenements' },
  });
  subscriptionId = (subscription.body as { id: string }).id;
  // Custom fields a PATCH may set and a list may filter on (docs/api.md#custom-fields), in both workspaces.
  const store = productionDeps();
  for (const workspaceId of [ws.workspace_id, people.seed.workspace_id]) {
    await editWorkspaceConfig(store, workspaceId, (config) => {
      const withBudget = withNewField(config, { key: 'budget', label: 'Budget', type: 'number' });
      const fields = withNewField(
        { fields: withBudget },
        { key: 'interests', label: 'Intérêts', type: 'multi_choice', options: ['Vente', 'Coaching'] },
      );
      return { ...partsOf(config), fields };
    });
  }
  store.db.destroy();
});
afterAll(() => api.close());

type Call = { method: string; path: string; options: RequestOptions };
type Shape = 'standard' | 'lead';
type Refusal = { status: number; code: string; field?: string };

type Operation = {
  method: string;
  path: () => string;
  credential: () => { headers: Record<string, string>; query: Record<string, string> };
  shape: Shape;
};

const apiKey = () => ({ headers: { Authorization: `Bearer ${ws.api_keys.admin?.secret}` }, query: {} });
const webhookToken = () => ({
  query: { endpoint_id: ws.webhook?.endpoint_id as string },
  headers: { Authorization: `Bearer ${ws.webhook?.token}` },
});
const memberToken = () => ({ headers: bearer(people.member), query: {} });
const adminToken = () => ({ headers: bearer(people.admin), query: {} });
const settings = (suffix: string) => () => `/workspaces/${people.seed.workspace_id}${suffix}`;
/** The sign-in routes: no credential, the request carries its own proof. */
const noCredential = () => ({ headers: {}, query: {} });
const prospect = () => `/prospects/${ws.prospects.lead}`;

const operations = {
  listPipelines: { method: 'GET', path: () => '/pipelines', credential: apiKey, shape: 'standard' },
  listAssignableMembers: { method: 'GET', path: () => '/members', credential: apiKey, shape: 'standard' },
  updateProspect: { method: 'PATCH', path: prospect, credential: apiKey, shape: 'standard' },
  addNote: { method: 'POST', path: () => `${prospect()}/notes`, credential: apiKey, shape: 'standard' },
  addTag: { method: 'POST', path: () => `${prospect()}/tags`, credential: apiKey, shape: 'standard' },
  removeTag: { method: 'DELETE', path: () => `${prospect()}/tags/VIP`, credential: apiKey, shape: 'standard' },
  ingestLead: { method: 'POST', path: () => '/webhooks/ingest-lead', credential: webhookToken, shape: 'lead' },
  recruitment: { method: 'POST', path: () => '/webhooks/recruitment', credential: webhookToken, shape: 'standard' },
  signIn: { method: 'POST', path: () => '/session', credential: noCredential, shape: 'standard' },
  refreshSession: { method: 'POST', path: () => '/session/refresh', credential: noCredential, shape: 'standard' },
  changePassword: { method: 'POST', path: () => '/session/password', credential: memberToken, shape: 'standard' },
  startPasswordReset: { method: 'POST', path: () => '/password-reset', credential: noCredential, shape: 'standard' },
  confirmPasswordReset: {
    method: 'POST',
    path: () => '/password-reset/confirm',
    credential: noCredential,
    shape: 'standard',
  },
  createTag: { method: 'POST', path: settings('/tags'), credential: adminToken, shape: 'standard' },
  renameTag: {
    method: 'PATCH',
    path: () => settings(`/tags/${people.seed.tags.vip}`)(),
    credential: adminToken,
    shape: 'standard',
  },
  createField: { method: 'POST', path: settings('/fields'), credential: adminToken, shape: 'standard' },
  changeField: { method: 'PATCH', path: settings('/fields/canaux'), credential: adminToken, shape: 'standard' },
  changeWorkspace: { method: 'PATCH', path: settings(''), credential: adminToken, shape: 'standard' },
  createApiKey: { method: 'POST', path: settings('/api-keys'), credential: adminToken, shape: 'standard' },
  setWebhookActive: { method: 'PATCH', path: settings('/webhook'), credential: adminToken, shape: 'standard' },
  updateSubscription: {
    method: 'PATCH',
    path: () => settings(`/subscriptions/${subscriptionId}`)(),
    credential: adminToken,
    shape: 'standard',
  },
  findProspects: { method: 'GET', path: () => '/prospects', credential: apiKey, shape: 'standard' },
  findWorkspaceProspects: { method: 'GET', path: settings('/prospects'), credential: memberToken, shape: 'standard' },
} as const satisfies Record<string, Operation>;
type OperationId = keyof typeof operations;

/** A call to the operation with its credential, and `extra` options merged in. */
function call(id: OperationId, extra: RequestOptions = {}): Call {
  const operation = operations[id];
  const credential = operation.credential();
  return {
    method: operation.method,
    path: operation.path(),
    options: {
      ...extra,
      headers: { ...credential.headers, ...extra.headers },
      query: { ...credential.query, ...extra.query },
    },
  };
}

const badBody = (field?: string): Refusal => ({ status: 400, code: 'bad_request', field });
const badLead: Refusal = { status: 400, code: 'invalid_payload' };

/** Bodies each accepted by the service, broken one rule at a time below. */
const validBodies = {
  updateProspect: { stage: 'Relance', setter_id: null, closer_id: null, follow_up_at: '2026-12-01T09:30:00+01:00' },
  addNote: { content: 'Rappelé, intéressé.', date: '2026-01-05' },
  addTag: { tag: 'VIP' },
  recruitment: { email: 'camille.dupont@exemple.test', name: 'Camille Dupont', answers: { 'Disponible ?': 'Oui' } },
  signIn: { email: 'alice@acme.test', password: peoplePassword, new_password: 'Nouveau-Passw0rd!' },
  refreshSession: { refresh_token: 'eyJjdHkiOiJKV1Qi' },
  changePassword: { password: peoplePassword, new_password: 'Nouveau-Passw0rd!' },
  startPasswordReset: { email: 'alice@acme.test' },
  confirmPasswordReset: { email: 'alice@acme.test', code: '123456', new_password: 'Nouveau-Passw0rd!' },
  createTag: { name: 'Relance' },
  renameTag: { name: 'VIP' },
  createField: {
    key: 'canaux',
    label: 'Canaux',
    type: 'multi_choice',
    options: ['Instagram', 'TikTok'],
    aliases: ['Sur quels réseaux êtes-vous ?'],
    update: 'if_empty',
  },
  changeField: { label: 'Réseaux', options: ['Instagram', 'TikTok'], aliases: ['Réseaux'], update: 'always' },
  changeWorkspace: { time_zone: 'America/Montreal' },
  createApiKey: { name: 'Zapier', scopes: ['*'] },
  setWebhookActive: { active: true },
  updateSubscription: { active: true, events: ['prospect.created', 'prospect.follow_up_due'] },
};
const bodyComponents = {
  updateProspect: 'ProspectChange',
  addNote: 'NewNote',
  addTag: 'TagReference',
  recruitment: 'Application',
  signIn: 'SignIn',
  refreshSession: 'SessionRefresh',
  changePassword: 'PasswordChange',
  startPasswordReset: 'PasswordReset',
  confirmPasswordReset: 'PasswordResetConfirmation',
  createTag: 'TagName',
  renameTag: 'TagName',
  createField: 'NewField',
  changeField: 'FieldChange',
  changeWorkspace: 'WorkspaceChange',
  createApiKey: 'NewApiKey',
  setWebhookActive: 'WebhookActivation',
  updateSubscription: 'SubscriptionChange',
} as const;

const typesOf = (schema: Schema): string[] =>
  [schema, ...(schema.anyOf ?? [])].flatMap((branch) => (branch.type === undefined ? [] : [branch.type].flat()));
const maxLengthOf = (schema: Schema): number | undefined =>
  [schema, ...(schema.anyOf ?? [])].find((branch) => branch.maxLength !== undefined)?.maxLength;
const without = (body: Record<string, unknown>, name: string) =>
  Object.fromEntries(Object.entries(body).filter(([key]) => key !== name));
const answers = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`Question ${i}`, 'Oui']));

/** For each rule the schema states on a property or on the object, a body breaking that rule only. */
function bodiesBreaking(
  schema: Schema,
  valid: Record<string, unknown>,
): [rule: string, body: unknown, field: string][] {
  const withValue = (name: string, value: unknown) => ({ ...valid, [name]: value });
  const bodies: [string, unknown, string][] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const types = typesOf(property);
    if (types.length > 0) {
      bodies.push([
        `${name} not ${types.join(' or ')}`,
        withValue(name, types.includes('string') ? 42 : 'texte'),
        name,
      ]);
    }
    const maxLength = maxLengthOf(property);
    if (maxLength !== undefined) {
      bodies.push([`${name} over ${maxLength} characters`, withValue(name, 'x'.repeat(maxLength + 1)), name]);
    }
    if (property.pattern === notBlank) bodies.push([`${name} blank`, withValue(name, ' \t\n'), name]);
    if (property.maxProperties !== undefined) {
      const count = property.maxProperties + 1;
      bodies.push([`${name} with ${count} properties`, withValue(name, answers(count)), name]);
    }
  }
  for (const name of schema.required ?? []) {
    bodies.push([`${name} missing`, without(valid, name), name]);
  }
  if (schema.additionalProperties === false) bodies.push(['an unknown field', { ...valid, inconnu: 1 }, 'inconnu']);
  if (schema.minProperties !== undefined) bodies.push(['no field', {}, 'body']);
  return bodies;
}

type RefusedCase = { title: string; call: () => Call; refusal: Refusal };

/** The query parameters the document gives the GET operation of a path template. */
function queryParameters(template: string): Parameter[] {
  const operation = document.paths[template]?.get;
  if (operation === undefined) throw new Error(`No GET ${template}`);
  return operation.parameters
    .map((entry) => ('$ref' in entry ? document.components.parameters[entry.$ref.split('/').at(-1) as string] : entry))
    .filter((parameter): parameter is Parameter => parameter?.in === 'query');
}

/**
 * For each rule the schema states on a query parameter (of its values, for a list), a value breaking that rule only:
 * out of the enum, refused by the pattern (a blank or a word), over the length, more values than the list takes.
 */
function queriesBreaking({ schema, example }: Parameter): [rule: string, value: string | string[]][] {
  const item = schema.type === 'array' ? (schema.items ?? {}) : schema;
  const queries: [string, string | string[]][] = [];
  if (item.enum !== undefined) queries.push(['out of its enum', 'inconnu']);
  const { pattern } = item;
  const refused = pattern === undefined ? undefined : [' ', 'x'].find((value) => !new RegExp(pattern, 'u').test(value));
  if (refused !== undefined) queries.push([`${JSON.stringify(refused)}, which its pattern refuses`, refused]);
  if (item.maxLength !== undefined) queries.push([`over ${item.maxLength} characters`, 'x'.repeat(item.maxLength + 1)]);
  if (schema.maxItems !== undefined) {
    const value = (example as string[] | undefined)?.[0] ?? 'x';
    queries.push([`given ${schema.maxItems + 1} times`, Array.from({ length: schema.maxItems + 1 }, () => value)]);
  }
  return queries;
}

/** Both uses of GET /prospects, the look-up's contact and the list's parameters, on the Prospect API and a member's. */
const prospectQueries: RefusedCase[] = (
  [
    ['findProspects', '/prospects'],
    ['findWorkspaceProspects', '/workspaces/{workspace_id}/prospects'],
  ] as const
).flatMap(([id, template]) =>
  queryParameters(template).flatMap((parameter) =>
    queriesBreaking(parameter).map(([rule, value]) => ({
      title: `${id}: ${parameter.name} ${rule}`,
      call: () => call(id, { query: { [parameter.name]: value } }),
      refusal: badBody(parameter.name),
    })),
  ),
);

const generated: RefusedCase[] = (Object.keys(bodyComponents) as (keyof typeof bodyComponents)[]).flatMap((id) =>
  bodiesBreaking(component(bodyComponents[id]), validBodies[id]).map(([rule, body, field]) => ({
    title: `${id}: ${rule}`,
    call: () => call(id, { body }),
    refusal: badBody(field),
  })),
);

/** The lead schema enforces one rule: a usable contact. Each contact field, unusable and alone. */
const leadContacts = component('Lead').anyOf ?? [];
const unusableLeads: RefusedCase[] = leadContacts.flatMap((branch) => {
  const name = branch.required?.[0] as string;
  const schema = branch.properties?.[name] as Schema;
  const values: [string, unknown][] = [
    ['not a string', 42],
    ['null', null],
    ['empty', ''],
    ['blank', '  \t'],
    [`over ${schema.maxLength} characters`, 'x'.repeat((schema.maxLength ?? 0) + 1)],
    ...(name === 'email' ? ([['not an address', 'nina.roux@exemple']] as [string, unknown][]) : []),
  ];
  return values.map(([what, value]) => ({
    title: `ingestLead: ${name} ${what} and no other contact`,
    call: () => call('ingestLead', { body: { first_name: 'Nina', [name]: value } }),
    refusal: badLead,
  }));
});

const recruitment = (fields: Record<string, unknown>) => () =>
  call('recruitment', { body: { ...validBodies.recruitment, ...fields } });
const patch = (fields: Record<string, unknown>) => () => call('updateProspect', { body: fields });
const writes: OperationId[] = ['updateProspect', 'addNote', 'addTag', 'removeTag', 'ingestLead', 'recruitment'];
const bodyOf = (id: OperationId) =>
  id === 'ingestLead' ? { email: 'nina.roux@exemple.test' } : (validBodies as Record<string, unknown>)[id];

const specific: RefusedCase[] = [
  ...[
    '2026-12-01T09:30:00',
    '2026-02-30T10:00:00Z',
    '2027-02-29T10:00:00Z',
    '2026-12-01T24:00:00Z',
    '2026-12-31T23:59:60Z',
    '2026-12-01',
    'demain à 9 h',
  ].map((value) => ({
    title: `updateProspect: follow_up_at ${value}`,
    call: patch({ follow_up_at: value }),
    refusal: badBody('follow_up_at'),
  })),
  { title: 'updateProspect: a list as body', call: patch([] as never), refusal: badBody() },
  ...[{ montant: 1 }, [1, 2]].map((value) => ({
    title: `updateProspect: a custom field's value ${JSON.stringify(value)}`,
    call: patch({ fields: { budget: value } }),
    refusal: badBody('fields'),
  })),
  {
    title: 'updateProspect: a form',
    call: () =>
      call('updateProspect', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'stage=Relance',
      }),
    refusal: badBody(),
  },
  {
    title: 'addNote: content empty',
    call: () => call('addNote', { body: { content: '' } }),
    refusal: badBody('content'),
  },
  {
    title: 'addNote: content of 10 001 code points (emoji)',
    call: () => call('addNote', { body: { content: '😀'.repeat(10_001) } }),
    refusal: badBody('content'),
  },
  ...['pas-une-adresse', 'nina@exemple', '"nina roux"@exemple.fr', 'nina@[192.0.2.1]'].map((email) => ({
    title: `recruitment: email ${email}`,
    call: recruitment({ email }),
    refusal: badBody('email'),
  })),
  ...['pas-un-uuid', 'urn:uuid:6f1c2f7e-2f0c-4f7e-8f0c-2f7e2f0c4f7e'].map((id) => ({
    title: `recruitment: pipeline_id ${id}`,
    call: recruitment({ pipeline_id: id }),
    refusal: badBody('pipeline_id'),
  })),
  {
    title: 'recruitment: neither name nor first_name',
    call: () => call('recruitment', { body: without(validBodies.recruitment, 'name') }),
    refusal: badBody('name'),
  },
  { title: 'recruitment: name blank', call: recruitment({ name: '   ' }), refusal: badBody('name') },
  {
    title: 'recruitment: first_name empty and no name',
    call: () => call('recruitment', { body: { ...without(validBodies.recruitment, 'name'), first_name: '' } }),
    refusal: badBody('name'),
  },
  {
    title: 'recruitment: a nested answer',
    call: recruitment({ answers: { Q: { a: 1 } } }),
    refusal: badBody('answers'),
  },
  { title: 'recruitment: answers a list', call: recruitment({ answers: ['Oui'] }), refusal: badBody('answers') },
  { title: 'recruitment: answers null', call: recruitment({ answers: null }), refusal: badBody('answers') },
  {
    title: 'recruitment: a nested data.fields payload',
    call: recruitment({ data: { fields: [{ label: 'Q', value: 'R' }] } }),
    refusal: badBody('answers'),
  },
  {
    title: 'recruitment: a nested form_response.answers payload',
    call: recruitment({ form_response: { answers: [] } }),
    refusal: badBody('answers'),
  },
  {
    title: 'recruitment: text that is no JSON',
    call: () => call('recruitment', { headers: { 'Content-Type': 'text/plain' }, body: 'email: camille' }),
    refusal: badBody(),
  },
  { title: 'ingestLead: no field', call: () => call('ingestLead', { body: {} }), refusal: badLead },
  {
    title: 'ingestLead: a list as body',
    call: () => call('ingestLead', { body: [{ email: 'a@b.fr' }] }),
    refusal: badLead,
  },
  {
    title: 'ingestLead: text that is no JSON',
    call: () => call('ingestLead', { headers: { 'Content-Type': 'text/plain' }, body: 'email=nina' }),
    refusal: badLead,
  },
  ...[
    ['a reserved key', { key: 'email' }, 'key'],
    ['a key in capitals', { key: 'Canaux' }, 'key'],
    ['options for a text', { type: 'text' }, 'options'],
    ['no options for a choice', { type: 'choice', options: undefined }, 'options'],
    ['an option with a comma', { options: ['Instagram, TikTok'] }, 'options'],
  ].map(([what, change, field]) => ({
    title: `createField: ${what as string}`,
    call: () => call('createField', { body: { ...validBodies.createField, ...(change as object) } }),
    refusal: badBody(field as string),
  })),
  ...['+02:00', 'Europe Paris', 'Europe/'].map((zone) => ({
    title: `changeWorkspace: time_zone ${JSON.stringify(zone)}, no IANA name`,
    call: () => call('changeWorkspace', { body: { time_zone: zone } }),
    refusal: badBody('time_zone'),
  })),
  ...[0, 121, 1.5, '12'].map((months) => ({
    title: `changeWorkspace: retention_months ${JSON.stringify(months)}, no whole number of months from 1 to 120`,
    call: () => call('changeWorkspace', { body: { retention_months: months } }),
    refusal: badBody('retention_months'),
  })),
  ...[
    ['no event type', []],
    ['an unknown event type', ['prospect.created', 'prospect.deleted']],
    ['two types in one, with a comma', ['prospect.created,prospect.updated']],
  ].map(([what, events]) => ({
    title: `updateSubscription: ${what as string}`,
    call: () => call('updateSubscription', { body: { events } }),
    refusal: badBody('events'),
  })),
  ...(['key', 'type'] as const).map((name) => ({
    title: `changeField: ${name} sent`,
    call: () => call('changeField', { body: { label: 'Réseaux', [name]: 'text' } }),
    refusal: badBody(name),
  })),
  ...(['ingestLead', 'recruitment'] as const).flatMap((id) => [
    {
      title: `${id}: endpoint_id not a UUID`,
      call: () => call(id, { body: bodyOf(id), query: { endpoint_id: 'pas-un-uuid' } }),
      refusal: id === 'ingestLead' ? { status: 400, code: 'invalid_endpoint_id' } : badBody(),
    },
    {
      title: `${id}: endpoint_id absent`,
      call: () => ({
        method: 'POST',
        path: operations[id].path(),
        options: { headers: webhookToken().headers, body: bodyOf(id) },
      }),
      refusal: id === 'ingestLead' ? { status: 404, code: 'not_found' } : badBody(),
    },
  ]),
  ...writes.map((id) => ({
    title: `${id}: Idempotency-Key of 256 characters`,
    call: () => call(id, { headers: { 'Idempotency-Key': 'k'.repeat(256) }, body: bodyOf(id) }),
    refusal: id === 'ingestLead' ? badLead : badBody('Idempotency-Key'),
  })),
  ...(Object.keys(operations) as OperationId[])
    .filter((id) => operations[id].credential !== noCredential)
    .map((id) => ({
      title: `${id}: no credential`,
      call: () => ({
        method: operations[id].method,
        path: operations[id].path(),
        options: { query: operations[id].credential().query, body: bodyOf(id) },
      }),
      refusal: { status: 401, code: 'unauthorized' },
    })),
];

function expectRefused(response: ApiResponse, shape: Shape, { status, code, field }: Refusal) {
  const error =
    shape === 'lead'
      ? { error: code, message: expect.any(String) }
      : {
          error: {
            code,
            message: expect.any(String),
            ...(field === undefined ? {} : { details: { field, message: expect.any(String) } }),
          },
        };
  expect({ status: response.status, body: response.body }).toEqual({ status, body: error });
}

const shapeOf = (call: Call): Shape => (call.path === '/webhooks/ingest-lead' ? 'lead' : 'standard');

describe('a request the document refuses is refused by the service', () => {
  test.each(
    [...generated, ...unusableLeads, ...prospectQueries, ...specific].map((entry) => [entry.title, entry] as const),
  )('%s', async (_title, { call: make, refusal }) => {
    const { method, path, options } = make();
    expect(documentProblems(method, path, options)).not.toEqual([]);
    expectRefused(await api.request(method, path, options), shapeOf({ method, path, options }), refusal);
  });
});

type AcceptedCase = { title: string; call: () => Call; check?: (response: ApiResponse) => void };

const warningsOf = (response: ApiResponse) => (response.body as { warnings: string[] }).warnings;
const warnsAbout = (field: string) => (response: ApiResponse) =>
  expect(warningsOf(response)).toEqual(expect.arrayContaining([expect.stringContaining(`« ${field} »`)]));

/** Every lead field holding what is not read, next to a usable contact: accepted, and named in `warnings`. */
const tolerated: AcceptedCase[] = Object.entries(component('Lead').properties ?? {}).flatMap(([name, property]) => {
  const contact = name === 'email' ? { phone: '+33600000042' } : { email: 'tolere@exemple.test' };
  const maxLength = maxLengthOf({ anyOf: property.anyOf?.slice(0, -1) });
  const values: [string, unknown][] = [
    ['not a string', 42],
    ...(maxLength === undefined
      ? []
      : ([[`over ${maxLength} characters`, 'x'.repeat(maxLength + 1)]] as [string, unknown][])),
    ...(name === 'email' ? ([['not an address', 'nina.roux@exemple']] as [string, unknown][]) : []),
  ];
  return values.map(([what, value]) => ({
    title: `ingestLead: ${name} ${what}, next to a contact: warning`,
    call: () => call('ingestLead', { body: { ...contact, [name]: value } }),
    check: warnsAbout(name),
  }));
});

const form = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** A list query giving each of the list's parameters but the cursor, in the workspace of the operation. */
function everyFilter(id: 'findProspects' | 'findWorkspaceProspects'): Record<string, string | string[]> {
  const seed = id === 'findProspects' ? ws : people.seed;
  const member = seed.members.alice as string;
  return {
    id: [seed.prospects.lead as string, (seed.prospects.lead as string).toUpperCase()],
    pipeline: ['Ventes', 'partenaires'],
    stage: ['Nouveau', 'Relance'],
    setter_id: ['none', member],
    closer_id: 'none',
    member_id: member,
    tag: ['VIP', 'chaud'],
    follow_up: ['due', 'none'],
    follow_up_from: '2026-01-01',
    follow_up_to: '2100-01-01T00:00:00+01:00',
    created_from: '2026-01-01T00:00:00Z',
    created_to: '2100-01-01',
    updated_from: '2026-01-01',
    updated_to: '2100-01-01T00:00:00.000z',
    sort: 'next_follow_up_at',
    limit: '5',
  };
}

const accepted: AcceptedCase[] = [
  ...tolerated,
  {
    title: 'ingestLead: an unknown field: warning',
    call: () => call('ingestLead', { body: { email: 'tolere@exemple.test', entreprise: 'Acme' } }),
    check: warnsAbout('entreprise'),
  },
  {
    title: 'ingestLead: email empty, next to a phone',
    call: () => call('ingestLead', { body: { email: '', phone: '+33600000043', first_name: 'Nina' } }),
    check: (response) => expect(warningsOf(response)).toEqual([]),
  },
  {
    title: 'ingestLead: an internationalized address',
    call: () => call('ingestLead', { body: { email: 'hélène@exemple.fr' } }),
  },
  {
    title: 'ingestLead: JSON sent as text/plain',
    call: () =>
      call('ingestLead', {
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ email: 'texte@exemple.test' }),
      }),
  },
  {
    title: 'ingestLead: JSON under another Content-Type',
    call: () =>
      call('ingestLead', {
        headers: { 'Content-Type': 'application/octet-stream' },
        body: JSON.stringify({ email: 'octets@exemple.test' }),
      }),
  },
  {
    title: 'ingestLead: JSON with an empty Content-Type',
    call: () =>
      call('ingestLead', { headers: { 'Content-Type': '' }, body: JSON.stringify({ email: 'vide@exemple.test' }) }),
  },
  {
    title: 'ingestLead: a form, tag_ids repeated and comma-separated',
    call: () =>
      call('ingestLead', {
        headers: form,
        body: `email=formulaire%40exemple.test&first_name=&tag_ids=${ws.tags.vip},${ws.tags.hot}&tag_ids=${ws.tags.vip}`,
      }),
    check: (response) =>
      expect((response.body as { tags_applied: { id: string }[] }).tags_applied.map((tag) => tag.id).sort()).toEqual(
        [ws.tags.vip, ws.tags.hot].sort(),
      ),
  },
  { title: 'recruitment: an internationalized address', call: recruitment({ email: 'josé.garcía@correo.es' }) },
  { title: 'recruitment: an address with white space around', call: recruitment({ email: ' camille@exemple.test\n' }) },
  {
    title: 'recruitment: empty optional fields',
    call: recruitment({ phone: '', position: ' ', pipeline_id: '', pipeline: '', source: '', first_name: '' }),
  },
  {
    title: 'recruitment: first_name instead of name',
    call: () => call('recruitment', { body: { ...without(validBodies.recruitment, 'name'), first_name: 'Camille' } }),
  },
  {
    title: 'recruitment: 200 answers, numbers and booleans',
    call: recruitment({ answers: { ...answers(198), n: 5, b: true } }),
  },
  {
    title: 'recruitment: JSON sent as text/plain',
    call: () =>
      call('recruitment', { headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(validBodies.recruitment) }),
  },
  {
    title: 'recruitment: a form with answers[Question]',
    call: () =>
      call('recruitment', {
        headers: form,
        body: 'email=camille%40exemple.test&name=Camille+Dupont&phone=&answers[Disponible ?]=Oui&answers[Années]=5',
      }),
  },
  {
    title: 'updateProspect: follow_up_at with a ±hhmm offset',
    call: patch({ follow_up_at: '2026-12-01T09:30:00+0100' }),
  },
  { title: 'updateProspect: stage with white space around', call: patch({ stage: ' Relance ' }) },
  {
    title: 'updateProspect: custom fields set and cleared, beside another field',
    call: patch({ setter_id: null, fields: { budget: '1 500,50', interests: ['coaching', 'Vente'] } }),
    check: (response: ApiResponse) =>
      expect(response.body).toMatchObject({ fields: { budget: 1500.5, interests: ['Vente', 'Coaching'] } }),
  },
  { title: 'updateProspect: a custom field cleared alone', call: patch({ fields: { budget: null } }) },
  {
    title: 'updateProspect: JSON sent as text/plain',
    call: () => call('updateProspect', { headers: { 'Content-Type': 'text/plain' }, body: '{"follow_up_at":null}' }),
  },
  {
    title: 'addNote: 10 000 code points (emoji)',
    call: () => call('addNote', { body: { content: '😀'.repeat(10_000) } }),
  },
  ...['pas une date', 42, '2026-02-30T10:00:00Z'].map((date) => ({
    title: `addNote: date ${JSON.stringify(date)}: reception date, warning`,
    call: () => call('addNote', { body: { content: 'Note', date } }),
    check: (response: ApiResponse) => expect(warningsOf(response)).toHaveLength(1),
  })),
  {
    title: 'addNote: Idempotency-Key of 255 characters',
    call: () =>
      call('addNote', { headers: { 'Idempotency-Key': `${Date.now()}`.padEnd(255, 'k') }, body: { content: 'Note' } }),
  },
  {
    title: 'addNote: Idempotency-Key empty, as if absent',
    call: () => call('addNote', { headers: { 'Idempotency-Key': '' }, body: { content: 'Note' } }),
  },
  { title: 'addTag: tag with white space around', call: () => call('addTag', { body: { tag: ' VIP ' } }) },
  {
    title: 'signIn: the address in capitals',
    call: () => call('signIn', { body: { email: people.admin.email.toUpperCase(), password: peoplePassword } }),
  },
  {
    title: 'refreshSession: a session’s refresh token',
    call: () => call('refreshSession', { body: { refresh_token: people.admin.refreshToken } }),
  },
  {
    title: 'findProspects: the look-up, an address in capitals with white space around',
    call: () => call('findProspects', { query: { email: ' LEA.PETIT@acme.test ' } }),
  },
  ...(['findProspects', 'findWorkspaceProspects'] as const).flatMap((id) => [
    {
      title: `${id}: the list, every filter given (repeated ones twice), an order and a page size`,
      call: () => call(id, { query: everyFilter(id) }),
    },
    {
      title: `${id}: the list by a custom field's value (fields.budget, no parameter of the document)`,
      call: () => call(id, { query: { 'fields.budget': '1 500,50', 'fields.interests': ['coaching', 'Vente'] } }),
    },
  ]),
  {
    title: 'startPasswordReset: an unknown address, JSON sent as text/plain',
    call: () =>
      call('startPasswordReset', {
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ email: 'personne@acme.test' }),
      }),
  },
];

describe('a request the service accepts validates against the document', () => {
  test.each(accepted.map((entry) => [entry.title, entry] as const))('%s', async (_title, { call: make, check }) => {
    const { method, path, options } = make();
    expect(documentProblems(method, path, options)).toEqual([]);
    const response = await api.request(method, path, options);
    expect(response.status >= 200 && response.status < 300 ? 'accepted' : response.text).toBe('accepted');
    check?.(response);
  });
});

describe('a page of the list and the next one, by its cursor, validate against the document', () => {
  test.each(['findProspects', 'findWorkspaceProspects'] as const)('%s', async (id) => {
    const page = async (query: Record<string, string>) => {
      const { method, path, options } = call(id, { query: { sort: 'created_at', limit: '1', ...query } });
      expect(documentProblems(method, path, options)).toEqual([]);
      const response = await api.request(method, path, options);
      expect(response.status).toBe(200);
      return response.body as { next_cursor: string | null };
    };
    const { next_cursor: cursor } = await page({});
    expect(cursor).not.toBeNull();
    await page({ cursor: cursor as string });
  });
});

/**
 * The fuzz tests' hostile bodies: whichever the service accepts, local-api.ts checks against the
 * document. Not on the API's PATCH and tags: hostile values in their few fields are refused or
 * name nothing of the workspace, so hardly any is accepted.
 */
describe('a fuzzed body the service accepts validates against the document', () => {
  const bodies = { addNote: 'NewNote', recruitment: 'Application', ingestLead: 'Lead' };
  const valid = { ...validBodies, ingestLead: { email: 'fuzz@exemple.test', first_name: 'Léa' } };
  test.each(Object.keys(bodies) as (keyof typeof bodies)[])('%s', async (id) => {
    const fields = Object.keys(component(bodies[id]).properties ?? {});
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fuzzBody(fields, valid[id]), async ({ body, contentType }) => {
        if (typeof body !== 'string') return;
        const { method, path, options } = call(id, {
          headers: contentType === undefined ? {} : { 'Content-Type': contentType },
          body,
        });
        if ((await api.request(method, path, options)).status < 300) accepted += 1;
      }),
      { numRuns: 100, seed: 20_261_122 },
    );
    expect(accepted).toBeGreaterThan(0);
  });
});
