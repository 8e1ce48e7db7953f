import { AdminInputError } from '../../lib/settings/admin-input';
import {
  loadConfig,
  loadSecretsTableName,
  productionDeps,
  type Deps,
  type SecretsDeps,
} from '../../lib/storage/client';
import type { NetworkPolicy } from '../../lib/outbound/address-policy';
import type { IdentityProvider } from '../../lib/domain/identity-provider';
import { createCognitoIdentityProvider, poolIdentityProvider } from '../../lib/identity/cognito';
import { getLocalIdentityProvider } from '../local/local-identity-provider';
import { messages } from '../../lib/messages';

/**
 * What a command acts on and how it may talk: `interactive` when a person watches stderr on a
 * terminal and no `--json` reader expects one document (progress bars only then); `network`, the
 * rules of the service's outbound deliveries there (subscription URLs, redelivery).
 */
export type Target = {
  deps: Deps;
  /** The signing-secrets table, for the commands that write or read secrets (`withSecretsTable`). */
  secretsTableName: string | undefined;
  publicBaseUrl: string | undefined;
  interactive: boolean;
  network: NetworkPolicy;
  /** The environment, for the few variables one command alone reads (`stream replay --aws`). */
  env: NodeJS.ProcessEnv;
  /** The identity provider of `member add` (lib/domain/identity-provider.ts), when the caller gave one. */
  identity?: IdentityProvider | undefined;
};

/** `npm start`'s DynamoDB Local, on the port it was started with (docs/api.md#running-locally). */
const localEndpoint = (env: NodeJS.ProcessEnv) => `http://127.0.0.1:${env.DYNAMODB_LOCAL_PORT || 8000}`;

/**
 * The admin command line (docs/api.md#admin-command-line): the local tables by default (DYNAMODB_ENDPOINT, TABLE_NAME,
 * SECRETS_TABLE_NAME by default `<TABLE_NAME>-secrets`); with --aws, real DynamoDB through the
 * standard credential chain, TABLE_NAME, SECRETS_TABLE_NAME and PUBLIC_BASE_URL then naming the
 * stack's outputs (no sensible default exists for any). `deps`, when given, is used as is, with
 * its signing-secrets table if it names one.
 */
export function resolveTarget(
  aws: boolean,
  env: NodeJS.ProcessEnv,
  deps?: Deps & Partial<Pick<SecretsDeps, 'secretsTableName'>>,
  interactive = false,
): Target {
  const config = loadConfig(env);
  if (aws) {
    if (!env.TABLE_NAME) {
      throw new AdminInputError('Avec --aws, la variable TABLE_NAME doit donner le nom de la table déployée.');
    }
    const deployed = { ...config, endpoint: undefined };
    return {
      deps: deps ?? productionDeps(deployed),
      secretsTableName:
        deps?.secretsTableName ?? (env.SECRETS_TABLE_NAME ? loadSecretsTableName(env, deployed) : undefined),
      publicBaseUrl: env.PUBLIC_BASE_URL || undefined,
      interactive,
      network: 'aws',
      env,
    };
  }
  const local = { ...config, endpoint: config.endpoint ?? localEndpoint(env) };
  return {
    deps: deps ?? productionDeps(local),
    secretsTableName: deps?.secretsTableName ?? loadSecretsTableName(env, local),
    publicBaseUrl: env.PUBLIC_BASE_URL || `http://127.0.0.1:${env.PORT || 3000}`,
    interactive,
    network: 'local',
    env,
  };
}

/** The commands that write or read signing secrets: create, delete, rotate-secret, migrate-secrets, redeliver. */
export function withSecretsTable(target: Pick<Target, 'deps' | 'secretsTableName'>): SecretsDeps {
  if (target.secretsTableName === undefined) throw new AdminInputError(messages.admin.secretsTableRequired);
  return { ...target.deps, secretsTableName: target.secretsTableName };
}

/** Only the commands that print a webhook URL need it. */
export function requirePublicBaseUrl(target: Pick<Target, 'publicBaseUrl'>): string {
  if (target.publicBaseUrl) return target.publicBaseUrl;
  throw new AdminInputError("Avec --aws, la variable PUBLIC_BASE_URL doit donner l'URL de l'API déployée.");
}

/**
 * The identity provider `member add` invites with (docs/api.md#sign-in): the one the caller gave (tests), else, like
 * the table, the deployed one with --aws (USER_POOL_ID and USER_POOL_CLIENT_ID, the stack's outputs), else the local
 * run's, found through the table (`npm start` writes where it is: tools/local/local-identity-provider.ts).
 */
export async function identityProviderOf(
  target: Pick<Target, 'identity' | 'network' | 'env' | 'deps'>,
): Promise<IdentityProvider> {
  if (target.identity) return target.identity;
  if (target.network === 'aws') {
    if (!target.env.USER_POOL_ID || !target.env.USER_POOL_CLIENT_ID) {
      throw new AdminInputError(messages.members.identityProviderMissing);
    }
    // The deployed pool only: the local run's variables (its endpoint, its pool file) are not read with --aws.
    const { USER_POOL_ID, USER_POOL_CLIENT_ID, AWS_REGION } = target.env;
    return poolIdentityProvider({ USER_POOL_ID, USER_POOL_CLIENT_ID, AWS_REGION });
  }
  const local = await getLocalIdentityProvider(target.deps);
  if (local === undefined) throw new AdminInputError(messages.members.localIdentityProviderMissing);
  return createCognitoIdentityProvider({
    userPoolId: local.user_pool_id,
    clientId: local.client_id,
    region: undefined,
    endpoint: local.endpoint,
    // The command line verifies no token: no issuer nor key set to know.
    issuer: `${local.endpoint}/${local.user_pool_id}`,
    jwks: undefined,
    localPoolFile: local.pool_file,
  });
}
