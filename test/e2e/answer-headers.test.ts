import { randomUUID } from 'node:crypto';
import { noStoreHeaders, routes, type Route } from '../../lib/routes';
import { plantFailedDelivery } from '../support/deliveries';
import { startTestApi, type ApiResponse, type RequestOptions, type TestApi } from '../support/local-api';
import { bearer, peoplePassword, signIn, workspaceWithPeople, type PeopleWorkspace } from '../support/people';

/**
 * Every answer of every route, a success and a refusal, carries `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff` (`noStoreHeaders`, lib/routes.ts): keys, tokens and secrets travel in them. Each route
 * is called through the local server twice: as it accepts (asserted 2xx), then with its credential left out (the
 * sign-in routes, which have none: with a body that is not JSON), which its handler refuses. API Gateway's own
 * answers: test/unit/gateway-responses.test.ts and test/infra/stack.test.ts.
 */

type Call = { method: string; path: string } & RequestOptions;

let api: TestApi;
let people: PeopleWorkspace;
/** The webhook's token: the settings route that makes a new one changes it for the webhooks' calls after it. */
let webhookToken: string;

beforeAll(async () => {
  // The redeliver route queues on the delivery queue; the delivery function is not what this file watches.
  api = await startTestApi({}, {}, { queue: { send: async () => undefined } });
  people = await workspaceWithPeople(api);
  webhookToken = people.seed.webhook?.token as string;
});

afterAll(async () => {
  await api.close();
});

const apiKey = () => ({ Authorization: `Bearer ${people.seed.api_keys.admin?.secret}` });
const admin = () => bearer(people.admin);
const workspace = () => `/workspaces/${people.seed.workspace_id}`;
const prospect = () => `/prospects/${people.seed.prospects.lead}`;
const webhookQuery = () => ({ endpoint_id: people.seed.webhook?.endpoint_id as string });

/** A call made to prepare another: it must succeed. */
async function prepared(call: Call): Promise<ApiResponse> {
  const response = await api.request(call.method, call.path, call);
  if (response.status >= 300) throw new Error(`${call.method} ${call.path} answered ${response.status}`);
  return response;
}

const created = async (call: Call): Promise<string> => ((await prepared(call)).body as { id: string }).id;

const aSubscription = () =>
  created({
    method: 'POST',
    path: `${workspace()}/subscriptions`,
    headers: admin(),
    body: { url: 'http://127.0.0.1:9/evenements' },
  });

const aMember = () =>
  created({
    method: 'POST',
    path: `${workspace()}/members`,
    headers: admin(),
    body: { email: `invite-${randomUUID()}@acme.test`, name: 'Diane', role: 'member' },
  });

/** A custom field of its own: its key. */
async function aField(): Promise<string> {
  const key = `champ_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await prepared({
    method: 'POST',
    path: `${workspace()}/fields`,
    headers: admin(),
    body: { key, label: 'Champ', type: 'text' },
  });
  return key;
}

/** A lead refused for its content: a failed call of the journal, its body kept. Its id. */
async function aFailedWebhookCall(): Promise<string> {
  await api.request('POST', '/webhooks/ingest-lead', {
    query: webhookQuery(),
    headers: { Authorization: `Bearer ${webhookToken}` },
    body: { first_name: 'Sans contact' },
  });
  const listed = await prepared({
    method: 'GET',
    path: `${workspace()}/webhook/calls`,
    headers: admin(),
    query: { failed: 'true' },
  });
  return (listed.body as { calls: { id: string }[] }).calls[0]?.id as string;
}

/** A new record from a webhook, to erase: a prospect's id (ingest-lead) or a candidate's (recruitment). */
async function aRecord(route: 'ingest-lead' | 'recruitment'): Promise<string> {
  const answer = await api.request('POST', `/webhooks/${route}`, {
    query: webhookQuery(),
    headers: { Authorization: `Bearer ${webhookToken}` },
    body: { email: `${randomUUID()}@acme.test`, name: 'À Effacer' },
  });
  const body = answer.body as { prospect_id?: string; talent_id?: string };
  return (body.prospect_id ?? body.talent_id) as string;
}

/** A change of the API key's on a prospect (the social one, at « Relance »): the id of its change-log entry. */
async function aChange(): Promise<string> {
  const other = `/prospects/${people.seed.prospects.social}`;
  await prepared({ method: 'PATCH', path: other, headers: apiKey(), body: { stage: 'Nouveau' } });
  const changes = await prepared({ method: 'GET', path: `${other}/changes`, headers: apiKey() });
  return (changes.body as { changes: { id: string }[] }).changes[0]?.id as string;
}

/** A new session of the member person, who signs out and resets their password here (the admin's stays open). */
const memberSession = () => signIn(api, people.member.email, memberPassword);
let memberPassword = peoplePassword;

/** Per route: a call it accepts. */
async function acceptedCall(route: Route): Promise<Call> {
  const base = workspace();
  switch (route.id) {
    case 'listPipelines':
      return { method: 'GET', path: '/pipelines', headers: apiKey() };
    case 'listAssignableMembers':
      return { method: 'GET', path: '/members', headers: apiKey() };
    case 'listCustomFields':
      return { method: 'GET', path: '/fields', headers: apiKey() };
    case 'getProspect':
      return { method: 'GET', path: prospect(), headers: apiKey() };
    case 'findProspects':
      return { method: 'GET', path: '/prospects', headers: apiKey(), query: { email: 'lea.petit@acme.test' } };
    case 'listNotes':
      return { method: 'GET', path: `${prospect()}/notes`, headers: apiKey() };
    case 'listChanges':
      return { method: 'GET', path: `${prospect()}/changes`, headers: apiKey() };
    case 'updateProspect':
      return { method: 'PATCH', path: prospect(), headers: apiKey(), body: { stage: 'Relance' } };
    case 'addNote':
      return { method: 'POST', path: `${prospect()}/notes`, headers: apiKey(), body: { content: 'Rappeler mardi' } };
    case 'addTag':
      return { method: 'POST', path: `${prospect()}/tags`, headers: apiKey(), body: { tag: 'VIP' } };
    case 'removeTag':
      return { method: 'DELETE', path: `${prospect()}/tags/VIP`, headers: apiKey() };
    case 'ingestLead':
      return {
        method: 'POST',
        path: '/webhooks/ingest-lead',
        query: webhookQuery(),
        headers: { Authorization: `Bearer ${webhookToken}` },
        body: { email: `lead-${randomUUID()}@exemple.test` },
      };
    case 'recruitment':
      return {
        method: 'POST',
        path: '/webhooks/recruitment',
        query: webhookQuery(),
        headers: { Authorization: `Bearer ${webhookToken}` },
        body: { email: `candidate-${randomUUID()}@exemple.test`, name: 'Camille Dupont' },
      };
    case 'signIn':
      return { method: 'POST', path: '/session', body: { email: people.member.email, password: memberPassword } };
    case 'refreshSession':
      return {
        method: 'POST',
        path: '/session/refresh',
        body: { refresh_token: (await memberSession()).refreshToken },
      };
    case 'signOut':
      return { method: 'DELETE', path: '/session', headers: bearer(await memberSession()) };
    case 'changePassword':
      // The admin's: the member signed out above, and a new password does not end the admin's session.
      return {
        method: 'POST',
        path: '/session/password',
        headers: admin(),
        body: { password: peoplePassword, new_password: `Nouveau-${randomUUID()}-A1!` },
      };
    case 'startPasswordReset':
      return { method: 'POST', path: '/password-reset', body: { email: people.member.email } };
    case 'confirmPasswordReset': {
      const started = await prepared({ method: 'POST', path: '/password-reset', body: { email: people.member.email } });
      memberPassword = `Oublie-${randomUUID()}-A1!`;
      const code = (started.body as { code: string }).code;
      return {
        method: 'POST',
        path: '/password-reset/confirm',
        body: { email: people.member.email, code, new_password: memberPassword },
      };
    }
    case 'listMyWorkspaces':
      return { method: 'GET', path: '/workspaces', headers: admin() };
    case 'getWorkspace':
      return { method: 'GET', path: base, headers: admin() };
    case 'changeWorkspace':
      return { method: 'PATCH', path: base, headers: admin(), body: { time_zone: 'America/Montreal' } };
    case 'listWorkspacePipelines':
      return { method: 'GET', path: `${base}/pipelines`, headers: admin() };
    case 'listTags':
      return { method: 'GET', path: `${base}/tags`, headers: admin() };
    case 'createTag':
      return { method: 'POST', path: `${base}/tags`, headers: admin(), body: { name: `Tag ${randomUUID()}` } };
    case 'renameTag':
      return {
        method: 'PATCH',
        path: `${base}/tags/${people.seed.tags.hot}`,
        headers: admin(),
        body: { name: `Brûlant ${randomUUID()}` },
      };
    case 'listFields':
      return { method: 'GET', path: `${base}/fields`, headers: admin() };
    case 'createField':
      return {
        method: 'POST',
        path: `${base}/fields`,
        headers: admin(),
        body: { key: `champ_${randomUUID().replaceAll('-', '').slice(0, 12)}`, label: 'Champ', type: 'date' },
      };
    case 'changeField':
      return { method: 'PATCH', path: `${base}/fields/${await aField()}`, headers: admin(), body: { label: 'Autre' } };
    case 'deleteField':
      return { method: 'DELETE', path: `${base}/fields/${await aField()}`, headers: admin() };
    case 'listApiKeys':
      return { method: 'GET', path: `${base}/api-keys`, headers: admin() };
    case 'createApiKey':
      return { method: 'POST', path: `${base}/api-keys`, headers: admin(), body: { name: 'Intégration' } };
    case 'revokeApiKey': {
      const id = await created({
        method: 'POST',
        path: `${base}/api-keys`,
        headers: admin(),
        body: { name: 'Jetable' },
      });
      return { method: 'DELETE', path: `${base}/api-keys/${id}`, headers: admin() };
    }
    case 'listApiKeyChanges':
      return { method: 'GET', path: `${base}/api-keys/${people.seed.api_keys.admin?.id}/changes`, headers: admin() };
    case 'getWebhook':
      return { method: 'GET', path: `${base}/webhook`, headers: admin() };
    case 'generateWebhookToken':
      return { method: 'POST', path: `${base}/webhook/token`, headers: admin() };
    case 'setWebhookActive':
      return { method: 'PATCH', path: `${base}/webhook`, headers: admin(), body: { active: true } };
    case 'findWorkspaceProspects':
      return { method: 'GET', path: `${base}/prospects`, headers: admin(), query: { email: 'lea.petit@acme.test' } };
    case 'getWorkspaceProspect':
      return { method: 'GET', path: `${base}${prospect()}`, headers: admin() };
    case 'listWorkspaceProspectChanges':
      return { method: 'GET', path: `${base}${prospect()}/changes`, headers: admin() };
    case 'undoChange':
      return { method: 'POST', path: `${base}/changes/${await aChange()}/undo`, headers: admin() };
    case 'eraseWorkspaceProspect':
      return { method: 'POST', path: `${base}/prospects/${await aRecord('ingest-lead')}/erase`, headers: admin() };
    case 'eraseWorkspaceCandidate':
      return { method: 'POST', path: `${base}/candidates/${await aRecord('recruitment')}/erase`, headers: admin() };
    case 'findWorkspaceCandidates':
      return { method: 'GET', path: `${base}/candidates`, headers: admin(), query: { email: 'lea.petit@acme.test' } };
    case 'exportWorkspaceProspect':
      return { method: 'GET', path: `${base}${prospect()}/export`, headers: admin() };
    case 'exportWorkspaceCandidate':
      return { method: 'GET', path: `${base}/candidates/${await aRecord('recruitment')}/export`, headers: admin() };
    case 'listMembers':
      return { method: 'GET', path: `${base}/members`, headers: admin() };
    case 'addMember':
      return {
        method: 'POST',
        path: `${base}/members`,
        headers: admin(),
        body: { email: `nouveau-${randomUUID()}@acme.test`, name: 'Noé', role: 'member' },
      };
    case 'inviteMember':
      return { method: 'POST', path: `${base}/members/${await aMember()}/invite`, headers: admin() };
    case 'changeMemberRole':
      return { method: 'PATCH', path: `${base}/members/${await aMember()}`, headers: admin(), body: { role: 'admin' } };
    case 'removeMember':
      return { method: 'DELETE', path: `${base}/members/${await aMember()}`, headers: admin() };
    case 'listAudit':
      return { method: 'GET', path: `${base}/audit`, headers: admin() };
    case 'listWebhookCalls':
      return { method: 'GET', path: `${base}/webhook/calls`, headers: admin() };
    case 'getWebhookCall':
      return { method: 'GET', path: `${base}/webhook/calls/${await aFailedWebhookCall()}`, headers: admin() };
    case 'replayWebhookCall':
      return { method: 'POST', path: `${base}/webhook/calls/${await aFailedWebhookCall()}/replay`, headers: admin() };
    case 'listSubscriptions':
      return { method: 'GET', path: `${base}/subscriptions`, headers: admin() };
    case 'createSubscription':
      return { method: 'POST', path: `${base}/subscriptions`, headers: admin(), body: { url: 'http://127.0.0.1:9/a' } };
    case 'updateSubscription':
      return {
        method: 'PATCH',
        path: `${base}/subscriptions/${await aSubscription()}`,
        headers: admin(),
        body: { active: false },
      };
    case 'deleteSubscription':
      return { method: 'DELETE', path: `${base}/subscriptions/${await aSubscription()}`, headers: admin() };
    case 'rotateSubscriptionSecret':
      return { method: 'POST', path: `${base}/subscriptions/${await aSubscription()}/secret`, headers: admin() };
    case 'listDeliveries':
      return { method: 'GET', path: `${base}/subscriptions/${await aSubscription()}/deliveries`, headers: admin() };
    case 'redeliverDelivery': {
      const delivery = await plantFailedDelivery(people.seed.workspace_id, await aSubscription());
      return { method: 'POST', path: `${base}/deliveries/${delivery}/redeliver`, headers: admin() };
    }
    default:
      throw new Error(`no accepted call for route ${route.id}: add one`);
  }
}

/** The same call refused by its handler: without its credential, or for a sign-in route a body that is not JSON. */
function refusedCall(route: Route, accepted: Call): Call {
  if (route.credential === 'none') return { ...accepted, body: '{"email":' };
  const headers = Object.fromEntries(
    Object.entries(accepted.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'),
  );
  return { ...accepted, headers };
}

const headersOf = (response: ApiResponse) => ({
  'Cache-Control': response.headers.get('cache-control'),
  'X-Content-Type-Options': response.headers.get('x-content-type-options'),
});

test('the headers: no-store and nosniff', () => {
  expect(noStoreHeaders).toEqual({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
});

describe.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => {
  test('a success and a refusal both carry Cache-Control: no-store and X-Content-Type-Options: nosniff', async () => {
    const accepted = await acceptedCall(route);
    const success = await api.request(accepted.method, accepted.path, accepted);
    if (route.id === 'generateWebhookToken') webhookToken = (success.body as { token: string }).token;
    expect({ status: success.status < 300, text: success.status < 300 ? '' : success.text }).toEqual({
      status: true,
      text: '',
    });
    expect(headersOf(success)).toEqual(noStoreHeaders);

    const refused = refusedCall(route, accepted);
    const refusal = await api.request(refused.method, refused.path, refused);
    expect(refusal.status).toBeGreaterThanOrEqual(400);
    expect(refusal.status).toBeLessThan(500);
    expect(refusal.headers.get('content-type')).toMatch(/^application\/json/);
    expect(headersOf(refusal)).toEqual(noStoreHeaders);
  });
});

test('what the local server answers as API Gateway would by itself (an unknown path or method) carries both too', async () => {
  for (const [method, path] of [
    ['GET', '/nulle-part'],
    ['DELETE', '/pipelines'],
  ] as const) {
    const response = await api.request(method, path, { headers: apiKey() });
    expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
    expect(headersOf(response)).toEqual(noStoreHeaders);
  }
});
