import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export type DbClientOptions = { endpoint?: string | undefined; region?: string | undefined };

/**
 * One client per cold start. Timeouts are explicit so a stalled connection fails the request
 * well inside the Lambda timeout instead of hanging it. DynamoDB Local, one JVM on a laptop or a
 * 2-core CI machine, can take seconds to accept a burst of connections: it gets more patience.
 * With an explicit endpoint (DynamoDB Local) the code supplies dummy credentials and a region
 * itself: a fresh machine has none, and DynamoDB Local accepts only letters and digits as key id.
 */
export function createDynamoClient(options: DbClientOptions = {}): DynamoDBClient {
  const local = options.endpoint !== undefined;
  return new DynamoDBClient({
    ...(local
      ? {
          endpoint: options.endpoint,
          region: options.region ?? 'eu-west-3',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : { region: options.region }),
    maxAttempts: 3,
    requestHandler: local
      ? { connectionTimeout: 5000, requestTimeout: 15000 }
      : { connectionTimeout: 1000, requestTimeout: 3000 },
  });
}

export function createDocumentClient(options: DbClientOptions = {}): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(createDynamoClient(options), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** What every storage function needs: the one document client of the cold start and the table. */
export type Store = { db: DynamoDBDocumentClient; tableName: string };
