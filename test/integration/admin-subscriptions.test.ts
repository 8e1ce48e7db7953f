import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { listAudit } from '../../lib/settings/audit';
import type { SeedOutput } from '../../tools/seed/seed';
import { main } from '../../tools/admin/main';
import { productionDeps, productionSecretsDeps } from '../../lib/storage/client';
import { messages } from '../../lib/messages';
import { eventTypes } from '../../lib/domain/events/event-types';
import { derivedTimeOrderedId, keys, workspaceConfigPk } from '../../lib/storage/table-items';
import { rotationOverlapMs } from '../../lib/domain/events/signing';
import type { DeliveryStatus } from '../../lib/domain/model';
import { eventItems, type DeliveryItem, type SigningSecretsItem } from '../../lib/storage/event-items';
import { runAdminInProcess, type AdminRun } from '../support/admin-cli';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/**
 * `subscription …` (docs/api.md#outbound-events) through the same `main` as the command line, on DynamoDB
 * Local: create, list, disable, enable, delete, rotate-secret, migrate-secrets (from subscriptions
 * put as an earlier version wrote them), deliveries (from delivery items put directly) and
 * redeliver (to an HTTP receiver on this machine, signature verified with `standardwebhooks`).
 */

const deps = productionSecretsDeps();
const emptyWorkspace = () => seedTestWorkspace(aWorkspace({ api_keys: [], prospects: [] }));

const admin = (...args: string[]): Promise<AdminRun> => runAdminInProcess(deps, ...args);

/** A command that must succeed: its one JSON document. */
async function json(...args: string[]): Promise<Record<string, unknown>> {
  const run = await admin(...args, '--json');
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/** A command the administrator must correct: exit 2, nothing on stdout, its French message. */
async function refused(...args: string[]): Promise<string> {
  const run = await admin(...args, '--json');
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
  expect(run.stderr).toMatch(/^Erreur : /);
  return run.stderr;
}

type Created = { id: string; url: string; events: string[]; secret: string };
const create = async (workspace: string, url: string, ...more: string[]) =>
  (await json('subscription', 'create', '--workspace', workspace, '--url', url, ...more)) as Created;
const listed = async (workspace: string) =>
  ((await json('subscription', 'list', '--workspace', workspace)) as { subscriptions: Record<string, unknown>[] })
    .subscriptions;

const getItem = async (key: { pk: string; sk: string }, tableName = deps.tableName) =>
  (await deps.db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
const storedSubscription = (workspace: string, id: string) => getItem(keys.subscription(workspace, id));
const storedSecrets = (workspace: string, id: string) =>
  getItem(keys.signingSecrets(workspace, id), deps.secretsTableName);

let mine: SeedOutput;
let theirs: SeedOutput;

beforeAll(async () => {
  [mine, theirs] = await Promise.all([emptyWorkspace(), emptyWorkspace()]);
});
afterAll(() => deps.db.destroy());

describe('subscription create and list', () => {
  it('creates an active subscription to the seven types, its secret printed once and never listed', async () => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const created = await create(workspace, 'https://hooks.exemple.fr/crm');
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://hooks.exemple.fr/crm',
      events: [...eventTypes],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    // The secret is a Standard Webhooks key as such: what it signs, it verifies.
    const signer = new Webhook(created.secret);
    const at = new Date();
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signer.sign('msg_1', at, '{"a":1}'),
    };
    expect(signer.verify('{"a":1}', headers)).toEqual({ a: 1 });

    // The subscription, which the routes and the stream handler may read, holds no secret: its
    // item in the signing-secrets table does, written in the same transaction.
    expect(await storedSubscription(workspace, created.id)).toEqual(
      expect.not.objectContaining({ secret: expect.anything() }),
    );
    expect(await storedSubscription(workspace, created.id)).toMatchObject({ type: 'subscription', active: true });
    expect(await storedSecrets(workspace, created.id)).toEqual({
      ...keys.signingSecrets(workspace, created.id),
      type: 'signing_secrets',
      workspace_id: workspace,
      subscription_id: created.id,
      secret: created.secret,
    });

    const list = await admin('subscription', 'list', '--workspace', workspace, '--json');
    expect(JSON.parse(list.stdout)).toEqual({
      subscriptions: [
        {
          id: created.id,
          url: created.url,
          events: [...eventTypes],
          active: true,
          created_at: expect.stringMatching(/Z$/),
        },
      ],
    });
    const text = await admin('subscription', 'list', '--workspace', workspace);
    for (const printed of [list.stdout, text.stdout]) {
      expect(printed).not.toContain(created.secret);
      expect(printed).not.toContain('whsec_');
    }
  });

  it('prints the secret once in the readable output, with the warning', async () => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const run = await admin('subscription', 'create', '--workspace', workspace, '--url', 'https://exemple.fr/h');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Secret\s+: whsec_/m);
    expect(run.stdout).toContain("Le secret n'est affiché qu'une fois");
  });

  it('keeps the event types asked for, once each, and lists the oldest subscription first', async () => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const first = await create(
      workspace,
      'https://a.exemple.fr/',
      '--events',
      'prospect.tag_added, candidate.created,prospect.tag_added',
    );
    expect(first.events).toEqual(['prospect.tag_added', 'candidate.created']);
    const second = await create(workspace, 'https://b.exemple.fr/', '--events', 'prospect.created');
    expect(first.secret).not.toBe(second.secret);
    expect((await listed(workspace)).map((subscription) => subscription.id)).toEqual([first.id, second.id]);
    const table = await admin('subscription', 'list', '--workspace', workspace);
    expect(table.stdout.split('\n')[0]).toMatch(/^Abonnement\s+URL\s+Événements\s+Actif\s+Créé le$/);
    expect(table.stdout).toContain('prospect.tag_added, candidate.created');
  });

  it('accepts plain http to 127.0.0.1 or localhost locally, refuses it with --aws', async () => {
    const { workspace_id: workspace } = await emptyWorkspace();
    expect((await create(workspace, 'http://127.0.0.1:4000/crm')).url).toBe('http://127.0.0.1:4000/crm');
    expect((await create(workspace, 'http://localhost:4000/crm')).url).toBe('http://localhost:4000/crm');
    const args = ['subscription', 'create', '--workspace', workspace, '--aws'];
    expect(await refused(...args, '--url', 'http://127.0.0.1:4000/crm')).toContain("L'URL doit être en https");
    expect(await refused(...args, '--url', 'https://127.0.0.1/crm')).toContain("n'est pas publique");
    expect(await refused(...args, '--url', 'https://[fd12::1]/crm')).toContain("n'est pas publique");
    expect(await refused(...args, '--url', 'https://169.254.169.254/latest')).toContain('169.254.169.254');
    expect((await json(...args, '--url', 'https://hooks.exemple.fr/crm')).url).toBe('https://hooks.exemple.fr/crm');
    expect(await listed(workspace)).toHaveLength(3);
  });

  it.each([
    ['ftp:', 'ftp://exemple.fr/crm', /L'URL doit être en https/],
    ['plain http to a host', 'http://exemple.fr/crm', /L'URL doit être en https/],
    ['user and password', 'https://zapier:s3cr3t-pw@exemple.fr/crm', /ni utilisateur ni mot de passe/],
    [
      '3000 characters',
      `https://exemple.fr/${'x'.repeat(3000)}`,
      /URL trop longue : 3019 caractères pour 2048 au plus/,
    ],
    ['no scheme', 'exemple.fr/crm', /URL invalide : « exemple\.fr\/crm »/],
    ['blanks', '   ', /Option obligatoire manquante ou vide : --url/],
  ])('refuses a URL with %s, storing nothing', async (_label, url, message) => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const stderr = await refused('subscription', 'create', '--workspace', workspace, '--url', url);
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain('s3cr3t-pw');
    expect(stderr.length).toBeLessThan(400);
    expect(await listed(workspace)).toEqual([]);
  });

  it.each([
    ['prospect.deleted', /Type d'événement inconnu : prospect\.deleted \(types possibles : prospect\.created, /],
    ['prospect.created,PROSPECT.UPDATED', /inconnu : PROSPECT\.UPDATED/],
    [',', /au moins un type/],
  ])('refuses --events %j, storing nothing', async (events, message) => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const args = ['--workspace', workspace, '--url', 'https://exemple.fr/', '--events', events];
    expect(await refused('subscription', 'create', ...args)).toMatch(message);
    expect(await listed(workspace)).toEqual([]);
  });

  it('refuses an unknown workspace', async () => {
    const unknown = randomUUID();
    expect(await refused('subscription', 'create', '--workspace', unknown, '--url', 'https://exemple.fr/')).toContain(
      `Espace de travail inconnu : ${unknown}`,
    );
    expect(await refused('subscription', 'list', '--workspace', unknown)).toContain('Espace de travail inconnu');
  });
});

describe('with --aws, the signing-secrets table named by SECRETS_TABLE_NAME', () => {
  /** As an operator runs it with the stack's TABLE_NAME output only: SECRETS_TABLE_NAME not exported. */
  const withoutSecretsTable = async (...args: string[]): Promise<AdminRun> => {
    const run: AdminRun = { code: 0, stdout: '', stderr: '' };
    run.code = await main([...args, '--aws', '--json'], {
      env: { ...process.env, SECRETS_TABLE_NAME: undefined },
      deps: productionDeps(),
      stdout: (text) => void (run.stdout += text),
      stderr: (text) => void (run.stderr += text),
    });
    return run;
  };

  it('refuses the commands that write or read a secret, and writes nothing; the others run', async () => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const { id } = await create(workspace, 'https://exemple.fr/crm');
    const refusals = [
      ['subscription', 'create', '--workspace', workspace, '--url', 'https://exemple.fr/autre'],
      ['subscription', 'rotate-secret', '--workspace', workspace, '--id', id],
      ['subscription', 'delete', '--workspace', workspace, '--id', id],
      ['subscription', 'migrate-secrets', '--workspace', workspace],
    ];
    for (const args of refusals) {
      expect(await withoutSecretsTable(...args)).toEqual({
        code: 2,
        stdout: '',
        stderr: `Erreur : ${messages.admin.secretsTableRequired}\n`,
      });
    }
    expect((await listed(workspace)).map((subscription) => subscription.id)).toEqual([id]);
    expect(await storedSecrets(workspace, id)).not.toHaveProperty('previous_secret');
    const list = await withoutSecretsTable('subscription', 'list', '--workspace', workspace);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ subscriptions: [{ id }] });
  });
});

describe('subscription disable, enable and delete', () => {
  it('turns a subscription off and on, then deletes it', async () => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const { id } = await create(workspace, 'https://exemple.fr/crm');
    const other = await create(workspace, 'https://exemple.fr/autre');
    const byId = ['--workspace', workspace, '--id', id];

    expect(await json('subscription', 'disable', ...byId)).toEqual({ id, active: false });
    expect(await json('subscription', 'disable', ...byId)).toEqual({ id, active: false });
    expect((await listed(workspace)).map((subscription) => subscription.active)).toEqual([false, true]);
    expect((await admin('subscription', 'disable', ...byId)).stdout).toBe(`Abonnement ${id} désactivé.\n`);

    expect(await json('subscription', 'enable', ...byId)).toEqual({ id, active: true });
    expect((await listed(workspace)).map((subscription) => subscription.active)).toEqual([true, true]);

    expect(await json('subscription', 'delete', ...byId)).toEqual({ id, deleted: true });
    expect((await listed(workspace)).map((subscription) => subscription.id)).toEqual([other.id]);
    for (const command of ['delete', 'enable', 'disable', 'deliveries']) {
      expect(await refused('subscription', command, ...byId)).toContain(`Abonnement inconnu dans cet espace : ${id}`);
    }
    // Marked deleted and expiring now (no function may delete from WS#: TTL removes it); a refused enable
    // changed nothing of it.
    const gone = await deps.db.send(
      new GetCommand({ TableName: deps.tableName, Key: keys.subscription(workspace, id), ConsistentRead: true }),
    );
    expect(gone.Item).toMatchObject({ active: false, deleted_at: expect.any(String) });
    expect(gone.Item?.expires_at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(await storedSecrets(workspace, id)).toBeUndefined();
    expect(await storedSecrets(workspace, other.id)).toMatchObject({ secret: other.secret });
  });

  it("keeps two workspaces apart: B can neither see, change nor delete A's subscription", async () => {
    const a = await create(mine.workspace_id, 'https://a.exemple.fr/');
    const asB = ['--workspace', theirs.workspace_id, '--id', a.id];
    for (const command of ['disable', 'enable', 'delete', 'deliveries']) {
      expect(await refused('subscription', command, ...asB)).toContain(`Abonnement inconnu dans cet espace : ${a.id}`);
    }
    expect((await listed(theirs.workspace_id)).map((subscription) => subscription.id)).not.toContain(a.id);
    expect((await listed(mine.workspace_id)).find((subscription) => subscription.id === a.id)).toMatchObject({
      active: true,
    });
    // An id typed in capitals names the same subscription, in its own workspace only.
    const upper = ['--workspace', mine.workspace_id, '--id', a.id.toUpperCase()];
    expect(await json('subscription', 'disable', ...upper)).toEqual({ id: a.id, active: false });
  });

  it('refuses a malformed id before any read', async () => {
    const args = ['--workspace', mine.workspace_id, '--id', 'pas-un-uuid'];
    expect(await refused('subscription', 'disable', ...args)).toContain("Identifiant d'abonnement invalide");
  });
});

describe('subscription rotate-secret', () => {
  const rotate = async (workspace: string, id: string) =>
    (await json('subscription', 'rotate-secret', '--workspace', workspace, '--id', id)) as {
      id: string;
      secret: string;
    };

  it('prints a new secret once; the replaced one signs beside it for 24 hours; list shows neither', async () => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const created = await create(workspace, 'https://exemple.fr/crm');
    const rotated = await rotate(workspace, created.id);
    expect(rotated).toEqual({ id: created.id, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
    expect(rotated.secret).not.toBe(created.secret);

    const stored = (await storedSecrets(workspace, created.id)) as SigningSecretsItem;
    expect(stored).toMatchObject({ secret: rotated.secret, previous_secret: created.secret });
    expect(Date.parse(stored.previous_until as string) - Date.parse(stored.rotated_at as string)).toBe(
      rotationOverlapMs,
    );
    expect(Math.abs(Date.parse(stored.rotated_at as string) - Date.now())).toBeLessThan(60_000);

    const readable = await admin('subscription', 'rotate-secret', '--workspace', workspace, '--id', created.id);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toMatch(new RegExp(`^Abonnement\\s+: ${created.id}\nSecret\\s+: whsec_`));
    expect(readable.stdout).toContain("Le nouveau secret n'est affiché qu'une fois");

    const lists = [
      await admin('subscription', 'list', '--workspace', workspace, '--json'),
      await admin('subscription', 'list', '--workspace', workspace),
    ];
    for (const run of lists) {
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toContain('whsec_');
      for (const secret of [created.secret, rotated.secret]) expect(run.stdout).not.toContain(secret.slice(6));
    }
    expect(await storedSubscription(workspace, created.id)).toEqual(
      expect.not.objectContaining({ secret: expect.anything() }),
    );
  });

  it('a second rotation within the 24 hours drops the oldest', async () => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const created = await create(workspace, 'https://exemple.fr/crm');
    const first = await rotate(workspace, created.id);
    const second = await rotate(workspace, created.id);
    const stored = (await storedSecrets(workspace, created.id)) as SigningSecretsItem;
    expect([stored.secret, stored.previous_secret]).toEqual([second.secret, first.secret]);
    expect(JSON.stringify(stored)).not.toContain(created.secret);
  });

  it('rotations at once are applied one after the other: none is lost to a stale read', async () => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const created = await create(workspace, 'https://exemple.fr/crm');
    const printed = (await Promise.all(Array.from({ length: 6 }, () => rotate(workspace, created.id)))).map(
      (rotated) => rotated.secret,
    );
    expect(new Set(printed).size).toBe(6);
    const stored = (await storedSecrets(workspace, created.id)) as SigningSecretsItem;
    // Each rotation moved the secret it found: after six, both that sign are printed ones, and the
    // first secret is gone (two rotations reading it both would have kept it as `previous_secret`).
    expect(printed).toContain(stored.secret);
    expect(printed).toContain(stored.previous_secret);
    expect(stored.previous_secret).not.toBe(stored.secret);
  });

  it('refuses an unknown subscription, another workspace’s, and one whose secret was never moved', async () => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const unknown = randomUUID();
    expect(await refused('subscription', 'rotate-secret', '--workspace', workspace, '--id', unknown)).toContain(
      `Abonnement inconnu dans cet espace : ${unknown}`,
    );
    const theirsSubscription = await create(theirs.workspace_id, 'https://exemple.fr/b');
    expect(
      await refused('subscription', 'rotate-secret', '--workspace', workspace, '--id', theirsSubscription.id),
    ).toContain(`Abonnement inconnu dans cet espace : ${theirsSubscription.id}`);
    expect(await storedSecrets(theirs.workspace_id, theirsSubscription.id)).toMatchObject({
      secret: theirsSubscription.secret,
    });
    expect(await storedSecrets(theirs.workspace_id, theirsSubscription.id)).not.toHaveProperty('previous_secret');

    const legacy = await aLegacySubscription(workspace);
    expect(await refused('subscription', 'rotate-secret', '--workspace', workspace, '--id', legacy.id)).toContain(
      `Le secret de l'abonnement ${legacy.id} n'a pas encore été déplacé : lancez d'abord « subscription migrate-secrets ».`,
    );
    expect(await storedSecrets(workspace, legacy.id)).toBeUndefined();
  });
});

/** A subscription as an earlier version wrote it: its secret on the `WS#` item, nothing in the secrets table. */
async function aLegacySubscription(workspace: string): Promise<{ id: string; secret: string }> {
  const id = randomUUID();
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const item = eventItems.subscription({
    id,
    workspace_id: workspace,
    url: 'https://exemple.fr/ancien',
    events: [...eventTypes],
    active: true,
    created_at: new Date().toISOString(),
  });
  await deps.db.send(new PutCommand({ TableName: deps.tableName, Item: { ...item, secret } }));
  return { id, secret };
}

describe('subscription migrate-secrets', () => {
  it('moves every secret an earlier version left on WS# into the signing-secrets table, once', async () => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const legacy = [await aLegacySubscription(workspace), await aLegacySubscription(workspace)];
    const current = await create(workspace, 'https://exemple.fr/crm');
    const args = ['subscription', 'migrate-secrets', '--workspace', workspace];

    const moved = await json(...args);
    expect(moved).toEqual({
      migrated: expect.arrayContaining(legacy.map(({ id }) => ({ workspace_id: workspace, id }))),
    });
    expect(moved.migrated).toHaveLength(2);
    for (const { id, secret } of legacy) {
      expect(await storedSecrets(workspace, id)).toEqual({
        ...keys.signingSecrets(workspace, id),
        type: 'signing_secrets',
        workspace_id: workspace,
        subscription_id: id,
        secret,
      });
    }
    expect(await storedSecrets(workspace, current.id)).toMatchObject({ secret: current.secret });
    // What every non-signer may read of the workspace (its WS# partition) holds no secret any more.
    const { Items = [] } = await deps.db.send(
      new QueryCommand({
        TableName: deps.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': workspaceConfigPk(workspace) },
        ConsistentRead: true,
      }),
    );
    expect(Items.length).toBeGreaterThan(3);
    expect(JSON.stringify(Items)).not.toContain('whsec_');

    expect(await json(...args)).toEqual({ migrated: [] });
    expect((await admin(...args)).stdout).toBe('Aucun secret à déplacer.\n');
    // Once moved, the secret rotates like any other.
    const [first] = legacy as [{ id: string; secret: string }];
    await json('subscription', 'rotate-secret', '--workspace', workspace, '--id', first.id);
    expect(await storedSecrets(workspace, first.id)).toMatchObject({ previous_secret: first.secret });
  });

  it('prints a readable table of what it moved, and refuses an unknown workspace', async () => {
    const { workspace_id: workspace } = await emptyWorkspace();
    const legacy = await aLegacySubscription(workspace);
    const run = await admin('subscription', 'migrate-secrets', '--workspace', workspace);
    expect(run.stdout.split('\n')[0]).toMatch(/^Espace de travail\s+Abonnement$/);
    expect(run.stdout).toContain(`${workspace}  ${legacy.id}`);
    expect(run.stdout).not.toContain(legacy.secret.slice(6));
    const unknown = randomUUID();
    expect(await refused('subscription', 'migrate-secrets', '--workspace', unknown)).toContain(
      `Espace de travail inconnu : ${unknown}`,
    );
  });
});

describe('subscription deliveries', () => {
  // Within their 30 days: deliveries past them are never listed (docs/data-model.md, "Webhook call journal").
  const base = Date.now() - 24 * 3600 * 1000;

  /** A delivery as the stream handler and the delivery function leave it, `minutes` after `base`. */
  function aDelivery(workspace: string, subscription: string, minutes: number, status: DeliveryStatus, payload = '{}') {
    const at = new Date(base + minutes * 60_000);
    const eventId = derivedTimeOrderedId(at, `test#${randomUUID()}`);
    return eventItems.delivery({
      id: derivedTimeOrderedId(at, `${eventId}#${subscription}`),
      workspace_id: workspace,
      subscription_id: subscription,
      event_id: eventId,
      event_type: 'prospect.created',
      payload,
      status,
      attempts: status === 'pending' ? 1 : 3,
      step: status === 'pending' ? 1 : 0,
      last_status_code: status === 'delivered' ? 204 : 503,
      last_error: status === 'delivered' ? null : 'Réponse HTTP 503 : une réponse 2xx est attendue.',
      next_attempt_at: status === 'pending' ? new Date(at.getTime() + 5_000).toISOString() : null,
      created_at: at.toISOString(),
      expires_at: Math.floor(at.getTime() / 1000) + 30 * 24 * 3600,
    });
  }
  const put = (item: DeliveryItem) => deps.db.send(new PutCommand({ TableName: deps.tableName, Item: item }));

  const view = (item: DeliveryItem) => ({
    id: item.id,
    event_id: item.event_id,
    type: item.event_type,
    status: item.status,
    attempts: item.attempts,
    last_status_code: item.last_status_code,
    last_error: item.last_error,
    next_attempt_at: item.next_attempt_at,
    created_at: item.created_at,
  });

  let workspace: string;
  let subscription: string;
  /** The subscription's deliveries, oldest first. */
  let own: DeliveryItem[];

  beforeAll(async () => {
    workspace = (await emptyWorkspace()).workspace_id;
    subscription = (await create(workspace, 'https://exemple.fr/crm')).id;
    const other = (await create(workspace, 'https://exemple.fr/autre')).id;
    const statuses: DeliveryStatus[] = ['delivered', 'failed', 'pending', 'delivered', 'failed', 'delivered'];
    own = statuses.map((status, index) => aDelivery(workspace, subscription, index * 10, status));
    // Another subscription's deliveries, newer and heavy: 2.4 MB to read past (Query pages stop at 1 MB).
    const heavy = Array.from({ length: 12 }, (_, index) =>
      aDelivery(workspace, other, 100 + index, 'delivered', JSON.stringify({ filler: 'x'.repeat(200_000) })),
    );
    // And the same subscription id in another workspace: never listed here.
    const elsewhere = aDelivery(theirs.workspace_id, subscription, 200, 'failed');
    await Promise.all([...own, ...heavy, elsewhere].map(put));
  });

  it('lists the deliveries of one subscription, newest first, past other subscriptions', async () => {
    const args = ['subscription', 'deliveries', '--workspace', workspace, '--id', subscription];
    expect(await json(...args)).toEqual({ deliveries: [...own].reverse().map(view) });
    expect(await json(...args, '--status', 'failed')).toEqual({
      deliveries: [own[4], own[1]].map((item) => view(item as DeliveryItem)),
    });
    expect(await json(...args, '--status', 'pending', '--limit', '5')).toEqual({
      deliveries: [view(own[2] as DeliveryItem)],
    });
    expect(await json(...args, '--status', 'delivered', '--limit', '2')).toEqual({
      deliveries: [own[5], own[3]].map((item) => view(item as DeliveryItem)),
    });
    expect(await json(...args, '--limit', '1')).toEqual({ deliveries: [view(own[5] as DeliveryItem)] });
  });

  it('prints a readable table in French', async () => {
    const run = await admin('subscription', 'deliveries', '--workspace', workspace, '--id', subscription);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Envoi\s+Type\s+Statut\s+Tentatives\s+Code HTTP\s+Dernière erreur/);
    expect(lines).toHaveLength(2 + own.length);
    expect(lines[2]).toMatch(new RegExp(`^${own[5]?.id}\\s+prospect\\.created\\s+livrée\\s+3\\s+204\\s+—`));
    expect(run.stdout).toContain('abandonnée');
    expect(run.stdout).toContain('en attente');
    const none = await admin(
      'subscription',
      'deliveries',
      '--workspace',
      theirs.workspace_id,
      '--id',
      (await create(theirs.workspace_id, 'https://exemple.fr/')).id,
    );
    expect(none.stdout).toBe('Aucun envoi pour cet abonnement.\n');
  });

  it.each([
    ['--status', 'échoué', /Statut invalide : « échoué » \(pending, delivered ou failed attendu\)/],
    ['--status', 'FAILED', /Statut invalide/],
    ['--limit', '0', /Valeur de --limit invalide : « 0 » \(un nombre entier de 1 à 1000 attendu\)/],
    ['--limit', '1001', /Valeur de --limit invalide/],
    ['--limit', '2.5', /Valeur de --limit invalide/],
  ])('refuses %s %j', async (option, value, message) => {
    const args = ['--workspace', workspace, '--id', subscription, option, value];
    expect(await refused('subscription', 'deliveries', ...args)).toMatch(message);
  });

  it('refuses an unknown subscription or workspace', async () => {
    const unknown = randomUUID();
    expect(await refused('subscription', 'deliveries', '--workspace', workspace, '--id', unknown)).toContain(
      `Abonnement inconnu dans cet espace : ${unknown}`,
    );
    expect(await refused('subscription', 'deliveries', '--workspace', unknown, '--id', subscription)).toContain(
      `Espace de travail inconnu : ${unknown}`,
    );
  });
});

describe('subscription redeliver', () => {
  type Received = { headers: IncomingHttpHeaders; body: string };
  let receiver: Server;
  let received: Received[];
  let answer: number;
  let url: string;

  beforeAll(async () => {
    received = [];
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/crm`;
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  /** A subscription of a new workspace to the receiver, and one failed delivery of it. */
  async function failedDelivery(): Promise<{
    workspace: string;
    secret: string;
    subscription: string;
    item: DeliveryItem;
  }> {
    const workspace = (await emptyWorkspace()).workspace_id;
    const { id: subscription, secret } = await create(workspace, url);
    const at = new Date();
    const eventId = derivedTimeOrderedId(at, `redeliver#${randomUUID()}`);
    const item = eventItems.delivery({
      id: derivedTimeOrderedId(at, `${eventId}#${subscription}`),
      workspace_id: workspace,
      subscription_id: subscription,
      event_id: eventId,
      event_type: 'prospect.note_added',
      payload: JSON.stringify({ type: 'prospect.note_added', timestamp: at.toISOString(), data: { é: '🎉' } }),
      status: 'failed',
      attempts: 8,
      step: 7,
      last_status_code: 500,
      last_error: 'Réponse HTTP 500 : une réponse 2xx est attendue.',
      next_attempt_at: null,
      created_at: at.toISOString(),
      expires_at: Math.floor(at.getTime() / 1000) + 30 * 24 * 3600,
    });
    await deps.db.send(new PutCommand({ TableName: deps.tableName, Item: item }));
    return { workspace, secret, subscription, item };
  }

  it('sends the same event again, signed, and prints the delivery after the attempt', async () => {
    const { workspace, secret, item } = await failedDelivery();
    answer = 204;
    received = [];
    const document = await json('subscription', 'redeliver', '--workspace', workspace, '--delivery', item.id);
    expect(document).toEqual({
      id: item.id,
      event_id: item.event_id,
      type: 'prospect.note_added',
      status: 'delivered',
      attempts: 9,
      last_status_code: 204,
      last_error: null,
      next_attempt_at: null,
      created_at: item.created_at,
    });
    expect(received).toHaveLength(1);
    const [request] = received as [Received];
    expect(request.body).toBe(item.payload);
    expect(request.headers['webhook-id']).toBe(item.event_id);
    expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toEqual(
      JSON.parse(item.payload),
    );

    answer = 500;
    const text = await admin('subscription', 'redeliver', '--workspace', workspace, '--delivery', item.id);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Envoi\s+: /);
    expect(text.stdout).toMatch(/Tentatives\s+: 10/);
    expect(text.stdout).toMatch(/Dernier code HTTP\s+: 500/);
    expect(received).toHaveLength(2);
    // docs/api.md#audit-log: each redelivery's audit entry, written right after the attempt; never the secret.
    const audit = await listAudit(deps, { workspaceId: workspace });
    expect(audit.entries.map((entry) => [entry.action, entry.target_id, entry.summary])).toEqual([
      ['delivery.redelivered', item.id, 'Envoi renvoyé (état : failed).'],
      ['delivery.redelivered', item.id, 'Envoi renvoyé (état : delivered).'],
      ['subscription.created', expect.any(String), `Abonnement vers ${new URL(url).host} créé.`],
    ]);
    expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it('refuses an unknown delivery, another workspace’s, and a disabled subscription’s, sending nothing', async () => {
    const { workspace, subscription, item } = await failedDelivery();
    received = [];
    const unknown = randomUUID();
    expect(await refused('subscription', 'redeliver', '--workspace', workspace, '--delivery', unknown)).toContain(
      `Envoi inconnu dans cet espace : ${unknown}`,
    );
    expect(
      await refused('subscription', 'redeliver', '--workspace', theirs.workspace_id, '--delivery', item.id),
    ).toContain('Envoi inconnu dans cet espace');
    expect(await refused('subscription', 'redeliver', '--workspace', workspace, '--delivery', 'x')).toContain(
      "Identifiant d'envoi invalide",
    );
    await json('subscription', 'disable', '--workspace', workspace, '--id', subscription);
    expect(await refused('subscription', 'redeliver', '--workspace', workspace, '--delivery', item.id)).toContain(
      'Abonnement désactivé',
    );
    await json('subscription', 'delete', '--workspace', workspace, '--id', subscription);
    expect(await refused('subscription', 'redeliver', '--workspace', workspace, '--delivery', item.id)).toContain(
      "L'abonnement de cet envoi a été supprimé",
    );
    expect(received).toEqual([]);
  });
});
