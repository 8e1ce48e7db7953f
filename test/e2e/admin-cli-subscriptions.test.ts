import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createSubscription } from '../../lib/settings/subscriptions';
import { productionSecretsDeps } from '../../lib/storage/client';
import { eventTypes } from '../../lib/domain/events/event-types';
import { derivedTimeOrderedId } from '../../lib/storage/table-items';
import { eventItems } from '../../lib/storage/event-items';
import { runAdminInProcess } from '../support/admin-cli';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/**
 * `subscription …` on the admin command line (docs/api.md#outbound-events), its `main` in process (the process
 * around it, the document alone on stdout and the exit code, is proven by test/e2e/admin-cli.test.ts): each
 * `--json` run prints exactly one JSON document, each readable run its French text or table.
 */

const deps = productionSecretsDeps();
afterAll(() => deps.db.destroy());
const inProcess = (...args: string[]) => runAdminInProcess(deps, ...args);

it('create, list, disable, enable, deliveries and delete print one document each', async () => {
  const { workspace_id: workspaceId } = await seedTestWorkspace(aWorkspace({ api_keys: [], prospects: [] }));
  const workspace = ['--workspace', workspaceId];

  const created = await inProcess(
    'subscription',
    'create',
    ...workspace,
    '--url',
    'http://127.0.0.1:4000/crm',
    '--json',
  );
  expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
  const subscription = JSON.parse(created.stdout);
  expect(subscription).toEqual({
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    url: 'http://127.0.0.1:4000/crm',
    events: [...eventTypes],
    secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
  });
  const byId = [...workspace, '--id', subscription.id];

  const readable = await inProcess(
    'subscription',
    'create',
    ...workspace,
    '--url',
    'https://exemple.fr/a',
    '--events',
    'candidate.created',
  );
  expect(readable.code).toBe(0);
  expect(readable.stdout).toMatch(
    /^Abonnement\s+: [0-9a-f-]{36}\nURL\s+: https:\/\/exemple\.fr\/a\nÉvénements\s+: candidate\.created\nSecret\s+: whsec_/,
  );

  const [listed, table] = await Promise.all([
    inProcess('subscription', 'list', ...workspace, '--json'),
    inProcess('subscription', 'list', ...workspace),
  ]);
  expect(JSON.parse(listed.stdout)).toEqual({
    subscriptions: [
      {
        id: subscription.id,
        url: subscription.url,
        events: [...eventTypes],
        active: true,
        created_at: expect.any(String),
      },
      expect.objectContaining({ url: 'https://exemple.fr/a', events: ['candidate.created'], active: true }),
    ],
  });
  const lines = table.stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^Abonnement\s+URL\s+Événements\s+Actif\s+Créé le$/);
  expect(lines[2]).toMatch(
    new RegExp(`^${subscription.id}\\s+http://127\\.0\\.0\\.1:4000/crm\\s+tous\\s+oui\\s+\\d{4}-`),
  );
  expect(lines[3]).toMatch(/https:\/\/exemple\.fr\/a\s+candidate\.created\s+oui/);
  for (const run of [listed, table]) expect(run.stdout).not.toContain('whsec_');

  const disabled = await inProcess('subscription', 'disable', ...byId, '--json');
  expect(JSON.parse(disabled.stdout)).toEqual({ id: subscription.id, active: false });
  const enabled = await inProcess('subscription', 'enable', ...byId);
  expect(enabled.stdout).toBe(`Abonnement ${subscription.id} activé.\n`);

  const at = new Date();
  const eventId = derivedTimeOrderedId(at, `e2e#${subscription.id}`);
  const delivery = eventItems.delivery({
    id: derivedTimeOrderedId(at, `${eventId}#${subscription.id}`),
    workspace_id: workspaceId,
    subscription_id: subscription.id,
    event_id: eventId,
    event_type: 'prospect.created',
    payload: '{}',
    status: 'pending',
    attempts: 1,
    step: 1,
    last_status_code: null,
    last_error: 'Connexion refusée.',
    next_attempt_at: new Date(at.getTime() + 5_000).toISOString(),
    created_at: at.toISOString(),
    expires_at: Math.floor(at.getTime() / 1000) + 60,
  });
  await deps.db.send(new PutCommand({ TableName: deps.tableName, Item: delivery }));
  const deliveries = await inProcess('subscription', 'deliveries', ...byId, '--status', 'pending', '--json');
  expect({ code: deliveries.code, stderr: deliveries.stderr }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(deliveries.stdout)).toEqual({
    deliveries: [
      {
        id: delivery.id,
        event_id: eventId,
        type: 'prospect.created',
        status: 'pending',
        attempts: 1,
        last_status_code: null,
        last_error: 'Connexion refusée.',
        next_attempt_at: delivery.next_attempt_at,
        created_at: delivery.created_at,
      },
    ],
  });
  const none = await inProcess('subscription', 'deliveries', ...byId, '--status', 'failed');
  expect(none.stdout).toBe('Aucun envoi avec ce statut.\n');

  const deleted = await inProcess('subscription', 'delete', ...byId, '--json');
  expect(JSON.parse(deleted.stdout)).toEqual({ id: subscription.id, deleted: true });
  const again = await inProcess('subscription', 'delete', ...byId, '--json');
  expect(again).toEqual({
    code: 2,
    stdout: '',
    stderr: `Erreur : Abonnement inconnu dans cet espace : ${subscription.id}\n`,
  });
});

it('rotate-secret prints the new secret once, list never shows one, migrate-secrets moves nothing new', async () => {
  const { workspace_id: workspaceId } = await seedTestWorkspace(aWorkspace({ api_keys: [], prospects: [] }));
  const workspace = ['--workspace', workspaceId];
  const created = await createSubscription(deps, { workspaceId, url: 'https://exemple.fr/crm', network: 'local' });
  const byId = [...workspace, '--id', created.id];

  const [rotated, readable] = [
    await inProcess('subscription', 'rotate-secret', ...byId, '--json'),
    await inProcess('subscription', 'rotate-secret', ...byId),
  ];
  expect({ code: rotated.code, stderr: rotated.stderr }).toEqual({ code: 0, stderr: '' });
  const rotation = JSON.parse(rotated.stdout);
  expect(rotation).toEqual({ id: created.id, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
  expect(rotation.secret).not.toBe(created.secret);
  expect(readable.code).toBe(0);
  expect(readable.stdout).toMatch(new RegExp(`^Abonnement\\s+: ${created.id}\nSecret\\s+: whsec_\\S+\n\n`));
  expect(readable.stdout).toContain(
    "Pendant 24 heures, chaque envoi est signé avec l'ancien secret et avec le nouveau",
  );
  const printed = [created.secret, rotation.secret, readable.stdout.match(/whsec_\S+/)?.[0] ?? ''];
  expect(new Set(printed).size).toBe(3);

  const [listed, table, unknown, migrated] = await Promise.all([
    inProcess('subscription', 'list', ...workspace, '--json'),
    inProcess('subscription', 'list', ...workspace),
    inProcess('subscription', 'rotate-secret', ...workspace, '--id', randomUUID()),
    inProcess('subscription', 'migrate-secrets', ...workspace, '--json'),
  ]);
  for (const run of [listed, table]) {
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toContain(created.id);
    for (const secret of printed) expect(run.stdout).not.toContain(secret.slice('whsec_'.length));
  }
  expect({ code: unknown.code, stdout: unknown.stdout }).toEqual({ code: 2, stdout: '' });
  expect(unknown.stderr).toMatch(/^Erreur : Abonnement inconnu dans cet espace/);
  expect(JSON.parse(migrated.stdout)).toEqual({ migrated: [] });
});

it('refuses a bad URL with exit 2 and a French message', async () => {
  const { workspace_id: workspaceId } = await seedTestWorkspace(aWorkspace({ api_keys: [], prospects: [] }));
  const run = await inProcess(
    'subscription',
    'create',
    '--workspace',
    workspaceId,
    '--url',
    'ftp://exemple.fr/',
    '--json',
  );
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
  expect(run.stderr).toContain("Erreur : L'URL doit être en https");
});
