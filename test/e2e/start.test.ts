import { jest } from '@jest/globals';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { freePort } from '../../tools/local/dynamodb-local';
import { createDynamoClient } from '../../lib/storage/client';
import { timeoutForProcesses } from '../support/process-starts';

// npm start through tsx, then DynamoDB Local's JVM and the table it creates (four indexes, each
// backfilled by the JVM): three starts at most (the first test took 55 s with a load average of 16).
jest.setTimeout(timeoutForProcesses(3));

/** `npm start` as a user runs it: a child process, read through what it prints. */
type Started = { child: ChildProcess; output: () => string; exited: Promise<[number | null, NodeJS.Signals | null]> };

const running = new Set<ChildProcess>();

/** A command line run by a shell whose environment has none of what npm start was started with. */
function pasted(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  for (const name of ['DYNAMODB_ENDPOINT', 'DYNAMODB_LOCAL_PORT', 'TABLE_NAME', 'SECRETS_TABLE_NAME', 'PORT']) {
    delete env[name];
  }
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

function startCommand(env: Record<string, string | undefined>): Started {
  // As `npm start` runs it: node with tsx as a loader, so a signal reaches start.ts itself (the tsx
  // command relays signals, and kills its child when the relay is not acknowledged within 30 ms).
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/local/start.ts'], {
    env: {
      ...process.env,
      DYNAMODB_ENDPOINT: undefined,
      TABLE_NAME: undefined,
      SECRETS_TABLE_NAME: undefined,
      DATA_DIR: undefined,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  void exited.then(() => running.delete(child));
  return { child, output: () => output, exited };
}

/** Until `pattern` is printed, or the command exits (an error): no clock, the test's timeout bounds it. */
async function waitForOutput(started: Started, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const match = pattern.exec(started.output());
    if (match) return match;
    if (started.child.exitCode !== null) throw new Error(`npm start exited early:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const ready = /API locale prête sur (http:\/\/127\.0\.0\.1:\d+)/;
const printedApiKey = /Clé d'API « Démo »\s*:\s*(crm_key_\S+)/;
const printedWorkspace = /Espace de travail\s*:\s*([0-9a-f-]{36})/;
const printedAdmin = /Administrateur\s*:\s*(\S+)\n\s*Mot de passe\s*:\s*(\S+)/;
const printedIdentityProvider = /Fournisseur d'identité local \(cognito-local\) : http:\/\/127\.0\.0\.1:(\d+)/;

async function pipelineNames(baseUrl: string, apiKey: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/pipelines`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { pipelines: Array<{ name: string }> };
  return body.pipelines.map((pipeline) => pipeline.name);
}

afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
});

test('npm start runs DynamoDB Local and cognito-local, seeds a working demo and leaves neither behind on SIGTERM', async () => {
  const [port, dynamoPort] = [await freePort(), await freePort()];
  const started = startCommand({ PORT: String(port), DYNAMODB_LOCAL_PORT: String(dynamoPort) });

  const baseUrl = (await waitForOutput(started, ready))[1];
  expect(baseUrl).toBe(`http://127.0.0.1:${port}`);
  const health = await fetch(`${baseUrl}/health`);
  expect(await health.json()).toEqual({ ok: true });
  const apiKey = (await waitForOutput(started, printedApiKey))[1] as string;
  expect(started.output()).toMatch(
    new RegExp(
      `Webhook prospects\\s*: http://127\\.0\\.0\\.1:${port}/webhooks/ingest-lead\\?endpoint_id=[0-9a-f-]{36}`,
    ),
  );
  expect(await pipelineNames(`http://127.0.0.1:${port}`, apiKey)).toEqual(['Ventes', 'Partenariats']);
  expect(await portAnswers(dynamoPort)).toBe(true);
  const identityPort = Number((await waitForOutput(started, printedIdentityProvider))[1]);
  expect(await portAnswers(identityPort)).toBe(true);

  // The demo admin signs in with the password printed once, as an admin of the demo workspace.
  const [, adminEmail, adminPassword] = await waitForOutput(started, printedAdmin);
  expect(adminEmail).toBe('admin@demo.test');
  const session = await fetch(`${baseUrl}/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: adminEmail, password: adminPassword }),
  });
  expect(session.status).toBe(200);
  const { workspaces } = (await session.json()) as { workspaces: Array<{ name: string; role: string }> };
  expect(workspaces).toEqual([expect.objectContaining({ name: 'Démo', role: 'admin' })]);

  // The printed admin command works as printed, pasted in another terminal that has none of npm start's variables:
  // it names the ports npm start was given, and reaches the table npm start serves.
  const workspaceId = (await waitForOutput(started, printedWorkspace))[1] as string;
  const printed = started.output().match(/^\s*(.*npm run --silent admin -- workspace show --workspace \S+)$/m)?.[1];
  expect(printed).toBe(
    `DYNAMODB_LOCAL_PORT=${dynamoPort} PORT=${port} npm run --silent admin -- workspace show --workspace ${workspaceId}`,
  );
  const shown = await pasted(`${printed} --json`);
  expect({ code: shown.code, stderr: shown.stderr }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(shown.stdout)).toEqual({
    id: workspaceId,
    name: 'Démo',
    phone_matching: 'exact',
    phone_region: 'FR',
    time_zone: 'Europe/Paris',
    retention_months: null,
    created_at: expect.any(String),
  });

  // « Mot de passe oublié »: no e-mail leaves the machine, so npm start prints the code the API answered, on one line;
  // an address without an account gets a line without a code.
  const askReset = (email: string) =>
    fetch(`${baseUrl}/password-reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
  const reset = await askReset(adminEmail as string);
  expect(reset.status).toBe(202);
  const { code: resetCode } = (await reset.json()) as { code: string };
  expect(resetCode).toMatch(/^\d+$/);
  const printedCode = await waitForOutput(
    started,
    /^Mot de passe oublié : code de réinitialisation de (\S+) : (\S+) /m,
  );
  expect(printedCode.slice(1)).toEqual([adminEmail, resetCode]);
  const nobody = `personne-${randomUUID()}@demo.test`;
  expect((await askReset(nobody)).status).toBe(202);
  await waitForOutput(started, new RegExp(`^Mot de passe oublié : aucun code pour ${nobody} `, 'm'));

  started.child.kill('SIGTERM');
  const [code] = await started.exited;
  expect(code).toBe(0);
  expect(await portAnswers(dynamoPort)).toBe(false);
  expect(await portAnswers(identityPort)).toBe(false);
  expect(await portAnswers(port)).toBe(false);
});

test('with DYNAMODB_ENDPOINT set, npm start spawns no DynamoDB Local and uses that database, with its secrets table', async () => {
  const [port, unusedDynamoPort] = [await freePort(), await freePort()];
  const tableName = `crm-start-${randomUUID()}`;
  const started = startCommand({
    PORT: String(port),
    DYNAMODB_LOCAL_PORT: String(unusedDynamoPort),
    DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
    TABLE_NAME: tableName,
  });

  await waitForOutput(started, ready);
  const apiKey = (await waitForOutput(started, printedApiKey))[1] as string;
  expect(await pipelineNames(`http://127.0.0.1:${port}`, apiKey)).toContain('Ventes');
  expect(await portAnswers(unusedDynamoPort)).toBe(false);
  const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  // The signing-secrets table beside it, by the local default name, without a stream (ADR 0012).
  const secrets = await client.send(new DescribeTableCommand({ TableName: `${tableName}-secrets` }));
  client.destroy();
  expect(Table?.TableName).toBe(tableName);
  expect(secrets.Table?.StreamSpecification?.StreamEnabled ?? false).toBe(false);
  expect(started.output()).toContain(`Table des secrets de signature : ${tableName}-secrets (créée)`);

  started.child.kill('SIGTERM');
  const [code] = await started.exited;
  expect(code).toBe(0);
});
