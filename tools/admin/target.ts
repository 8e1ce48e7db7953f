import { AdminInputError } from '../../lib/admin/errors';
import { loadConfig } from '../../lib/config';
import { productionDeps, type Deps } from '../../lib/deps';
import type { NetworkPolicy } from '../../lib/domain/events/ports';

/**
 * What a command acts on and how it may talk: `interactive` when a person watches stderr on a
 * terminal and no `--json` reader expects one document (progress bars only then); `network`, the
 * rules of the service's outbound deliveries there (subscription URLs, redelivery).
 */
export type Target = {
  deps: Deps;
  publicBaseUrl: string | undefined;
  interactive: boolean;
  network: NetworkPolicy;
  /** The environment, for the few variables one command alone reads (`stream replay --aws`). */
  env: NodeJS.ProcessEnv;
};

const localEndpoint = 'http://127.0.0.1:8000';

/**
 * The admin command line (docs/api.md#admin-command-line): the local table by default (DYNAMODB_ENDPOINT, TABLE_NAME); with --aws, real
 * DynamoDB through the standard credential chain, TABLE_NAME and PUBLIC_BASE_URL then naming the
 * stack's outputs (no sensible default exists for either). `deps`, when given, is used as is.
 */
export function resolveTarget(aws: boolean, env: NodeJS.ProcessEnv, deps?: Deps, interactive = false): Target {
  const config = loadConfig(env);
  if (aws) {
    if (!env.TABLE_NAME) {
      throw new AdminInputError('Avec --aws, la variable TABLE_NAME doit donner le nom de la table déployée.');
    }
    return {
      deps: deps ?? productionDeps({ ...config, endpoint: undefined }),
      publicBaseUrl: env.PUBLIC_BASE_URL || undefined,
      interactive,
      network: 'aws',
      env,
    };
  }
  return {
    deps: deps ?? productionDeps({ ...config, endpoint: config.endpoint ?? localEndpoint }),
    publicBaseUrl: env.PUBLIC_BASE_URL || `http://127.0.0.1:${env.PORT || 3000}`,
    interactive,
    network: 'local',
    env,
  };
}

/** Only the commands that print a webhook URL need it. */
export function requirePublicBaseUrl(target: Pick<Target, 'publicBaseUrl'>): string {
  if (target.publicBaseUrl) return target.publicBaseUrl;
  throw new AdminInputError("Avec --aws, la variable PUBLIC_BASE_URL doit donner l'URL de l'API déployée.");
}
