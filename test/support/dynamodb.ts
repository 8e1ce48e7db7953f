import { freePort } from '../../infra/local/free-port';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';
import { createDynamoClient } from '../../lib/storage/client';
import { ensureTable } from '../../lib/storage/create-table';

export const testTableName = 'crm-test';

/** Started by jest's global setup; test files reach it through the environment it sets. */
export async function startTestDynamoDb(): Promise<DynamoDbLocal> {
  // Node 20 here, nodejs22.x when deployed: the SDK's notice about Node 20 is noise in test output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = testTableName;
  const client = createDynamoClient({ endpoint: dynamo.endpoint });
  await ensureTable(client, testTableName);
  client.destroy();
  return dynamo;
}
