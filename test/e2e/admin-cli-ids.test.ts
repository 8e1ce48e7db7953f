import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, PutCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Command, IdOption } from '../../tools/admin/command';
import { commands } from '../../tools/admin/commands';
import type { IdKind } from '../../lib/settings/admin-input';
import type { SeedOutput } from '../../tools/seed/seed';
import { createSubscription } from '../../lib/settings/subscriptions';
import { productionSecretsDeps } from '../../lib/storage/client';
import { derivedTimeOrderedId, changeLogPrefix, keys, workspaceConfigPk } from '../../lib/storage/table-items';
import { eventItems, type DeliveryItem } from '../../lib/storage/event-items';
import { listWebhookCalls } from '../../lib/storage/webhook-call-list';
import { runAdmin, runAdminInProcess } from '../support/admin-cli';
import { timeoutForProcesses } from '../support/process-starts';
import { startTestApi } from '../support/local-api';
import { countRoundTrips } from '../support/round-trips';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

// Each test starts at most 3 processes of the command line: its time is counted from them.
jest.setTimeout(timeoutForProcesses(3));

/**
 * A bad option or unknown id exits 2 (docs/api.md#exit-codes): every command × every id option it declares ×
 * {unknown UUID, another workspace's id, malformed}, in process (the same `main` as the command
 * line), then a few through the real process. Exit 2, nothing on stdout, a French message on
 * stderr, no DynamoDB call for a malformed id, nothing changed in the table.
 */

const deps = productionSecretsDeps();
const roundTrips = countRoundTrips(deps.db);

/** One id of each kind of record, in one workspace: the kinds an id option may name. */
type Ids = Record<IdKind, string> & { endpoint: string };
let mine: Ids;
let theirs: Ids;
const unknownUuid = randomUUID();
let workDir: string;
/** Nothing listens there: `subscription redeliver` records a refused connection, quickly. */
const subscriberUrl = 'http://127.0.0.1:9/crm';

/** Valid invocations of each command, by option names; a command missing here fails the first test. */
const invocations: Record<string, string[][]> = {
  seed: [['file']],
  'workspace list': [[]],
  'workspace show': [['workspace']],
  'workspace set': [
    ['workspace', 'phone-matching'],
    ['workspace', 'phone-region'],
  ],
  'apikey create': [['workspace', 'name']],
  'apikey revoke': [['workspace', 'id']],
  'apikey list': [['workspace']],
  'webhook generate': [['workspace']],
  'webhook regenerate': [['workspace']],
  'webhook enable': [['workspace']],
  'webhook disable': [['workspace']],
  'webhook status': [['workspace']],
  'webhook calls': [['workspace'], ['workspace', 'limit']],
  'webhook call': [['workspace', 'id']],
  'webhook replay': [['workspace', 'id']],
  'tag add': [['workspace', 'name']],
  'member add': [['workspace', 'email', 'role']],
  'pipeline add': [['workspace', 'name']],
  'stage add': [['workspace', 'pipeline', 'name', 'type']],
  'column add': [['workspace', 'pipeline', 'name']],
  'prospect show': [['workspace', 'id']],
  'prospect export': [['workspace', 'id']],
  'prospect erase': [['workspace', 'id']],
  'prospect reindex': [['workspace']],
  'candidate show': [['workspace', 'id']],
  'candidate export': [['workspace', 'id']],
  'candidate erase': [['workspace', 'id']],
  'candidate reindex': [['workspace']],
  'changelog list': [
    ['workspace', 'prospect'],
    ['workspace', 'key'],
  ],
  'changelog undo': [['workspace', 'entry']],
  'subscription create': [
    ['workspace', 'url'],
    ['workspace', 'url', 'events'],
  ],
  'subscription list': [['workspace']],
  'subscription deliveries': [
    ['workspace', 'id'],
    ['workspace', 'id', 'status', 'limit'],
  ],
  'subscription redeliver': [['workspace', 'delivery']],
  'subscription rotate-secret': [['workspace', 'id']],
  'subscription migrate-secrets': [['workspace']],
  'subscription disable': [['workspace', 'id']],
  'subscription enable': [['workspace', 'id']],
  'subscription delete': [['workspace', 'id']],
  'stream replay': [['file']],
};

/** The values of the options that name no record: any other option must be declared an id option. */
const plainValues: Record<string, () => string> = {
  name: () => 'Intégration',
  scopes: () => 'pipelines:read',
  file: () => join(workDir, 'seed.json'),
  email: () => 'integration@acme.test',
  role: () => 'member',
  password: () => 'Un-mot-de-passe-9',
  type: () => 'Follow up',
  limit: () => '10',
  'phone-matching': () => 'exact',
  'phone-region': () => 'FR',
  'time-zone': () => 'Europe/Paris',
  'retention-months': () => '12',
  url: () => subscriberUrl,
  events: () => 'prospect.created,candidate.created',
  status: () => 'failed',
};

const wordsOf = (command: Command): string => command.words.join(' ');
const isIdOption = (spec: Command['options'][string]): spec is IdOption => typeof spec !== 'string';
const idOptionsOf = (command: Command): [string, IdOption][] =>
  Object.entries(command.options).filter((entry): entry is [string, IdOption] => isIdOption(entry[1]));

/** What a refusal names: the kind of record, or the option (a blank required option is missing). */
const kindWords: Record<IdKind, string> = {
  workspace: 'espace de travail',
  apiKey: "clé d'API",
  prospect: 'prospect',
  candidate: 'candidat',
  changeLogEntry: 'entrée du journal',
  salesPipeline: 'pipeline de vente',
  recruitmentPipeline: 'pipeline de recrutement',
  webhookCall: 'appel du webhook',
  subscription: 'abonnement',
  delivery: 'envoi',
};

type Variant = { label: string; value: (kind: IdKind) => string; malformed: boolean };
const variants: Variant[] = [
  { label: 'an unknown UUID', value: () => unknownUuid, malformed: false },
  // For --workspace: an id that exists, but names another workspace's prospect, not a workspace.
  {
    label: "another workspace's id",
    value: (kind) => (kind === 'workspace' ? theirs.prospect : theirs[kind]),
    malformed: false,
  },
  { label: 'a word', value: () => 'pas-un-uuid', malformed: true },
  { label: 'an empty value', value: () => '', malformed: true },
  { label: 'blanks', value: () => '   ', malformed: true },
  { label: '500 characters', value: () => 'x'.repeat(500), malformed: true },
  { label: 'a UUID and one character more', value: () => `${unknownUuid}0`, malformed: true },
];

/** The command's first valid invocation using `option`, with `value` in its place and mine elsewhere. */
function argsWith(command: Command, option: string, value: string): string[] {
  const invocation = invocations[wordsOf(command)]?.find((names) => names.includes(option)) ?? [];
  return [
    ...command.words,
    ...invocation.flatMap((name) => [`--${name}`, name === option ? value : valid(command, name)]),
  ];
}

function valid(command: Command, name: string, capitals = false): string {
  const spec = command.options[name];
  if (spec !== undefined && isIdOption(spec)) return capitals ? mine[spec.id].toUpperCase() : mine[spec.id];
  return plainValues[name]?.() ?? '';
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'admin-cli-ids-'));
  await writeFile(join(workDir, 'seed.json'), JSON.stringify(aWorkspace()));
  const api = await startTestApi();
  try {
    const seeded = async () => workspaceIds(await seedTestWorkspace(), api);
    [mine, theirs] = await Promise.all([seeded(), seeded()]);
  } finally {
    await api.close();
  }
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
  deps.db.destroy();
});

/**
 * A seeded workspace plus what seeding does not make: a change-log entry (a PATCH), a candidate, and
 * a failed webhook call (its body kept, so that `webhook replay` of it runs).
 */
async function workspaceIds(seed: SeedOutput, api: Awaited<ReturnType<typeof startTestApi>>): Promise<Ids> {
  const prospect = seed.prospects.lead as string;
  const patched = await api.request('PATCH', `/prospects/${prospect}`, {
    headers: { Authorization: `Bearer ${seed.api_keys.admin?.secret}` },
    body: { setter_id: seed.members.alice },
  });
  const applied = await api.request('POST', '/webhooks/recruitment', {
    query: { endpoint_id: seed.webhook?.endpoint_id as string },
    headers: { 'x-webhook-token': seed.webhook?.token as string },
    body: { email: `${randomUUID()}@candidat.test`, name: 'Camille Candidat' },
  });
  const refused = await api.request('POST', '/webhooks/recruitment', {
    query: { endpoint_id: seed.webhook?.endpoint_id as string },
    headers: { 'x-webhook-token': seed.webhook?.token as string },
    body: { name: 'Sans Adresse' },
  });
  expect([patched.status, applied.status, refused.status]).toEqual([200, 200, 400]);
  const [failedCall] = await listWebhookCalls(deps, seed.workspace_id, { failed: true, limit: 1, now: new Date() });
  const subscription = await createSubscription(deps, {
    workspaceId: seed.workspace_id,
    url: subscriberUrl,
    network: 'local',
  });
  const delivery = aFailedDelivery(seed.workspace_id, subscription.id);
  await deps.db.send(new PutCommand({ TableName: deps.tableName, Item: delivery }));
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :log)',
      ExpressionAttributeValues: { ':pk': keys.prospectPk(seed.workspace_id, prospect), ':log': changeLogPrefix },
      ConsistentRead: true,
    }),
  );
  return {
    workspace: seed.workspace_id,
    apiKey: seed.api_keys.admin?.id as string,
    prospect,
    candidate: (applied.body as { talent_id: string }).talent_id,
    changeLogEntry: Items[0]?.id as string,
    endpoint: seed.webhook?.endpoint_id as string,
    salesPipeline: seed.pipelines.sales?.id as string,
    recruitmentPipeline: seed.recruitment_pipelines.devs?.id as string,
    webhookCall: failedCall?.id as string,
    subscription: subscription.id,
    delivery: delivery.id,
  };
}

/** A delivery the schedule gave up on, as the delivery function leaves it. */
function aFailedDelivery(workspaceId: string, subscriptionId: string): DeliveryItem {
  const at = new Date();
  const eventId = derivedTimeOrderedId(at, `ids#${randomUUID()}`);
  return eventItems.delivery({
    id: derivedTimeOrderedId(at, `${eventId}#${subscriptionId}`),
    workspace_id: workspaceId,
    subscription_id: subscriptionId,
    event_id: eventId,
    event_type: 'prospect.created',
    payload: '{}',
    status: 'failed',
    attempts: 8,
    step: 7,
    last_status_code: 503,
    last_error: null,
    next_attempt_at: null,
    created_at: at.toISOString(),
    expires_at: Math.floor(at.getTime() / 1000) + 3600,
  });
}

/**
 * Every item the refused commands could have changed, and where a key or a workspace would have
 * appeared for a workspace id that names none.
 */
async function stored(): Promise<unknown> {
  const query = async (input: Omit<QueryCommandInput, 'TableName'>, tableName = deps.tableName) =>
    (await deps.db.send(new QueryCommand({ TableName: tableName, ...input }))).Items ?? [];
  const partition = (pk: string, tableName = deps.tableName) =>
    query(
      { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true },
      tableName,
    );
  const apiKeysOf = (workspaceId: string) =>
    query({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.apiKeysOfWorkspace(workspaceId) },
    });
  return Promise.all([
    ...[mine, theirs].flatMap((ids) => [
      partition(workspaceConfigPk(ids.workspace)),
      apiKeysOf(ids.workspace),
      deps.db
        .send(new GetCommand({ TableName: deps.tableName, Key: keys.endpoint(ids.endpoint) }))
        .then((got) => got.Item),
      partition(keys.prospectPk(ids.workspace, ids.prospect)),
      partition(keys.candidatePk(ids.workspace, ids.candidate)),
      partition(keys.webhookCallsPk(ids.workspace)),
      // What a delivery is, not where its attempts stand: another file's sweep of every workspace's pending deliveries
      // (a clock an hour ahead) may attempt this one meanwhile, which no command here does.
      partition(keys.deliveriesPk(ids.workspace)).then((deliveries) =>
        deliveries.map(({ pk, sk, event_id, subscription_id, payload }) => ({
          pk,
          sk,
          event_id,
          subscription_id,
          payload,
        })),
      ),
      partition(workspaceConfigPk(ids.workspace), deps.secretsTableName),
    ]),
    ...[unknownUuid, theirs.prospect].flatMap((id) => [partition(workspaceConfigPk(id)), apiKeysOf(id)]),
  ]);
}

let before: unknown;

describe('admin command line: ids', () => {
  it('has a valid invocation of every command, using each of its id options', () => {
    expect(Object.keys(invocations).sort()).toEqual(commands.map(wordsOf).sort());
    for (const command of commands) {
      const used = new Set(invocations[wordsOf(command)]?.flat());
      expect([...used].filter((name) => !Object.hasOwn(command.options, name))).toEqual([]);
      for (const [name, spec] of Object.entries(command.options)) {
        if (isIdOption(spec)) expect(used).toContain(name);
        // A flag (`--failed`) carries no value: nothing to refuse, nothing to fill in.
        else if (spec !== 'flag') expect(Object.keys(plainValues)).toContain(name);
      }
    }
  });

  it('takes a snapshot of the table before the refused commands', async () => {
    before = await stored();
  });

  const cases = commands.flatMap((command) =>
    idOptionsOf(command).flatMap(([option, spec]) =>
      variants.map((variant) => ({ command, option, kind: spec.id, variant })),
    ),
  );

  it.each(cases.map((entry) => [`${wordsOf(entry.command)} --${entry.option}`, entry.variant.label, entry] as const))(
    '%s with %s: exit 2, French message, nothing on stdout',
    async (_name, _label, { command, option, kind, variant }) => {
      const value = variant.value(kind);
      for (const json of [[], ['--json']]) {
        roundTrips.reset();
        const run = await runAdminInProcess(deps, ...argsWith(command, option, value), ...json);
        expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
        expect(run.stderr).toMatch(/^Erreur : .*(inconnu|invalide|vide)/);
        expect(run.stderr).toMatch(new RegExp(`${kindWords[kind]}|--${option}\\b`, 'i'));
        if (variant.malformed) expect(roundTrips.calls).toEqual([]);
        else expect(run.stderr).toContain(value);
      }
    },
  );

  it('refuses the same way through the real process', async () => {
    const runs = await Promise.all([
      runAdmin('changelog', 'list', '--workspace', mine.workspace, '--prospect', unknownUuid, '--json'),
      runAdmin('apikey', 'create', '--workspace', unknownUuid, '--name', 'Fantôme'),
      runAdmin('prospect', 'show', '--workspace', mine.workspace, '--id', 'x'.repeat(500), '--json'),
    ]);
    expect(runs.map((run) => [run.code, run.stdout])).toEqual([
      [2, ''],
      [2, ''],
      [2, ''],
    ]);
    expect(runs.map((run) => run.stderr)).toEqual([
      expect.stringContaining(`Prospect inconnu dans cet espace : ${unknownUuid}`),
      expect.stringContaining(`Espace de travail inconnu : ${unknownUuid}`),
      expect.stringContaining('Identifiant de prospect invalide'),
    ]);
  });

  it('changed nothing in the table', async () => {
    expect(await stored()).toEqual(before);
  });

  // The erasures last: the others read the records they erase.
  const erasesLast = [...commands].sort((a, b) => Number(a.words[1] === 'erase') - Number(b.words[1] === 'erase'));
  const validRuns = erasesLast.flatMap((command) =>
    (invocations[wordsOf(command)] ?? []).map(
      (names) => [`${wordsOf(command)} --${names.join(' --')}`, command, names] as const,
    ),
  );
  it.each(validRuns)(
    'runs %s with the same ids in capitals (ids compare case-insensitively)',
    async (_name, command, names) => {
      const args = names.flatMap((name) => [`--${name}`, valid(command, name, true)]);
      const run = await runAdminInProcess(deps, ...command.words, ...args, '--json');
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(run.stdout)).toBeInstanceOf(Object);
    },
  );
});
