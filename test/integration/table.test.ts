import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '../../lib/storage/client';
import { projectionOf, tableDefinition } from '../../lib/storage/table';

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
