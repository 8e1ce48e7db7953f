import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../lib/storage/client';

/**
 * What a test reads of the table itself, strongly consistent, to check what a use case left there: one item by its
 * key, a whole partition (one Query page: a test's partitions are small).
 */
export function strongReads(deps: Pick<Deps, 'db' | 'tableName'>) {
  return {
    item: async (key: { pk: string; sk: string }) =>
      (await deps.db.send(new GetCommand({ TableName: deps.tableName, Key: key, ConsistentRead: true }))).Item,
    partition: async (pk: string) =>
      (
        await deps.db.send(
          new QueryCommand({
            TableName: deps.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': pk },
            ConsistentRead: true,
          }),
        )
      ).Items ?? [],
  };
}
