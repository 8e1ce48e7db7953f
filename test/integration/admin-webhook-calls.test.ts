import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createHandler as ingestLead } from '../../functions/webhooks/ingest-lead';
import { listAudit } from '../../lib/settings/audit';
import type { SeedOutput } from '../../tools/seed/seed';
import { listCalls, showCall } from '../../lib/settings/webhook-call-reads';
import type { WebhookCallView } from '../../lib/domain/webhook-call-view';
import { replayCall, webhookCallEvent, type WebhookInvoker } from '../../lib/settings/webhook-call-replay';
import type { WebhookCall } from '../../lib/domain/model';
import { timeOrderedId } from '../../lib/storage/table-items';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { routeById } from '../../lib/routes';
import { getEndpoint, type EndpointItem } from '../../lib/storage/credentials';
import { listWebhookCalls } from '../../lib/storage/webhook-call-list';
import { journalWebhookCall } from '../../lib/storage/webhook-calls';
import { runAdminInProcess } from '../support/admin-cli';
import { aLambdaContext } from '../support/events';
import { startTestApi, type TestApi } from '../support/local-api';
import { seedTestWorkspace } from '../support/seed';

/**
 * The admin side of the webhook call journal (docs/api.md#webhook-call-journal): `webhook calls`, `webhook call` and
 * `webhook replay`, on calls sent through the local API (authorizer included), and one lead lost
 * to a storage fault (500) sent to the handler directly.
 */

const deps = productionDeps();
let api: TestApi;
let seed: SeedOutput;
let other: SeedOutput;
const form = 'application/x-www-form-urlencoded';
const leadEmail = `${randomUUID()}@lead.test`;
const lostEmail = `${randomUUID()}@perdu.test`;

/** The calls sent in beforeAll, oldest first, by label. */
const sent: Record<string, WebhookCallView> = {};
const order = ['success', 'invalidLead', 'badRecruitment', 'formFailed', 'lost'] as const;

const post = (route: 'ingest-lead' | 'recruitment', body: unknown, headers: Record<string, string> = {}) =>
  api.request('POST', `/webhooks/${route}`, {
    query: { endpoint_id: seed.webhook?.endpoint_id as string },
    headers: { 'x-webhook-token': seed.webhook?.token as string, ...headers },
    body,
  });

/** A table client whose transactions fail: the lead's write is lost (500), its journal entry (a PutItem) is not. */
function transactionsFail(base: Deps): Deps {
  const db = new Proxy(base.db, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: { constructor: { name: string } }) =>
        command.constructor.name === 'TransactWriteCommand'
          ? Promise.reject(new Error('DynamoDB injoignable (test)'))
          : target.send(command as never);
    },
  }) as DynamoDBDocumentClient;
  return { ...base, db };
}

beforeAll(async () => {
  [seed, other] = await Promise.all([seedTestWorkspace(), seedTestWorkspace()]);
  api = await startTestApi();
  const answers = [
    await post('ingest-lead', { email: leadEmail, first_name: 'Nina' }),
    await post('ingest-lead', { first_name: 'Sans contact' }),
    await post('recruitment', { name: 'Sans Adresse' }),
    await post('ingest-lead', 'first_name=Zo%C3%A9&source=Salon&tag_ids=a&tag_ids=b', { 'Content-Type': form }),
  ];
  expect(answers.map((answer) => answer.status)).toEqual([200, 400, 400, 400]);
  // The 500 logs its error, as it should; the test keeps the output clean.
  const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const lost = await ingestLead(transactionsFail(deps))(
    webhookCallEvent(
      routeById('ingestLead'),
      (await getEndpoint(deps, seed.webhook?.endpoint_id as string)) as EndpointItem,
      {
        body: `email=${encodeURIComponent(lostEmail)}&first_name=L%C3%A9a`,
        body_base64: false,
        content_type: `${form}; charset=utf-8`,
      },
      `test-${randomUUID()}`,
    ),
    aLambdaContext(),
  );
  quiet.mockRestore();
  expect(lost.statusCode).toBe(500);
  const { calls } = await listCalls(deps, seed.workspace_id, { failed: false });
  order.forEach((label, index) => {
    sent[label] = calls[order.length - 1 - index] as WebhookCallView;
  });
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const json = async (...args: string[]) => {
  const run = await runAdminInProcess(deps, ...args, '--json');
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout);
};

describe('webhook calls', () => {
  it('lists every call, newest first, with exactly its eleven fields and never a body', async () => {
    const { calls } = await json('webhook', 'calls', '--workspace', seed.workspace_id);
    expect(calls).toHaveLength(order.length);
    for (const call of calls) {
      expect(Object.keys(call).sort()).toEqual(
        [
          'at',
          'body_truncated',
          'count',
          'id',
          'message',
          'outcome',
          'pipeline_id',
          'placement',
          'record_id',
          'request_id',
          'route',
          'stage_id',
          'status',
          'warnings',
        ].sort(),
      );
    }
    expect(calls.map((call: WebhookCallView) => call.id)).toEqual([...order].reverse().map((label) => sent[label]?.id));
    expect([...calls].sort((a, b) => b.at.localeCompare(a.at)).map((call: WebhookCallView) => call.id)).toEqual(
      calls.map((call: WebhookCallView) => call.id),
    );
    expect(sent.success).toMatchObject({
      route: 'ingest-lead',
      status: 200,
      outcome: 'created',
      record_id: expect.any(String),
      placement: 'defaut',
    });
    expect(sent.invalidLead).toMatchObject({ route: 'ingest-lead', status: 400, outcome: 'invalid_payload' });
    expect(sent.badRecruitment).toMatchObject({ route: 'recruitment', status: 400, outcome: 'bad_request' });
    expect(sent.formFailed).toMatchObject({ route: 'ingest-lead', status: 400, outcome: 'invalid_payload' });
    expect(sent.lost).toMatchObject({ route: 'ingest-lead', status: 500, record_id: null });
  });

  it('--failed keeps the calls answered 400 or more; --limit keeps the newest', async () => {
    const failed = await json('webhook', 'calls', '--failed', '--workspace', seed.workspace_id);
    expect(failed.calls.map((call: WebhookCallView) => call.id)).toEqual(
      ['lost', 'formFailed', 'badRecruitment', 'invalidLead'].map((label) => sent[label as keyof typeof sent]?.id),
    );
    const two = await json('webhook', 'calls', '--workspace', seed.workspace_id, '--limit', '2');
    expect(two.calls.map((call: WebhookCallView) => call.id)).toEqual([sent.lost?.id, sent.formFailed?.id]);
    const oneFailed = await json('webhook', 'calls', '--workspace', seed.workspace_id, '--failed', '--limit=1');
    expect(oneFailed.calls.map((call: WebhookCallView) => call.id)).toEqual([sent.lost?.id]);
    expect(await json('webhook', 'calls', '--workspace', other.workspace_id)).toEqual({ calls: [] });
  });

  it.each([['0'], ['1001'], ['dix'], ['2.5'], ['-1']])('refuses --limit %s (exit 2)', async (limit) => {
    const run = await runAdminInProcess(deps, 'webhook', 'calls', '--workspace', seed.workspace_id, '--limit', limit);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/^Erreur : Valeur de --limit invalide .* de 1 à 1000/);
  });

  it('refuses --failed with a value, and on a command that does not declare it', async () => {
    const valued = await runAdminInProcess(deps, 'webhook', 'calls', '--workspace', seed.workspace_id, '--failed=oui');
    const elsewhere = await runAdminInProcess(deps, 'webhook', 'status', '--workspace', seed.workspace_id, '--failed');
    expect([valued, elsewhere].map((run) => [run.code, run.stdout])).toEqual([
      [2, ''],
      [2, ''],
    ]);
    expect(valued.stderr).toBe("Erreur : L'option --failed ne prend pas de valeur.\n");
    expect(elsewhere.stderr).toMatch(/^Erreur : Option inconnue pour « webhook status » : --failed/);
  });

  it('prints a readable table without --json', async () => {
    const run = await runAdminInProcess(deps, 'webhook', 'calls', '--workspace', seed.workspace_id, '--failed');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Appel\s+Reçu le\s+Webhook\s+Statut\s+Résultat\s+Fiche\s+Requête\s+Appels$/);
    expect(lines.slice(2).map((line) => line.split(/\s+/)[0])).toEqual(
      ['lost', 'formFailed', 'badRecruitment', 'invalidLead'].map((label) => sent[label as keyof typeof sent]?.id),
    );
    const none = await runAdminInProcess(deps, 'webhook', 'calls', '--workspace', other.workspace_id, '--failed');
    expect(none.stdout).toBe('Aucun appel en échec.\n');
  });
});

describe('webhook call', () => {
  it('shows the kept body as the webhook reads it: JSON, or the flat form object', async () => {
    expect(await showCall(deps, seed.workspace_id, sent.invalidLead?.id as string)).toEqual({
      call: sent.invalidLead,
      body: { first_name: 'Sans contact' },
    });
    expect(
      await json('webhook', 'call', '--workspace', seed.workspace_id, '--id', sent.formFailed?.id as string),
    ).toEqual({
      call: sent.formFailed,
      body: { first_name: 'Zoé', source: 'Salon', tag_ids: ['a', 'b'] },
    });
    expect((await showCall(deps, seed.workspace_id, sent.lost?.id as string)).body).toEqual({
      email: lostEmail,
      first_name: 'Léa',
    });
  });

  it('shows null for a success (no body kept), and the ids in capitals', async () => {
    const shown = await json(
      'webhook',
      'call',
      '--workspace',
      seed.workspace_id.toUpperCase(),
      '--id',
      (sent.success?.id as string).toUpperCase(),
    );
    expect(shown).toEqual({ call: sent.success, body: null });
  });

  it('refuses an unknown id, another workspace call, and a malformed id (exit 2)', async () => {
    const unknown = randomUUID();
    const runs = await Promise.all([
      runAdminInProcess(deps, 'webhook', 'call', '--workspace', seed.workspace_id, '--id', unknown),
      runAdminInProcess(
        deps,
        'webhook',
        'call',
        '--workspace',
        other.workspace_id,
        '--id',
        sent.invalidLead?.id as string,
      ),
      runAdminInProcess(deps, 'webhook', 'call', '--workspace', seed.workspace_id, '--id', 'appel-1'),
    ]);
    expect(runs.map((run) => [run.code, run.stdout])).toEqual([
      [2, ''],
      [2, ''],
      [2, ''],
    ]);
    expect(runs.map((run) => run.stderr)).toEqual([
      `Erreur : Appel du webhook inconnu dans cet espace : ${unknown}\n`,
      `Erreur : Appel du webhook inconnu dans cet espace : ${sent.invalidLead?.id}\n`,
      expect.stringMatching(/^Erreur : Identifiant d'appel du webhook invalide/),
    ]);
  });
});

describe('webhook replay', () => {
  it('replays a failed lead as it was: the same error, a new journal entry of the same route', async () => {
    const replayed = await replayCall(deps, seed.workspace_id, sent.invalidLead?.id as string, async (route, event) =>
      ingestLead(deps)(event, aLambdaContext()),
    );
    expect(replayed.response.status).toBe(400);
    expect(replayed.call).toEqual({
      ...sent.invalidLead,
      id: expect.any(String),
      at: expect.any(String),
      request_id: expect.stringMatching(/^admin-replay-[0-9a-f-]{36}$/),
    });
    expect(replayed.call?.id).not.toBe(sent.invalidLead?.id);
    const [newest] = await listWebhookCalls(deps, seed.workspace_id, { failed: false, limit: 1, now: new Date() });
    expect(newest?.id).toBe(replayed.call?.id);
    expect(newest?.body).toBe(JSON.stringify({ first_name: 'Sans contact' }));
    // docs/api.md#audit-log: the replay's audit entry, written right after the handler's own writes.
    const [audited] = (await listAudit(deps, { workspaceId: seed.workspace_id, limit: 1 })).entries;
    expect(audited).toMatchObject({
      member_id: null,
      action: 'webhook_call.replayed',
      target_id: sent.invalidLead?.id,
      summary: `Appel du webhook ${sent.invalidLead?.id} rejoué (réponse 400).`,
    });
  });

  it('replays a failed recruitment call through its own webhook (command line)', async () => {
    const replayed = await json(
      'webhook',
      'replay',
      '--workspace',
      seed.workspace_id,
      '--id',
      sent.badRecruitment?.id as string,
    );
    expect(replayed).toEqual({
      call: {
        ...sent.badRecruitment,
        id: expect.any(String),
        at: expect.any(String),
        request_id: expect.stringMatching(/^admin-replay-/),
      },
      response: { status: 400, body: { error: expect.objectContaining({ code: 'bad_request' }) } },
    });
    expect(replayed.call.id).not.toBe(sent.badRecruitment?.id);
  });

  it('replays a form-encoded lead lost to a storage fault: 200, the prospect is created', async () => {
    const replayed = await json('webhook', 'replay', '--workspace', seed.workspace_id, '--id', sent.lost?.id as string);
    expect(replayed.response).toEqual({
      status: 200,
      body: expect.objectContaining({ status: 'created', prospect_id: expect.any(String) }),
    });
    expect(replayed.call).toMatchObject({
      route: 'ingest-lead',
      status: 200,
      outcome: 'created',
      record_id: replayed.response.body.prospect_id,
      placement: 'defaut',
    });
    const found = await api.request('GET', '/prospects', {
      query: { email: lostEmail },
      headers: { Authorization: `Bearer ${seed.api_keys.admin?.secret}` },
    });
    expect(found.status).toBe(200);
    expect(JSON.stringify(found.body)).toContain(replayed.response.body.prospect_id);
    expect(JSON.stringify(found.body)).toContain('Léa');
  });

  it('answers its own new call, though another call of the webhook lands while it runs', async () => {
    const replayed = await replayCall(deps, seed.workspace_id, sent.invalidLead?.id as string, async (route, event) => {
      const answer = await ingestLead(deps)(event, aLambdaContext());
      expect((await post('ingest-lead', { first_name: 'Pendant le rejeu' })).status).toBe(400);
      return answer;
    });
    const [newest] = await listWebhookCalls(deps, seed.workspace_id, { failed: false, limit: 1, now: new Date() });
    expect(newest?.request_id).not.toBe(replayed.call?.request_id);
    expect(replayed.call).toMatchObject({ status: 400, request_id: expect.stringMatching(/^admin-replay-/) });
  });

  it('refuses a call that names another endpoint than its workspace’s, running nothing', async () => {
    const now = new Date();
    const stray: WebhookCall = {
      ...{ id: timeOrderedId(now), workspace_id: seed.workspace_id, endpoint_id: randomUUID(), at: now.toISOString() },
      ...{ route: 'ingest-lead', status: 400, outcome: 'invalid_payload', record_id: null, placement: null },
      ...{ warnings: [], request_id: null, body: '{}', content_type: 'application/json' },
    };
    await journalWebhookCall(deps, stray);
    const invoke = jest.fn<WebhookInvoker>();
    await expect(replayCall(deps, seed.workspace_id, stray.id, invoke)).rejects.toThrow(stray.endpoint_id);
    expect(invoke).not.toHaveBeenCalled();
  });

  it('refuses a call without kept body, and another workspace call, writing nothing (exit 2)', async () => {
    const before = await listWebhookCalls(deps, seed.workspace_id, { failed: false, limit: 1000, now: new Date() });
    const runs = await Promise.all([
      runAdminInProcess(
        deps,
        'webhook',
        'replay',
        '--workspace',
        seed.workspace_id,
        '--id',
        sent.success?.id as string,
      ),
      runAdminInProcess(deps, 'webhook', 'replay', '--workspace', other.workspace_id, '--id', sent.lost?.id as string),
      runAdminInProcess(deps, 'webhook', 'replay', '--workspace', seed.workspace_id, '--id', 'x'.repeat(500), '--json'),
    ]);
    expect(runs.map((run) => [run.code, run.stdout])).toEqual([
      [2, ''],
      [2, ''],
      [2, ''],
    ]);
    expect(runs[0]?.stderr).toBe(
      `Erreur : L'appel ${sent.success?.id} n'a pas de corps conservé (seuls les appels authentifiés en échec gardent le leur) : rien à rejouer.\n`,
    );
    expect(runs[1]?.stderr).toContain('Appel du webhook inconnu dans cet espace');
    expect(runs[2]?.stderr).toMatch(/^Erreur : Identifiant d'appel du webhook invalide/);
    expect(await listWebhookCalls(deps, seed.workspace_id, { failed: false, limit: 1000, now: new Date() })).toEqual(
      before,
    );
    expect(await listWebhookCalls(deps, other.workspace_id, { failed: false, limit: 1000, now: new Date() })).toEqual(
      [],
    );
  });
});
