import { randomBytes, randomInt } from 'node:crypto';
import { listApiKeys } from '../../lib/settings/api-key-list';
import { listMembers } from '../../lib/settings/member-list';
import type { SeedOutput } from '../../tools/seed/seed';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { poolIdentityProvider } from '../../lib/identity/cognito';
import { deployedRoutes as routes } from '../../infra/cdk/route-grants';
import { captureLogs, type CapturedLogs } from '../support/captured-logs';
import { plantFailedDelivery } from '../support/deliveries';
import { startTestApi, type TestApi } from '../support/local-api';
import { putMembershipDirectly } from '../support/memberships';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/**
 * At DEBUG, over every route and the authorizer, successes and failures and
 * 5xx, no log line carries a secret or a person's data, wherever the caller put them; and every
 * line of a request names it by the `x-request-id` its answer carries.
 */

// One marker in every planted text value: any fragment of one that reaches a log shows.
const marker = `Zq${randomBytes(6).toString('hex')}`;
const phoneDigits = `6${String(randomInt(10_000_000, 99_999_999))}`;
const planted = {
  email: `Zoe.${marker}@Exemple-Secret.test`,
  otherEmail: `noe.${marker}@exemple.test`,
  phone: `+33${phoneDigits}`,
  nationalPhone: `0${phoneDigits.replace(/(\d)(\d{2})(\d{2})(\d{2})(\d{2})/, '$1 $2 $3 $4 $5')}`,
  firstName: `Éloïse ${marker}`,
  lastName: `D'Arménie-${marker}`,
  note: `Note "secrète" ${marker}\nrappeler à 18 h \\ sans faute`,
  socialUrl: `https://www.linkedin.com/in/${marker}`,
  tag: `Étiquette ${marker}`,
  idempotencyKey: `idem-${marker}`,
  answer: `Réponse ${marker} 🙂`,
  /** A member who signs in (docs/api.md#sign-in): their address and passwords. */
  person: `Membre.${marker}@Exemple-Secret.test`,
  password: `Mot-de-passe-${marker}!1`,
  newPassword: `Nouveau-${marker}!2`,
  resetPassword: `Oublie-${marker}!3`,
};

/** The person's session and a second one that signs out, and a reset code, made before the calls. */
const session = { accessToken: '', refreshToken: '', signingOut: '', resetCode: '', member: '' };

let ws: SeedOutput;
let prospectId: string;
let api: TestApi;
let failingApi: TestApi;
let failing: Deps;
let logs: CapturedLogs;
const secrets: string[] = [];

type Call = {
  method: string;
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
};
type Answered = { call: string; status: number; requestId: string | null; lines: string[] };
const answered: Answered[] = [];

beforeAll(async () => {
  ws = await seedTestWorkspace(aWorkspace());
  prospectId = ws.prospects.lead as string;
  // The redeliver route queues on the delivery queue; the delivery function is not what this file watches.
  api = await startTestApi({}, {}, { queue: { send: async () => undefined } });
  failing = productionDeps();
  failing.db.middlewareStack.add(
    () => async () => {
      throw new Error('DynamoDB injoignable');
    },
    { step: 'initialize', name: 'outage' },
  );
  failingApi = await startTestApi({ db: failing.db });
  const identity = poolIdentityProvider();
  await identity.invite(planted.person.toLowerCase(), planted.password);
  await identity.setPermanentPassword(planted.person.toLowerCase(), planted.password);
  await putMembershipDirectly(productionDeps(), {
    email: planted.person,
    workspaceId: ws.workspace_id,
    memberId: ws.members.alice as string,
    role: 'admin',
  });
  const signIn = async () =>
    (await postJson('/session', { email: planted.person, password: planted.password })) as {
      access_token: string;
      refresh_token: string;
    };
  const [first, second] = [await signIn(), await signIn()];
  Object.assign(session, {
    accessToken: first.access_token,
    refreshToken: first.refresh_token,
    signingOut: second.access_token,
  });
  secrets.push(first.access_token, first.refresh_token, second.access_token, second.refresh_token);
  secrets.push(
    ws.api_keys.admin?.secret as string,
    ws.api_keys.reader?.secret as string,
    ws.webhook?.token as string,
    ...Object.values(planted),
  );
  logs = captureLogs('DEBUG');
});

afterAll(async () => {
  logs.restore();
  await api.close();
  await failingApi.close();
  failing.db.destroy();
});

/** One request, raw (no client-side checks: some are meant to be refused), and the lines it logged. */
async function send(target: TestApi, call: Call): Promise<Answered> {
  const url = new URL(call.path, target.url);
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.append(name, value);
  const before = logs.raw().length;
  const response = await fetch(url, {
    method: call.method,
    headers: { ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...call.headers },
    body: call.body,
  });
  const text = await response.text();
  // An invitation's temporary password (answered by the local run only) is a secret no line may carry.
  const temporary = /"temporary_password":"([^"]+)"/.exec(text)?.[1];
  if (temporary !== undefined) secrets.push(temporary);
  // A signing secret an answer shows (once) must reach no log line either.
  for (const shown of text.matchAll(/whsec_[A-Za-z0-9+/=]+/g)) secrets.push(shown[0]);
  // A key's value or a webhook token a settings answer showed once is a secret no line may carry; a new webhook
  // token is the workspace's from then on, which the later routes' calls of the webhooks carry.
  for (const [, shown = ''] of text.matchAll(/"(?:secret|token)":"([^"]+)"/g)) {
    secrets.push(shown);
    if (ws.webhook && shown.startsWith('crm_whk_')) ws.webhook.token = shown;
  }
  const result = {
    call: `${call.method} ${call.path}`,
    status: response.status,
    requestId: response.headers.get('x-request-id'),
    lines: logs.raw().slice(before),
  };
  answered.push(result);
  return result;
}

const bearer = (secret: string | undefined) => ({ Authorization: `Bearer ${secret}` });

/** A new session of the planted person, whichever of their passwords the routes before left them. */
async function freshAccessToken(): Promise<string> {
  for (const password of [planted.password, planted.newPassword, planted.resetPassword]) {
    const signedIn = (await postJson('/session', { email: planted.person, password })) as { access_token?: string };
    if (signedIn.access_token !== undefined) {
      secrets.push(signedIn.access_token);
      return signedIn.access_token;
    }
  }
  throw new Error('the planted person cannot sign in');
}

/**
 * The person's session for the settings routes of a workspace, opened once after the routes that sign out and change
 * passwords: each sign-in tried with a password they no longer have counts toward the e-mail's 10 failures.
 */
async function memberHeader(): Promise<Record<string, string>> {
  session.member ||= await freshAccessToken();
  return bearer(session.member);
}

/**
 * A prospect (or a candidate) of its own carrying the planted values, made by the webhook, for a route that erases or
 * exports it: its routes' path and its id.
 */
async function aPlantedRecord(prospects: boolean, prefix: string): Promise<{ path: string; id: string }> {
  const created = await api.request('POST', `/webhooks/${prospects ? 'ingest-lead' : 'recruitment'}`, {
    query: webhookQuery(),
    headers: bearer(ws.webhook?.token),
    body: {
      email: `${prefix}.${planted.email}`,
      name: `${planted.firstName} ${planted.lastName}`,
      first_name: planted.firstName,
      phone: planted.nationalPhone,
    },
  });
  const { prospect_id: prospectId, talent_id: talentId } = created.body as Record<string, string>;
  return {
    path: `/workspaces/${ws.workspace_id}/${prospects ? 'prospects' : 'candidates'}`,
    id: (prospectId ?? talentId) as string,
  };
}

/** A sign-in route's call made to prepare the calls, checked against the OpenAPI document as every call here. */
async function postJson(path: string, body: unknown): Promise<unknown> {
  return (await api.request('POST', path, { body })).body;
}
const json = (value: unknown) => JSON.stringify(value);
const webhookQuery = () => ({ endpoint_id: ws.webhook?.endpoint_id as string });

/** Per route: calls that succeed, calls refused, with planted values in headers, query, path and body. */
async function callsOf(routeId: string): Promise<Call[]> {
  const key = bearer(ws.api_keys.admin?.secret);
  const reader = bearer(ws.api_keys.reader?.secret);
  const token = bearer(ws.webhook?.token);
  // One key per route: a key reused on another route is refused (docs/api.md#idempotency-keys).
  const idem = { 'Idempotency-Key': `${planted.idempotencyKey}-${routeId}` };
  const prospect = `/prospects/${prospectId}`;
  const inPath = `/prospects/${encodeURIComponent(planted.email)}`;
  const settings = `/workspaces/${ws.workspace_id}`;
  switch (routeId) {
    case 'listPipelines':
      return [
        { method: 'GET', path: '/pipelines', headers: key },
        { method: 'GET', path: '/pipelines', query: { api_key: ws.api_keys.admin?.secret as string } },
        { method: 'GET', path: '/pipelines', query: { token: ws.webhook?.token as string }, headers: key },
      ];
    case 'listAssignableMembers':
      return [
        { method: 'GET', path: '/members', headers: reader },
        { method: 'GET', path: '/members', query: { access_token: ws.api_keys.reader?.secret as string } },
      ];
    case 'listCustomFields':
      return [
        { method: 'GET', path: '/fields', headers: reader },
        { method: 'GET', path: '/fields', query: { access_token: ws.api_keys.reader?.secret as string } },
      ];
    case 'getProspect':
      return [
        { method: 'GET', path: prospect, headers: key },
        { method: 'GET', path: inPath, headers: key },
        { method: 'GET', path: `/prospects/${encodeURIComponent(planted.firstName)}`, headers: reader },
      ];
    case 'findProspects':
      return [
        { method: 'GET', path: '/prospects', query: { email: planted.email }, headers: key },
        { method: 'GET', path: '/prospects', query: { phone: planted.nationalPhone }, headers: key },
        { method: 'GET', path: '/prospects', query: { social_url: planted.socialUrl }, headers: key },
        { method: 'GET', path: '/prospects', query: { email: planted.otherEmail }, headers: reader },
        { method: 'GET', path: '/prospects', query: { name: planted.lastName, phone: planted.note }, headers: key },
      ];
    case 'listNotes':
      return [
        { method: 'GET', path: `${prospect}/notes`, headers: key },
        { method: 'GET', path: `${prospect}/notes`, query: { cursor: planted.note }, headers: key },
      ];
    case 'listChanges':
      return [
        { method: 'GET', path: `${prospect}/changes`, headers: key },
        { method: 'GET', path: `${inPath}/changes`, query: { limit: planted.phone }, headers: key },
      ];
    case 'updateProspect':
      return [
        { method: 'PATCH', path: prospect, headers: { ...key, ...idem }, body: json({ stage: 'Relance' }) },
        { method: 'PATCH', path: prospect, headers: { ...key, ...idem }, body: json({ stage: 'Closé' }) },
        {
          method: 'PATCH',
          path: prospect,
          headers: key,
          body: json({ stage: planted.tag, setter_id: planted.email, first_name: planted.firstName }),
        },
      ];
    case 'addNote':
      return [
        {
          method: 'POST',
          path: `${prospect}/notes`,
          headers: { ...key, ...idem },
          body: json({ content: planted.note }),
        },
        {
          method: 'POST',
          path: `${prospect}/notes`,
          headers: { ...key, ...idem },
          body: json({ content: planted.note }),
        },
        { method: 'POST', path: `${prospect}/notes`, headers: key, body: `{"content": "${planted.email}` },
        { method: 'POST', path: `${inPath}/notes`, headers: reader, body: json({ content: planted.answer }) },
      ];
    case 'addTag':
      return [
        { method: 'POST', path: `${prospect}/tags`, headers: key, body: json({ tag: 'VIP' }) },
        { method: 'POST', path: `${prospect}/tags`, headers: key, body: json({ tag: planted.tag }) },
      ];
    case 'removeTag':
      return [
        { method: 'DELETE', path: `${prospect}/tags/VIP`, headers: key },
        { method: 'DELETE', path: `${prospect}/tags/${encodeURIComponent(planted.tag)}`, headers: key },
      ];
    case 'ingestLead': {
      const lead = {
        email: planted.email,
        phone: planted.phone,
        first_name: planted.firstName,
        last_name: planted.lastName,
        social_url: planted.socialUrl,
        source: planted.answer,
        [planted.otherEmail]: planted.note,
      };
      return [
        { method: 'POST', path: '/webhooks/ingest-lead', query: webhookQuery(), headers: token, body: json(lead) },
        { method: 'POST', path: '/webhooks/ingest-lead', query: webhookQuery(), headers: token, body: json(lead) },
        {
          method: 'POST',
          path: '/webhooks/ingest-lead',
          query: { ...webhookQuery(), token: ws.webhook?.token as string },
          body: json(lead),
        },
        {
          method: 'POST',
          path: '/webhooks/ingest-lead',
          query: webhookQuery(),
          headers: bearer(`${ws.webhook?.token}x`),
          body: json(lead),
        },
        {
          method: 'POST',
          path: '/webhooks/ingest-lead',
          query: webhookQuery(),
          headers: token,
          body: `[${planted.note}`,
        },
        {
          method: 'POST',
          path: '/webhooks/ingest-lead',
          query: { endpoint_id: planted.email, api_key: ws.api_keys.admin?.secret as string },
          headers: token,
          body: json(lead),
        },
      ];
    }
    case 'recruitment': {
      const application = {
        email: planted.otherEmail,
        name: `${planted.firstName} ${planted.lastName}`,
        phone: planted.nationalPhone,
        position: planted.tag,
        answers: { [`Question ${marker}`]: planted.answer, LinkedIn: planted.socialUrl },
      };
      return [
        {
          method: 'POST',
          path: '/webhooks/recruitment',
          query: webhookQuery(),
          headers: token,
          body: json(application),
        },
        {
          method: 'POST',
          path: '/webhooks/recruitment',
          query: webhookQuery(),
          headers: token,
          body: json(application),
        },
        {
          method: 'POST',
          path: '/webhooks/recruitment',
          query: { ...webhookQuery(), api_key: ws.webhook?.token as string },
          headers: token,
          body: json(application),
        },
        {
          method: 'POST',
          path: '/webhooks/recruitment',
          query: webhookQuery(),
          headers: token,
          body: json({ ...application, email: planted.firstName }),
        },
      ];
    }
    case 'signIn':
      return [
        { method: 'POST', path: '/session', body: json({ email: planted.person, password: planted.password }) },
        { method: 'POST', path: '/session', body: json({ email: planted.email, password: planted.password }) },
        { method: 'POST', path: '/session', body: `{"email": "${planted.person}", "password": "${planted.password}` },
      ];
    case 'refreshSession':
      return [
        { method: 'POST', path: '/session/refresh', body: json({ refresh_token: session.refreshToken }) },
        { method: 'POST', path: '/session/refresh', body: json({ refresh_token: planted.note }) },
      ];
    case 'signOut':
      return [
        { method: 'DELETE', path: '/session', headers: bearer(session.signingOut) },
        { method: 'DELETE', path: '/session', headers: bearer(session.signingOut) },
      ];
    case 'changePassword': {
      // Signed in again: the sign-out before ended the sessions begun until then (docs/adr/0013-member-sign-in.md).
      const accessToken = await freshAccessToken();
      return [
        {
          method: 'POST',
          path: '/session/password',
          headers: bearer(accessToken),
          body: json({ password: planted.password, new_password: planted.newPassword }),
        },
        {
          method: 'POST',
          path: '/session/password',
          headers: bearer(accessToken),
          body: json({ password: planted.password, new_password: planted.note }),
        },
      ];
    }
    case 'startPasswordReset':
      return [
        { method: 'POST', path: '/password-reset', body: json({ email: planted.person }) },
        { method: 'POST', path: '/password-reset', body: json({ email: planted.otherEmail }) },
        { method: 'POST', path: '/password-reset', body: json({ mail: planted.person }) },
      ];
    case 'confirmPasswordReset': {
      session.resetCode = ((await postJson('/password-reset', { email: planted.person })) as { code: string }).code;
      const confirm = (code: string) => json({ email: planted.person, code, new_password: planted.resetPassword });
      return [
        { method: 'POST', path: '/password-reset/confirm', body: confirm(`${session.resetCode}9`) },
        { method: 'POST', path: '/password-reset/confirm', body: confirm(session.resetCode) },
      ];
    }
    case 'listMyWorkspaces': {
      const accessToken = await freshAccessToken();
      return [
        { method: 'GET', path: '/workspaces', headers: bearer(accessToken) },
        { method: 'GET', path: '/workspaces', headers: key },
        { method: 'GET', path: '/workspaces', headers: bearer(accessToken), query: { access_token: planted.note } },
      ];
    }
    case 'getWorkspace': {
      const headers = await memberHeader();
      return [
        { method: 'GET', path: settings, headers },
        { method: 'GET', path: settings, headers: key },
        { method: 'GET', path: `/workspaces/${encodeURIComponent(planted.email)}`, headers },
      ];
    }
    case 'changeWorkspace': {
      const headers = await memberHeader();
      return [
        { method: 'PATCH', path: settings, headers, body: json({ time_zone: 'America/Montreal' }) },
        { method: 'PATCH', path: settings, headers, body: json({ time_zone: planted.note }) },
        { method: 'PATCH', path: settings, headers, body: json({ [planted.email]: planted.lastName }) },
        { method: 'PATCH', path: settings, headers: key, body: json({ time_zone: planted.firstName }) },
      ];
    }
    case 'listWorkspacePipelines': {
      const headers = await memberHeader();
      return [
        { method: 'GET', path: `${settings}/pipelines`, headers },
        { method: 'GET', path: `${settings}/pipelines`, headers, query: { token: planted.note } },
      ];
    }
    case 'listTags': {
      const headers = await memberHeader();
      return [
        { method: 'GET', path: `${settings}/tags`, headers },
        { method: 'GET', path: `${settings}/tags`, headers, query: { token: planted.note } },
      ];
    }
    case 'createTag': {
      const headers = await memberHeader();
      return [
        { method: 'POST', path: `${settings}/tags`, headers, body: json({ name: planted.tag }) },
        { method: 'POST', path: `${settings}/tags`, headers, body: json({ name: planted.tag }) },
        { method: 'POST', path: `${settings}/tags`, headers, body: json({ name: planted.note, color: planted.email }) },
      ];
    }
    case 'renameTag': {
      const headers = await memberHeader();
      return [
        { method: 'PATCH', path: `${settings}/tags/${ws.tags.hot}`, headers, body: json({ name: planted.firstName }) },
        {
          method: 'PATCH',
          path: `${settings}/tags/${encodeURIComponent(planted.email)}`,
          headers,
          body: json({ name: planted.lastName }),
        },
      ];
    }
    case 'listFields': {
      const headers = await memberHeader();
      return [
        { method: 'GET', path: `${settings}/fields`, headers },
        { method: 'GET', path: `${settings}/fields`, headers, query: { token: planted.note } },
      ];
    }
    case 'createField': {
      const headers = await memberHeader();
      const field = { key: 'secteur', label: planted.firstName, type: 'choice', options: [planted.lastName] };
      return [
        { method: 'POST', path: `${settings}/fields`, headers, body: json({ ...field, aliases: [planted.tag] }) },
        { method: 'POST', path: `${settings}/fields`, headers, body: json(field) },
        { method: 'POST', path: `${settings}/fields`, headers, body: json({ ...field, key: planted.email }) },
      ];
    }
    case 'changeField': {
      const headers = await memberHeader();
      return [
        {
          method: 'PATCH',
          path: `${settings}/fields/secteur`,
          headers,
          body: json({ label: planted.lastName, options: [planted.lastName, planted.answer] }),
        },
        { method: 'PATCH', path: `${settings}/fields/secteur`, headers, body: json({ options: [planted.note] }) },
        {
          method: 'PATCH',
          path: `${settings}/fields/${encodeURIComponent(planted.email)}`,
          headers,
          body: json({ label: planted.firstName }),
        },
      ];
    }
    case 'deleteField': {
      const headers = await memberHeader();
      return [
        { method: 'DELETE', path: `${settings}/fields/secteur`, headers },
        { method: 'DELETE', path: `${settings}/fields/${encodeURIComponent(planted.email)}`, headers },
      ];
    }
    case 'listApiKeys': {
      const headers = await memberHeader();
      return [
        { method: 'GET', path: `${settings}/api-keys`, headers },
        {
          method: 'GET',
          path: `${settings}/api-keys`,
          headers,
          query: { api_key: ws.api_keys.admin?.secret as string },
        },
      ];
    }
    case 'createApiKey': {
      const headers = await memberHeader();
      return [
        { method: 'POST', path: `${settings}/api-keys`, headers, body: json({ name: planted.lastName }) },
        {
          method: 'POST',
          path: `${settings}/api-keys`,
          headers,
          body: json({ name: planted.note, scopes: [planted.email] }),
        },
      ];
    }
    case 'revokeApiKey': {
      const headers = await memberHeader();
      const keys = await listApiKeys(productionDeps(), ws.workspace_id);
      const created = keys.find((candidate) => candidate.name === planted.lastName);
      if (created === undefined) throw new Error('createApiKey’s planted calls come first');
      return [
        { method: 'DELETE', path: `${settings}/api-keys/${created.id}`, headers },
        { method: 'DELETE', path: `${settings}/api-keys/${encodeURIComponent(planted.email)}`, headers },
      ];
    }
    case 'listApiKeyChanges': {
      const headers = await memberHeader();
      const path = `${settings}/api-keys/${ws.api_keys.admin?.id}/changes`;
      return [
        { method: 'GET', path, headers },
        { method: 'GET', path, headers, query: { cursor: planted.note } },
      ];
    }
    case 'getWebhook': {
      const headers = await memberHeader();
      return [
        { method: 'GET', path: `${settings}/webhook`, headers },
        { method: 'GET', path: `${settings}/webhook`, headers: token },
      ];
    }
    case 'generateWebhookToken': {
      const headers = await memberHeader();
      return [
        { method: 'POST', path: `${settings}/webhook/token`, headers },
        { method: 'POST', path: `${settings}/webhook/token`, headers, body: json({ token: planted.note }) },
      ];
    }
    case 'setWebhookActive': {
      const headers = await memberHeader();
      return [
        { method: 'PATCH', path: `${settings}/webhook`, headers, body: json({ active: false }) },
        { method: 'PATCH', path: `${settings}/webhook`, headers, body: json({ active: planted.note }) },
        { method: 'PATCH', path: `${settings}/webhook`, headers, body: json({ active: true }) },
      ];
    }
    case 'findWorkspaceProspects': {
      const member = await memberHeader();
      const path = `/workspaces/${ws.workspace_id}/prospects`;
      return [
        { method: 'GET', path, query: { email: planted.email }, headers: member },
        { method: 'GET', path, query: { phone: planted.nationalPhone }, headers: member },
        { method: 'GET', path, query: { email: planted.otherEmail, access_token: planted.note }, headers: member },
        { method: 'GET', path, query: { email: planted.email }, headers: key },
        { method: 'GET', path, query: { name: planted.lastName, phone: planted.note }, headers: member },
      ];
    }
    case 'getWorkspaceProspect': {
      const member = await memberHeader();
      return [
        { method: 'GET', path: `/workspaces/${ws.workspace_id}${prospect}`, headers: member },
        { method: 'GET', path: `/workspaces/${ws.workspace_id}${inPath}`, headers: member },
      ];
    }
    case 'listWorkspaceProspectChanges': {
      const member = await memberHeader();
      const path = `/workspaces/${ws.workspace_id}${prospect}/changes`;
      return [
        { method: 'GET', path, headers: member },
        { method: 'GET', path, query: { cursor: planted.note }, headers: member },
      ];
    }
    case 'eraseWorkspaceProspect':
    case 'eraseWorkspaceCandidate': {
      const member = await memberHeader();
      // A record of its own carrying the planted values, erased; the planted values in the path and the body.
      const { path, id } = await aPlantedRecord(routeId === 'eraseWorkspaceProspect', 'efface');
      return [
        { method: 'POST', path: `${path}/${id}/erase`, headers: member },
        { method: 'POST', path: `${path}/${id}/erase`, headers: member },
        { method: 'POST', path: `${path}/${encodeURIComponent(planted.email)}/erase`, headers: member },
        {
          method: 'POST',
          path: `${path}/${id}/erase`,
          headers: member,
          body: json({ raison: planted.note }),
        },
      ];
    }
    case 'findWorkspaceCandidates': {
      const member = await memberHeader();
      // The candidate `recruitment`'s calls created, found by its planted e-mail; then the planted values refused.
      const path = `/workspaces/${ws.workspace_id}/candidates`;
      return [
        { method: 'GET', path, query: { email: planted.otherEmail }, headers: member },
        { method: 'GET', path, query: { email: planted.firstName }, headers: member },
        { method: 'GET', path, query: { email: planted.email, name: planted.lastName }, headers: member },
      ];
    }
    case 'exportWorkspaceProspect':
    case 'exportWorkspaceCandidate': {
      const member = await memberHeader();
      // A record of its own carrying the planted values, exported whole: the document holds them, no log line may.
      const { path, id } = await aPlantedRecord(routeId === 'exportWorkspaceProspect', 'export');
      return [
        { method: 'GET', path: `${path}/${id}/export`, headers: member },
        { method: 'GET', path: `${path}/${encodeURIComponent(planted.email)}/export`, headers: member },
      ];
    }
    case 'undoChange': {
      const member = await memberHeader();
      // A change of the key's to undo, on a prospect of its own.
      const other = `/prospects/${ws.prospects.social as string}`;
      await fetch(new URL(other, api.url), {
        method: 'PATCH',
        headers: { ...key, 'content-type': 'application/json' },
        body: json({ stage: 'Nouveau' }),
      });
      const changes = (await (await fetch(new URL(`${other}/changes`, api.url), { headers: key })).json()) as {
        changes: { id: string }[];
      };
      const path = `/workspaces/${ws.workspace_id}/changes/${changes.changes[0]?.id ?? ''}/undo`;
      return [
        { method: 'POST', path, headers: member },
        { method: 'POST', path, headers: member },
        { method: 'POST', path, headers: member, body: json({ [planted.email]: planted.note }) },
        {
          method: 'POST',
          path: `/workspaces/${ws.workspace_id}/changes/${encodeURIComponent(planted.email)}/undo`,
          headers: member,
        },
      ];
    }
    case 'listMembers': {
      const headers = await memberHeader();
      return [
        { method: 'GET', path: `${settings}/members`, headers },
        { method: 'GET', path: `${settings}/members`, headers: key },
        { method: 'GET', path: `${settings}/members`, headers, query: { token: planted.note } },
      ];
    }
    case 'addMember': {
      const headers = await memberHeader();
      const invited = json({ email: planted.otherEmail, name: planted.firstName, role: 'member' });
      return [
        { method: 'POST', path: `${settings}/members`, headers, body: invited },
        { method: 'POST', path: `${settings}/members`, headers, body: invited },
        {
          method: 'POST',
          path: `${settings}/members`,
          headers,
          body: json({ email: planted.email, role: planted.note }),
        },
      ];
    }
    case 'inviteMember': {
      const headers = await memberHeader();
      return [
        { method: 'POST', path: `${settings}/members/${await invitedMemberId()}/invite`, headers },
        { method: 'POST', path: `${settings}/members/${encodeURIComponent(planted.note)}/invite`, headers },
      ];
    }
    case 'changeMemberRole': {
      const headers = await memberHeader();
      const path = `${settings}/members/${await invitedMemberId()}`;
      return [
        // The role it has: no seeded member is an admin, so an admin invited here could not be removed after.
        { method: 'PATCH', path, headers, body: json({ role: 'member' }) },
        { method: 'PATCH', path, headers, body: json({ role: planted.note }) },
      ];
    }
    case 'removeMember': {
      const headers = await memberHeader();
      return [
        { method: 'DELETE', path: `${settings}/members/${await invitedMemberId()}`, headers },
        { method: 'DELETE', path: `${settings}/members/${encodeURIComponent(planted.lastName)}`, headers },
      ];
    }
    case 'listAudit': {
      const headers = await memberHeader();
      return [
        { method: 'GET', path: `${settings}/audit`, headers },
        { method: 'GET', path: `${settings}/audit`, headers, query: { cursor: planted.note } },
      ];
    }
    default:
      return eventCallsOf(routeId);
  }
}

/** A subscription of the workspace made through the API (its secret kept among those no line may show), its id. */
async function aSubscription(headers: Record<string, string>): Promise<string> {
  const created = await api.request('POST', `/workspaces/${ws.workspace_id}/subscriptions`, {
    headers,
    body: { url: 'http://127.0.0.1:9/evenements' },
  });
  const { id, secret } = created.body as { id: string; secret: string };
  secrets.push(secret);
  return id;
}

/** A delivery of the subscription, as the stream handler writes one. */
const aDelivery = (subscriptionId: string): Promise<string> => plantFailedDelivery(ws.workspace_id, subscriptionId);

/**
 * The settings API's journal, subscriptions and deliveries (docs/api.md#settings-api), by the planted person, an admin.
 */
let eventsAccessToken: string | undefined;

async function eventCallsOf(routeId: string): Promise<Call[]> {
  // One session for these routes: each new one tries the person's passwords, and failed sign-ins are limited.
  eventsAccessToken ??= await freshAccessToken();
  const member = bearer(eventsAccessToken);
  const base = `/workspaces/${ws.workspace_id}`;
  const inPath = encodeURIComponent(planted.email);
  switch (routeId) {
    case 'listWebhookCalls':
      return [
        { method: 'GET', path: `${base}/webhook/calls`, headers: member, query: { failed: 'true' } },
        { method: 'GET', path: `${base}/webhook/calls`, headers: member, query: { access_token: planted.note } },
        { method: 'GET', path: `${base}/webhook/calls`, headers: member, query: { failed: planted.firstName } },
      ];
    case 'getWebhookCall':
    case 'replayWebhookCall': {
      // A lead refused for its content, with the planted values: its body is kept, shown, and replayed.
      const refused = await api.request('POST', '/webhooks/ingest-lead', {
        query: webhookQuery(),
        headers: bearer(ws.webhook?.token),
        body: { first_name: planted.firstName, last_name: planted.lastName, commentaire: planted.note },
      });
      expect(refused.status).toBe(400);
      const listed = await api.request('GET', `${base}/webhook/calls`, { headers: member, query: { failed: 'true' } });
      const [call] = (listed.body as { calls: { id: string }[] }).calls;
      const path = `${base}/webhook/calls/${call?.id}${routeId === 'replayWebhookCall' ? '/replay' : ''}`;
      const method = routeId === 'replayWebhookCall' ? 'POST' : 'GET';
      return [
        { method, path, headers: member },
        {
          method,
          path: `${base}/webhook/calls/${inPath}${routeId === 'replayWebhookCall' ? '/replay' : ''}`,
          headers: member,
        },
      ];
    }
    case 'listSubscriptions':
      return [
        { method: 'GET', path: `${base}/subscriptions`, headers: member },
        { method: 'GET', path: `${base}/subscriptions`, headers: bearer(ws.api_keys.admin?.secret) },
      ];
    case 'createSubscription':
      return [
        { method: 'POST', path: `${base}/subscriptions`, headers: member, body: json({ url: 'http://127.0.0.1:9/a' }) },
        {
          method: 'POST',
          path: `${base}/subscriptions`,
          headers: member,
          body: json({ url: 'http://127.0.0.1:9/a', secret: planted.note }),
        },
        {
          method: 'POST',
          path: `${base}/subscriptions`,
          headers: member,
          body: json({ url: planted.socialUrl.replace('https', 'ftp') }),
        },
      ];
    case 'updateSubscription': {
      const path = `${base}/subscriptions/${await aSubscription(member)}`;
      return [
        { method: 'PATCH', path, headers: member, body: json({ active: false }) },
        { method: 'PATCH', path, headers: member, body: json({ active: planted.note }) },
      ];
    }
    case 'deleteSubscription': {
      const path = `${base}/subscriptions/${await aSubscription(member)}`;
      return [
        { method: 'DELETE', path, headers: member },
        { method: 'DELETE', path: `${base}/subscriptions/${inPath}`, headers: member },
      ];
    }
    case 'rotateSubscriptionSecret': {
      const id = await aSubscription(member);
      return [
        { method: 'POST', path: `${base}/subscriptions/${id}/secret`, headers: member },
        { method: 'POST', path: `${base}/subscriptions/${inPath}/secret`, headers: member },
      ];
    }
    case 'listDeliveries': {
      const path = `${base}/subscriptions/${await aSubscription(member)}/deliveries`;
      return [
        { method: 'GET', path, headers: member },
        { method: 'GET', path, headers: member, query: { status: planted.note } },
      ];
    }
    case 'redeliverDelivery': {
      const delivery = await aDelivery(await aSubscription(member));
      return [
        { method: 'POST', path: `${base}/deliveries/${delivery}/redeliver`, headers: member },
        { method: 'POST', path: `${base}/deliveries/${inPath}/redeliver`, headers: member },
      ];
    }
    default:
      throw new Error(`no planted calls for route ${routeId}: add them`);
  }
}

/** The member `addMember`'s calls invited (the planted other e-mail), for the routes on one member. */
async function invitedMemberId(): Promise<string> {
  const { members } = await listMembers(productionDeps(), ws.workspace_id);
  const member = members.find((candidate) => candidate.email === planted.otherEmail);
  if (member === undefined) throw new Error('addMember’s planted calls come first');
  return member.id;
}

/** The forms a planted value could take in a line: as sent, lower-case, URL-encoded, JSON-escaped. */
function formsOf(value: string): string[] {
  const forms = [value, encodeURIComponent(value), encodeURIComponent(value).replace(/%20/g, '+')];
  forms.push(...forms.map((form) => JSON.stringify(form).slice(1, -1)));
  return [...new Set([...forms, ...forms.map((form) => form.toLowerCase())])];
}

/** Per route, the place among its planted calls of the first one the working table let through (2xx). */
const firstSuccess = new Map<string, number>();

describe.each(routes.map((route) => route.id))('%s', (routeId) => {
  test('answers with a request id, logs under it, at DEBUG, without a planted value', async () => {
    const statuses: number[] = [];
    for (const call of await callsOf(routeId)) {
      const { status, requestId, lines } = await send(api, call);
      if (status < 300 && !firstSuccess.has(routeId)) firstSuccess.set(routeId, statuses.length);
      statuses.push(status);
      expect(requestId).toEqual(expect.any(String));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        // A replay runs the webhook's handler as a new call, under its own request id (the journal's `admin-replay-…`).
        const replayed = (JSON.parse(line) as { correlation_id?: string }).correlation_id?.startsWith('admin-replay-');
        expect(JSON.parse(line)).toEqual(
          expect.objectContaining({
            correlation_id: routeId === 'replayWebhookCall' && replayed ? expect.any(String) : requestId,
            level: expect.any(String),
            cold_start: expect.any(Boolean),
          }),
        );
      }
    }
    // Successes and refusals both went through.
    expect(statuses.some((status) => status < 300)).toBe(true);
    expect(statuses.some((status) => status >= 400)).toBe(true);
  });

  const route = routes.find((candidate) => candidate.id === routeId);
  // The sign-in routes run no authorizer read: their own first read fails; without a table, nothing can.
  const anonymous = route?.credential === 'none';
  const reachesTheTable = !anonymous || (route?.tableActions.length ?? 0) > 0;
  if (reachesTheTable) {
    test('a 5xx logs its error under the request id', async () => {
      // The call that succeeded with the table, planted afresh (a reset's code is new each time): it reaches the
      // table past every check that needs none (a reset's one write follows the provider's acceptance).
      const call = (await callsOf(routeId))[firstSuccess.get(routeId) ?? 0];
      const { status, requestId, lines } = await send(failingApi, call as Call);
      expect(status).toBe(500);
      const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(parsed).toContainEqual(
        expect.objectContaining({
          level: 'ERROR',
          message: 'request failed',
          correlation_id: requestId,
          route: routeId,
          status: 500,
          error: {
            name: 'Error',
            message: anonymous ? 'DynamoDB injoignable' : 'authorizer failed',
            stack: expect.any(String),
          },
        }),
      );
      if (anonymous) return;
      // The authorizer's own line names the fault, under the same request id.
      expect(parsed).toContainEqual(
        expect.objectContaining({
          level: 'ERROR',
          message: 'authorizer failed',
          correlation_id: requestId,
          error: { name: 'Error', message: 'DynamoDB injoignable', stack: expect.any(String) },
        }),
      );
    });
  }
});

test('no line of the whole run carries a secret or a planted value, in any form', () => {
  const everything = logs.raw();
  // The run did log, at every level it uses.
  const levels = new Set(logs.lines().map((line) => line.level));
  expect([...levels]).toEqual(expect.arrayContaining(['DEBUG', 'ERROR']));
  expect(answered.length).toBeGreaterThan(routes.length * 3);
  const text = everything.join('\n');
  const leaks = secrets.flatMap((secret) => formsOf(secret)).filter((form) => text.includes(form));
  expect(leaks).toEqual([]);
  expect(text.toLowerCase()).not.toContain(marker.toLowerCase());
  expect(text).not.toContain(phoneDigits);
  // Not even the secrets' random parts.
  for (const secret of secrets) expect(text).not.toContain(secret.slice(-16));
  // The reset code, a few digits: never as a value of its own.
  expect(session.resetCode).toEqual(expect.any(String));
  for (const form of [`"${session.resetCode}"`, `=${session.resetCode}`, `"${session.resetCode}9"`]) {
    expect(text).not.toContain(form);
  }
});
