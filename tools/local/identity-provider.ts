import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as cognito from '@aws-sdk/client-cognito-identity-provider';
import { createCognitoClient } from '../../lib/identity/cognito';
import type { Store } from '../../lib/storage/client';
import { getLocalIdentityProvider, putLocalIdentityProvider } from './local-identity-provider';
import { freePort, isAlive, stopChild, untilAnswering } from './dynamodb-local';

/**
 * The local run's identity provider (docs/adr/0013-member-sign-in.md) and the functions' configuration that points at
 * it.
 */
export type LocalIdentityProvider = { endpoint: string; env: Record<string, string>; stop: () => Promise<void> };

const startScript = createRequire(import.meta.url).resolve('cognito-local/lib/bin/start.js');

/**
 * cognito-local in a folder of its own (it keeps its data in `.cognito/` of its working folder: `<DATA_DIR>/cognito`
 * to keep them, else a temporary folder) on a free port, started with this Node and killed directly, so it
 * outlives nobody. Its pool is the service's shape: the e-mail is the user name (its default makes the e-mail an
 * alias, whose tokens name the user by an id), one app client with a secret and the two auth flows.
 */
export async function startLocalIdentityProvider(options: {
  store: Store;
  dataDir?: string | undefined;
}): Promise<LocalIdentityProvider> {
  const folder = options.dataDir ? join(options.dataDir, 'cognito') : mkdtempSync(join(tmpdir(), 'crm-cognito-'));
  mkdirSync(join(folder, '.cognito'), { recursive: true });
  const defaults = { UserPoolDefaults: { UsernameAttributes: [] } };
  writeFileSync(join(folder, '.cognito', 'config.json'), JSON.stringify(defaults));
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1' };
  const child = spawn(process.execPath, [startScript], { cwd: folder, env, stdio: 'ignore' });
  const stop = async () => {
    await stopChild(child);
    if (!options.dataDir) rmSync(folder, { recursive: true, force: true });
  };
  const endpoint = `http://127.0.0.1:${port}`;
  const client = createCognitoClient({ endpoint, region: undefined });
  try {
    const listPools = () => client.send(new cognito.ListUserPoolsCommand({ MaxResults: 1 }));
    if (!(await untilAnswering(listPools, () => isAlive(child))))
      throw new Error(`cognito-local s'est arrêté au démarrage (port ${port})`);
    const known = await getLocalIdentityProvider(options.store);
    const describe = new cognito.DescribeUserPoolCommand({ UserPoolId: known?.user_pool_id });
    // The pool named in the table, if cognito-local still has it (a kept DATA_DIR).
    const reused = known && (await client.send(describe).catch(() => undefined)) && known;
    const { user_pool_id, client_id } = reused ?? (await createPool(client));
    const poolFile = join(folder, '.cognito', 'db', `${user_pool_id}.json`);
    await putLocalIdentityProvider(options.store, { user_pool_id, client_id, endpoint, pool_file: poolFile });
    const issuer = `${endpoint}/${user_pool_id}`;
    const jwks = await (await fetch(`${issuer}/.well-known/jwks.json`)).text();
    const poolEnv = {
      USER_POOL_ID: user_pool_id,
      USER_POOL_CLIENT_ID: client_id,
      IDENTITY_ENDPOINT: endpoint,
      USER_POOL_ISSUER: issuer,
      USER_POOL_JWKS: jwks,
      // Where it keeps the reset codes it draws (lib/identity/cognito.ts answers them locally).
      IDENTITY_LOCAL_POOL_FILE: poolFile,
    };
    return { endpoint, env: poolEnv, stop };
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
}

async function createPool(client: ReturnType<typeof createCognitoClient>) {
  const pool = new cognito.CreateUserPoolCommand({
    PoolName: 'crm-local',
    UsernameConfiguration: { CaseSensitive: false },
  });
  const { UserPool } = await client.send(pool);
  const flows: cognito.ExplicitAuthFlowsType[] = ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'];
  const app = { UserPoolId: UserPool?.Id, ClientName: 'crm-service', GenerateSecret: true, ExplicitAuthFlows: flows };
  const { UserPoolClient } = await client.send(new cognito.CreateUserPoolClientCommand(app));
  if (!UserPool?.Id || !UserPoolClient?.ClientId) throw new Error('cognito-local a refusé de créer le pool');
  return { user_pool_id: UserPool.Id, client_id: UserPoolClient.ClientId };
}
