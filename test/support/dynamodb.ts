import { randomUUID } from 'node:crypto';
import { CreateTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { freePort } from '../../infra/local/free-port';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';
import { createDynamoClient } from '../../lib/storage/client';
import { ensureSecretsTable, ensureTable } from '../../lib/storage/create-table';

export const testTableName = 'crm-test';
/** Named explicitly, not left to the local default, so that commands run with --aws find it too. */
export const testSecretsTableName = 'crm-test-secrets';

/** Started by jest's global setup; test files reach it through the environment it sets. */
export async function startTestDynamoDb(): Promise<DynamoDbLocal> {
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = testTableName;
  process.env.SECRETS_TABLE_NAME = testSecretsTableName;
  const client = createDynamoClient({ endpoint: dynamo.endpoint });
  await ensureTable(client, testTableName);
  await ensureSecretsTable(client, testSecretsTableName);
  client.destroy();
  return dynamo;
}

/** A table as created before outbound events (no stream), as a DATA_DIR kept from then holds it. */
export async function createTableWithoutStream(client: DynamoDBClient): Promise<string> {
  const tableName = `crm-test-no-stream-${randomUUID()}`;
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    }),
  );
  return tableName;
}
