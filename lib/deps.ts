import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { loadConfig, type Config } from './config';
import { createDocumentClient } from './storage/client';

/** What every use case depends on; tests pass their own clock and ids. */
export type Deps = {
  db: DynamoDBDocumentClient;
  tableName: string;
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
