import { randomUUID } from 'node:crypto';
import {
  createDocumentClient,
  type Config,
  loadConfig,
  loadSecretsTableName,
  type SecretsStore,
  type Store,
} from './storage/client';
import { createMetrics, type PublishedMetrics } from './observability';

/** What every use case depends on; tests pass their own clock, ids and metrics. */
export type Deps = Store & {
  clock: () => Date;
  newId: () => string;
  /** Business metrics (lib/observability.ts), published by the function's wrapper at the end of each invocation. */
  metrics: PublishedMetrics;
};

export function productionDeps(config: Config = loadConfig()): Deps {
  return {
    db: createDocumentClient({ endpoint: config.endpoint, region: config.region }),
    tableName: config.tableName,
    clock: () => new Date(),
    newId: randomUUID,
    metrics: createMetrics(),
  };
}

/** Those who read or write signing secrets: the delivery function and the admin command line. */
export type SecretsDeps = Deps & SecretsStore;

export function productionSecretsDeps(
  env: NodeJS.ProcessEnv = process.env,
  config: Config = loadConfig(env),
): SecretsDeps {
  return { ...productionDeps(config), secretsTableName: loadSecretsTableName(env, config) };
}
