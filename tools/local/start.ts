import '../../node-major.js'; // first: on another Node major, nothing else runs
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import type { DeliveryQueue } from '../../lib/domain/events/ports';
import { messages } from '../../lib/messages';
import { createDynamoClient } from '../../lib/storage/client';
import { ensureSecretsTable, ensureTable } from './create-table';
import { webhookUrl } from '../../lib/settings/webhook-status';
import { adminCommand, sharedAssignments, shellAssignment } from './admin-command';
import { seedDemoWorkspace, type Demo } from './demo-workspace';
import { JavaMissingError, startDynamoDbLocal } from './dynamodb-local';
import { startLocalIdentityProvider } from './identity-provider';

/**
 * `npm start` (docs/api.md#running-locally): DynamoDB Local unless DYNAMODB_ENDPOINT is set, the tables, the identity
 * provider, a demo workspace on an empty database, the local API and outbound events. SIGINT and SIGTERM stop them in
 * reverse order, DynamoDB Local last, so no java process outlives this one.
 */

const cleanups: Array<() => Promise<void>> = [];

/** The environment as the person gave it, before this process sets DYNAMODB_ENDPOINT and the tables' names itself. */
const givenEnv = { ...process.env };

async function start(): Promise<void> {
  // Readable log lines in a terminal, JSON when piped (lib/observability.ts reads it once, on import).
  if (process.stdout.isTTY && !process.env.CRM_LOG_FORMAT) process.env.CRM_LOG_FORMAT = 'readable';
  let endpoint = process.env.DYNAMODB_ENDPOINT;
  const dataDir = process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : undefined;
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  if (!endpoint) {
    const dynamo = await startDynamoDbLocal({ port: portFrom('DYNAMODB_LOCAL_PORT', 8000), dataDir });
    cleanups.push(dynamo.stop);
    endpoint = process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    console.log(`DynamoDB Local : ${endpoint} (${dataDir ? `données dans ${dataDir}` : 'en mémoire'})`);
  } else {
    console.log(`DynamoDB : ${endpoint}`);
  }
  process.env.TABLE_NAME ||= 'crm-local';

  // Imported only now: the functions read their configuration from the environment set above.
  const { productionSecretsDeps } = await import('../../lib/storage/client');
  const { startLocalServer } = await import('./server');
  const { startEventPipeline, StreamDisabledError } = await import('./event-pipeline');
  // The routes get the main table; the signing-secrets table goes to the delivery function, and its name to
  // the routes that write secrets (infra/cdk/route-grants.ts `secretsTableActions`), as on AWS.
  const secretsDeps = productionSecretsDeps();
  const { secretsTableName, ...deps } = secretsDeps;
  const client = createDynamoClient({ endpoint });
  const created = (outcome: 'created' | 'existing') => (outcome === 'created' ? 'créée' : 'existante');
  console.log(`Table : ${deps.tableName} (${created(await ensureTable(client, deps.tableName))})`);
  const secrets = created(await ensureSecretsTable(client, secretsTableName));
  console.log(`Table des secrets de signature : ${secretsTableName} (${secrets})`);
  const empty = (await client.send(new ScanCommand({ TableName: deps.tableName, Limit: 1 }))).Count === 0;
  client.destroy();

  // Before any function is imported: they read the pool's configuration from the environment once.
  const identityProvider = await startLocalIdentityProvider({ store: deps, dataDir });
  cleanups.push(identityProvider.stop);
  Object.assign(process.env, identityProvider.env);
  console.log(`Fournisseur d'identité local (cognito-local) : ${identityProvider.endpoint}`);

  const demo = empty ? await seedDemoWorkspace(deps) : undefined;
  // From LATEST, unlike the stack's TRIM_HORIZON: with a kept DATA_DIR, the last 24 hours of writes would be sent again
  // at every start. Positioned before the "ready" line and the server (whose redeliver route queues on its queue).
  let queue: DeliveryQueue | undefined;
  try {
    const pipeline = await startEventPipeline({ deps: secretsDeps, endpoint, startingPosition: 'LATEST' });
    cleanups.push(pipeline.stop);
    queue = pipeline.queue;
    console.log(`Événements sortants actifs : flux de la table ${deps.tableName} lu, envois dans ce processus`);
  } catch (error) {
    if (!(error instanceof StreamDisabledError)) throw error;
    console.warn(`Événements sortants inactifs : ${error.message}.`);
  }
  const server = await startLocalServer({
    deps,
    port: portFrom('PORT', 3000),
    outbound: { secretsTableName, queue },
    // What AWS would e-mail, in this terminal: the settings page's reset screen sends the person here.
    onPasswordReset: ({ email, code }) =>
      console.log(code === undefined ? messages.localRun.noResetCode(email) : messages.localRun.resetCode(email, code)),
  });
  cleanups.push(server.close);

  const alreadyFilled =
    'Base déjà remplie : pas de nouvel espace de démonstration. Ses secrets ne sont affichés qu’à sa création ; ' +
    `son identifiant : ${adminCommand('workspace list', givenEnv)} ; ` +
    `pour une nouvelle clé : ${adminCommand('apikey create --workspace ID_DE_L_ESPACE --name NOM', givenEnv)}.`;
  const publicBaseUrl = process.env.PUBLIC_BASE_URL || server.url;
  console.log(demo === undefined ? alreadyFilled : demoBanner(server.url, publicBaseUrl, demo));
  console.log(`\nAPI locale prête sur ${server.url} (Ctrl-C pour arrêter)`);
  console.log(`Page des réglages : ${server.url}/app/ ; référence de l'API : ${server.url}/docs`);
}

/** What `npm start` prints once after seeding the demo workspace: its secrets are kept nowhere else. */
function demoBanner(apiUrl: string, publicBaseUrl: string, { seed, admin }: Demo): string {
  const apiKey = Object.values(seed.api_keys)[0]?.secret;
  const lines = ['', 'Espace de démonstration « Démo » créé. Notez ces secrets : ils ne seront plus affichés.'];
  lines.push(`  Espace de travail     : ${seed.workspace_id}`, `  URL de l'API          : ${apiUrl}`);
  const examples: string[] = [];
  // The variables the README's examples read (README.md#running-locally), ready to paste in another terminal.
  const readmeVariables = [shellAssignment('API', apiUrl), shellAssignment('WORKSPACE_ID', seed.workspace_id)];
  if (apiKey !== undefined) {
    lines.push(`  Clé d'API « Démo »    : ${apiKey}`);
    readmeVariables.push(shellAssignment('API_KEY', apiKey));
    examples.push(`  curl -s ${apiUrl}/pipelines -H 'Authorization: Bearer ${apiKey}'`);
  }
  if (seed.webhook !== null) {
    const { endpoint_id: endpointId, token } = seed.webhook;
    const leadUrl = webhookUrl(publicBaseUrl, endpointId);
    const lead = { first_name: 'Nina', last_name: 'Roux', email: 'nina.roux@exemple.test', source: 'Site web' };
    // The recruitment webhook shares the lead webhook's endpoint and token (docs/api.md#recruitment-webhook).
    const recruitmentUrl = `${publicBaseUrl.replace(/\/+$/, '')}/webhooks/recruitment?endpoint_id=${endpointId}`;
    lines.push(`  Webhook prospects     : ${leadUrl}`, `  Webhook recrutement   : ${recruitmentUrl}`);
    lines.push(`  Jeton du webhook      : ${token}`);
    readmeVariables.push(shellAssignment('ENDPOINT_ID', endpointId), shellAssignment('WEBHOOK_TOKEN', token));
    examples.push(
      `  curl -s -X POST '${leadUrl}' -H 'Authorization: Bearer ${token}' ` +
        `-H 'Content-Type: application/json' -d '${JSON.stringify(lead)}'`,
    );
  }
  // The admin signs in to the settings API; every admin command names its workspace.
  lines.push(`  Administrateur        : ${admin.email}`, `  Mot de passe          : ${admin.password}`);
  readmeVariables.push(shellAssignment('ADMIN_PASSWORD', admin.password), ...sharedAssignments(givenEnv));
  examples.push(
    `  curl -s -X POST ${apiUrl}/session -H 'Content-Type: application/json' -d '${JSON.stringify(admin)}'`,
  );
  examples.push(`  ${adminCommand(`workspace show --workspace ${seed.workspace_id}`, givenEnv)}`);
  lines.push('', 'Exemples :', ...examples);
  lines.push('', 'Pour les exemples du README, dans un autre terminal :', `  export ${readmeVariables.join(' ')}`);
  return lines.join('\n');
}

function portFrom(name: string, fallback: number): number {
  const [raw, port] = [process.env[name], Number(process.env[name])];
  if (!raw) return fallback;
  if (Number.isInteger(port) && port >= 1 && port <= 65535) return port;
  throw new Error(`${name} doit être un numéro de port entre 1 et 65535 (reçu : ${raw}).`);
}

let stopping: Promise<void> | undefined;
const stop = (exitCode: number): Promise<void> =>
  (stopping ??= (async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => console.error(`Arrêt incomplet : ${String(error)}`));
    }
    process.exit(exitCode);
  })());

const starting = start();

/**
 * A signal during start-up waits for it (DynamoDB Local may be half-started); `on`, since a second signal without a
 * listener would end this process first. tsx runs as a loader: its command's signal relay gave up within 30 ms on a
 * busy machine, leaving DynamoDB Local running.
 */
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void starting.finally(() => stop(0)).catch(() => undefined));
}

starting.catch(async (error: unknown) => {
  const reason = error instanceof Error ? error.message : String(error);
  console.error(error instanceof JavaMissingError ? reason : `Démarrage impossible : ${reason}`);
  await stop(1);
});
