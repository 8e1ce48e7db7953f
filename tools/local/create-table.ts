import {
  UpdateTableCommand,
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { secretsTableDefinition } from '../../infra/cdk/secrets-table-definition';
import { projectionOf, tableDefinition } from '../../infra/cdk/table-definition';

type IndexDefinition = (typeof tableDefinition.globalSecondaryIndexes)[number];

export const indexOf = (index: IndexDefinition) => ({
  IndexName: index.indexName,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: projectionOf(index),
});

/** Local table creation from the one table definition (the CDK stack reads the same one). */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<'created' | 'existing'> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (!Table?.StreamSpecification?.StreamEnabled) await enableStream(client, tableName);
    await addMissingIndexes(client, tableName, new Set(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName)));
    return 'existing';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const attributes = new Set<string>([tableDefinition.partitionKey, tableDefinition.sortKey]);
  for (const index of tableDefinition.globalSecondaryIndexes) {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamViewType },
      AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map(indexOf),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
    }),
  );
  return 'created';
}

/**
 * A table kept in DATA_DIR from before outbound events has no stream: switched on, so that
 * `npm start` delivers events on it too (its earlier writes never emit any).
 */
async function enableStream(client: DynamoDBClient, tableName: string): Promise<void> {
  await client.send(
    new UpdateTableCommand({
      TableName: tableName,
      StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamViewType },
    }),
  );
}

/**
 * A table kept in DATA_DIR from before an index was added to the definition (gsi4, the sweep's)
 * gets it, one UpdateTable per index, as DynamoDB creates one index at a time ("UpdateTable",
 * Amazon DynamoDB API Reference, https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html:
 * "You can create or delete only one global secondary index per UpdateTable operation"): each waits
 * for the one before to be ACTIVE. The last is left to backfill on its own, however long DynamoDB
 * Local takes on a busy machine: `npm start` serves at once, and the index's only reader, the sweep,
 * runs minutes later (and again after a run that found it still CREATING). Items written before are
 * in it once backfilled, as far as they carry its keys.
 */
async function addMissingIndexes(client: DynamoDBClient, tableName: string, present: ReadonlySet<string | undefined>) {
  const missing = tableDefinition.globalSecondaryIndexes.filter((index) => !present.has(index.indexName));
  for (const [position, index] of missing.entries()) {
    const previous = missing[position - 1];
    if (previous !== undefined) await untilIndexActive(client, tableName, previous.indexName);
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [
          { AttributeName: index.partitionKey, AttributeType: 'S' },
          { AttributeName: index.sortKey, AttributeType: 'S' },
        ],
        GlobalSecondaryIndexUpdates: [{ Create: indexOf(index) }],
      }),
    );
  }
}

async function untilIndexActive(client: DynamoDBClient, tableName: string, indexName: string): Promise<void> {
  // DynamoDB Local took more than a minute to report an index active on a loaded machine: up to five minutes.
  for (let attempt = 0; attempt < 3000; attempt += 1) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const index = Table?.GlobalSecondaryIndexes?.find((candidate) => candidate.IndexName === indexName);
    if (index?.IndexStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`index ${indexName} of ${tableName} still not active after 5 minutes`);
}

/**
 * The signing-secrets table, from its own definition: keys only, and no stream (ADR 0012). Created
 * when missing, so a local table set kept in DATA_DIR from before it existed gets it too.
 */
export async function ensureSecretsTable(client: DynamoDBClient, tableName: string): Promise<'created' | 'existing'> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return 'existing';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [secretsTableDefinition.partitionKey, secretsTableDefinition.sortKey].map((name) => ({
        AttributeName: name,
        AttributeType: 'S',
      })),
      KeySchema: [
        { AttributeName: secretsTableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: secretsTableDefinition.sortKey, KeyType: 'RANGE' },
      ],
    }),
  );
  return 'created';
}
