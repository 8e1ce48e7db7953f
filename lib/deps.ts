import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from './config';
import { createDocumentClient } from './storage/client';
import type { Store } from './storage/client';

/** What every use case depends on; tests pass their own clock and ids. */
export type Deps = Store & {
  clock: () => Date;
  newId: () => string;
};

export function productionDeps(config: Config = loadConfig()): Deps {
  return {
    db: createDocumentClient({ endpoint: config.endpoint, region: config.region }),
    tableName: config.tableName,
    clock: () => new Date(),
    newId: randomUUID,
  };
}
