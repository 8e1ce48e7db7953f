import { randomUUID } from 'node:crypto';
import { CreateTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { freePort, startDynamoDbLocal, type DynamoDbLocal } from '../../tools/local/dynamodb-local';
import { createDocumentClient, createDynamoClient } from '../../lib/storage/client';
import { startLocalIdentityProvider, type LocalIdentityProvider } from '../../tools/local/identity-provider';
import { ensureSecretsTable, ensureTable, indexOf } from '../../tools/local/create-table';
import { tableDefinition } from '../../infra/cdk/table-definition';

export const testTableName = 'crm-test';
/** Named explicitly, not left to the local default, so that commands run with --aws find it too. */
export const testSecretsTableName = 'crm-test-secrets';

/**
 * The JVMs a test run starts (its DynamoDB Local, and npm start's in test/e2e/start.test.ts) compile with
 * the client compiler (C1) alone: "compiles methods quickly but emits machine code that is less optimized
 * than the server compiler ... used for quick startup" (Compilation Optimization, Oracle JDK 11 docs:
 * https://docs.oracle.com/en/java/javase/11/jrockit-hotspot/compilation-optimization.html). A test run
 * lasts minutes, too short for the server compiler to pay back its compile threads: DynamoDB Local's CPU
 * time over test/integration went from 17 s to 8 s, over test/e2e from 37 s to 24 s, on two cores. The
 * JIT compiler changes how fast the Java code runs, not what it does.
 */
const testJvmOptions = '-XX:TieredStopAtLevel=1';

/** Started by jest's global setup; test files reach it through the environment it sets. */
export async function startTestDynamoDb(): Promise<DynamoDbLocal> {
  // Read by every JVM at its start (after a user's own options, which it extends), so the one spawned
  // below and those the tests start use it ("The JAVA_TOOL_OPTIONS Environment Variable", Java SE 21
  // Troubleshooting Guide: https://docs.oracle.com/en/java/javase/21/troubleshoot/environment-variables-and-system-properties.html).
  process.env.JAVA_TOOL_OPTIONS = [process.env.JAVA_TOOL_OPTIONS, testJvmOptions].filter(Boolean).join(' ');
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

/** After `startTestDynamoDb`: the run's cognito-local, its pool noted in the test table, its configuration in the environment. */
export async function startTestIdentityProvider(): Promise<LocalIdentityProvider> {
  const db = createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  try {
    const identityProvider = await startLocalIdentityProvider({ store: { db, tableName: testTableName } });
    Object.assign(process.env, identityProvider.env);
    return identityProvider;
  } finally {
    db.destroy();
  }
}

/**
 * A table kept from before the last upgrade, as a DATA_DIR may hold it: no stream, and every index but the last
 * (gsi6), so that `ensureTable` has to switch the stream on and add it. DynamoDB Local adds one index at a time, each
 * once the one before is active, which its Java process took more than a minute to report on a loaded machine: the
 * table lacks one index, which `ensureTable` creates without waiting for it.
 */
export async function createTableWithoutStream(client: DynamoDBClient): Promise<string> {
  const tableName = `crm-test-no-stream-${randomUUID()}`;
  const indexesThen = tableDefinition.globalSecondaryIndexes.filter((index) =>
    (indexesBeforeTheLists as readonly string[]).includes(index.indexName),
  );
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        ...indexesThen.flatMap((index) => [
          { AttributeName: index.partitionKey, AttributeType: 'S' as const },
          { AttributeName: index.sortKey, AttributeType: 'S' as const },
        ]),
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: indexesThen.map(indexOf),
    }),
  );
  return tableName;
}

const indexesBeforeTheLists = ['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5'] as const;
