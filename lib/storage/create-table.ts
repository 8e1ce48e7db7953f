import {
  UpdateTableCommand,
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { secretsTableDefinition } from './secrets-table';
import { projectionOf, tableDefinition } from './table';

/** Local table creation from the one table definition (the CDK stack reads the same one). */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<'created' | 'existing'> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (!Table?.StreamSpecification?.StreamEnabled) await enableStream(client, tableName);
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
      GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: projectionOf(index),
      })),
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
