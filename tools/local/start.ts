import '../../node-major.js'; // first: on another Node major, nothing else runs
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import type { Deps, SecretsDeps } from '../../lib/deps';
import { createDynamoClient } from '../../lib/storage/client';
import { ensureSecretsTable, ensureTable } from '../../lib/storage/create-table';
import { demoBanner } from './demo-banner';
import { JavaMissingError, startDynamoDbLocal } from './dynamodb-local';

/**
 * `npm start` (docs/api.md#running-locally): DynamoDB Local unless DYNAMODB_ENDPOINT is set, the table, a demo
 * workspace on an empty database, then the local API and outbound events. SIGINT and SIGTERM stop
 * them and the DynamoDB Local child, so no java process outlives this one.
 */

const cleanups: Array<() => Promise<void>> = [];

async function start(): Promise<void> {
  // Log lines of the functions for a person in a terminal, JSON when piped (lib/observability/logger.ts):
  // set before the functions are imported below, since the logger reads it once.
  if (process.stdout.isTTY && !process.env.CRM_LOG_FORMAT) process.env.CRM_LOG_FORMAT = 'readable';
  const port = portFrom('PORT', 3000);
  let endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) {
    const dataDir = process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : undefined;
    if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
    const dynamo = await startDynamoDbLocal({ port: portFrom('DYNAMODB_LOCAL_PORT', 8000), dataDir });
    cleanups.push(dynamo.stop);
    endpoint = dynamo.endpoint;
    process.env.DYNAMODB_ENDPOINT = endpoint;
    console.log(`DynamoDB Local : ${dynamo.endpoint} (${dataDir ? `données dans ${dataDir}` : 'en mémoire'})`);
  } else {
    console.log(`DynamoDB : ${endpoint}`);
  }
  process.env.TABLE_NAME ||= 'crm-local';

  // Imported only now: the functions read their configuration from the environment set above.
  const { productionSecretsDeps } = await import('../../lib/deps');
  const { startLocalServer } = await import('./server');
  // The routes get the main table only; the signing-secrets table goes to the delivery function.
  const { secretsTableName, ...deps } = productionSecretsDeps();

  const client = createDynamoClient({ endpoint });
  const table = await ensureTable(client, deps.tableName);
  const secretsTable = await ensureSecretsTable(client, secretsTableName);
  const empty = (await client.send(new ScanCommand({ TableName: deps.tableName, Limit: 1 }))).Count === 0;
  client.destroy();
  const created = (outcome: 'created' | 'existing') => (outcome === 'created' ? 'créée' : 'existante');
  console.log(`Table : ${deps.tableName} (${created(table)})`);
  console.log(`Table des secrets de signature : ${secretsTableName} (${created(secretsTable)})`);

  const seed = empty ? await seedDemoWorkspace(deps) : undefined;
  const server = await startLocalServer({ deps, port, host: '127.0.0.1' });
  cleanups.push(server.close);
  await startOutboundEvents({ ...deps, secretsTableName }, endpoint);

  if (seed !== undefined) {
    const publicBaseUrl = process.env.PUBLIC_BASE_URL || server.url;
    console.log(demoBanner({ apiUrl: server.url, publicBaseUrl, seed }));
  } else {
    console.log(
      'Base déjà remplie : pas de nouvel espace de démonstration. Ses secrets ne sont affichés qu’à sa création ; ' +
        'son identifiant : npm run --silent admin -- workspace list ; ' +
        'pour une nouvelle clé : npm run --silent admin -- apikey create --workspace <id> --name <nom>.',
    );
  }
  console.log(`\nAPI locale prête sur ${server.url} (Ctrl-C pour arrêter)`);
}

/**
 * The stream is read from LATEST, like a mapping created on a live table, not from TRIM_HORIZON as the
 * stack's mapping is: with a persisted DATA_DIR, TRIM_HORIZON would run the last 24 hours of writes
 * through the stream handler at every start, sending them to subscriptions created since (which were
 * not there when those writes happened). Readers are positioned before the "ready" line is printed,
 * so no request made after it escapes the stream. Stopped first on exit (cleanups run in reverse),
 * before the server and DynamoDB Local.
 */
async function startOutboundEvents(deps: SecretsDeps, endpoint: string): Promise<void> {
  const { startEventPipeline, StreamDisabledError } = await import('./event-pipeline');
  try {
    const pipeline = await startEventPipeline({ deps, endpoint, startingPosition: 'LATEST' });
    cleanups.push(pipeline.stop);
    console.log(`Événements sortants actifs : flux de la table ${deps.tableName} lu, livraisons par une file locale`);
  } catch (error) {
    if (!(error instanceof StreamDisabledError)) throw error;
    console.warn(`Événements sortants inactifs : ${error.message}.`);
  }
}

async function seedDemoWorkspace(deps: Deps) {
  const { seedWorkspace } = await import('../../lib/admin/seed');
  const description: unknown = JSON.parse(await readFile(new URL('./demo-workspace.json', import.meta.url), 'utf8'));
  return seedWorkspace(deps, description);
}

function portFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${name} doit être un numéro de port entre 1 et 65535 (reçu : ${raw}).`);
  }
  return port;
}

let stopping: Promise<void> | undefined;

function stop(exitCode: number): Promise<void> {
  stopping ??= (async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => console.error(`Arrêt incomplet : ${String(error)}`));
    }
    process.exit(exitCode);
  })();
  return stopping;
}

const starting = start();

/**
 * A signal during start-up waits for it: DynamoDB Local may be half-started and must be stopped
 * too. `on`, not `once`: a second signal without a listener would end this process before
 * DynamoDB Local is stopped. `npm start` runs node with tsx as a loader (`--import tsx`), not the
 * tsx command, which relays signals to a child and kills it when that relay is not acknowledged
 * within 30 ms: on a busy machine, Ctrl-C then left DynamoDB Local running.
 */
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void starting.then(
      () => stop(0),
      () => stop(0),
    );
  });
}

starting.catch(async (error: unknown) => {
  console.error(
    error instanceof JavaMissingError
      ? error.message
      : `Démarrage impossible : ${error instanceof Error ? error.message : String(error)}`,
  );
  await stop(1);
});
