import { randomUUID } from 'node:crypto';
import { createTableWithoutStream } from '../support/dynamodb';
import { DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '../../lib/storage/client';
import { ensureSecretsTable, ensureTable } from '../../tools/local/create-table';
import { secretsTableDefinition } from '../../infra/cdk/secrets-table-definition';
import { projectionOf, tableDefinition } from '../../infra/cdk/table-definition';

test('the local table is created from the one table definition', async () => {
  const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  const { Table } = await client.send(new DescribeTableCommand({ TableName: process.env.TABLE_NAME }));
  client.destroy();
  expect(Table?.KeySchema).toEqual([
    { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
    { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
  ]);
  expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(
    tableDefinition.globalSecondaryIndexes.map((index) => index.indexName).sort(),
  );
  for (const index of tableDefinition.globalSecondaryIndexes) {
    const created = Table?.GlobalSecondaryIndexes?.find((candidate) => candidate.IndexName === index.indexName);
    expect(created?.Projection).toEqual(projectionOf(index));
  }
});

test('the local table has the change stream of the table definition', async () => {
  const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  const { Table } = await client.send(new DescribeTableCommand({ TableName: process.env.TABLE_NAME }));
  client.destroy();
  expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: tableDefinition.streamViewType });
});

test('a table kept without its stream nor the lists’ indexes gets its stream switched on and every index of the definition', async () => {
  const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  const tableName = await createTableWithoutStream(client);
  expect(await ensureTable(client, tableName)).toBe('existing');
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  expect(await ensureTable(client, tableName)).toBe('existing');
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  client.destroy();
  expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
  // The index added last may still be backfilling (ensureTable does not wait for it); present either way.
  expect(Table?.GlobalSecondaryIndexes?.map((index) => [index.IndexName, index.Projection])).toEqual(
    expect.arrayContaining(
      tableDefinition.globalSecondaryIndexes.map((index) => [index.indexName, projectionOf(index)]),
    ),
  );
  expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexStatus)).toEqual(
    Table?.GlobalSecondaryIndexes?.map(() => expect.stringMatching(/^(CREATING|ACTIVE)$/)),
  );
  expect(Table?.GlobalSecondaryIndexes).toHaveLength(tableDefinition.globalSecondaryIndexes.length);
  // DynamoDB Local, as DynamoDB, adds one index at a time, each once the one before is active: seconds apiece.
}, 90_000);

test('the local signing-secrets table is created from its own definition: keys only, no stream', async () => {
  const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  const { Table } = await client.send(new DescribeTableCommand({ TableName: process.env.SECRETS_TABLE_NAME }));
  client.destroy();
  expect(Table?.KeySchema).toEqual([
    { AttributeName: secretsTableDefinition.partitionKey, KeyType: 'HASH' },
    { AttributeName: secretsTableDefinition.sortKey, KeyType: 'RANGE' },
  ]);
  expect(Table?.StreamSpecification?.StreamEnabled ?? false).toBe(false);
  expect(Table?.GlobalSecondaryIndexes).toBeUndefined();
});

test('a local table set kept from before the secrets table gets it created, once', async () => {
  const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  const secretsTableName = `crm-test-kept-${randomUUID()}-secrets`;
  expect(await ensureSecretsTable(client, secretsTableName)).toBe('created');
  expect(await ensureSecretsTable(client, secretsTableName)).toBe('existing');
  const { Table } = await client.send(new DescribeTableCommand({ TableName: secretsTableName }));
  await client.send(new DeleteTableCommand({ TableName: secretsTableName }));
  client.destroy();
  expect(Table?.StreamSpecification?.StreamEnabled ?? false).toBe(false);
});
