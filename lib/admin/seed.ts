import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps';
import { parseSeedDescription } from './seed-description';
import { planSeed, type SeedItem, type SeedOutput } from './seed-plan';

export type { SeedDescription } from './seed-description';
export type { SeedOutput } from './seed-plan';

/** TransactWriteItems accepts at most 100 actions. */
const transactionSize = 100;

/**
 * `seed`: creates one new workspace from a description (decisions 2) and returns every id and
 * secret. Secrets exist only in the returned output; the table keeps their fingerprints.
 */
export async function seedWorkspace(deps: Deps, description: unknown): Promise<SeedOutput> {
  const { items, output } = planSeed(deps, parseSeedDescription(description));
  await putAllNew(deps, items);
  return output;
}

/**
 * Transactions rather than BatchWriteItem: every put is conditional on the item not existing,
 * so a seed can never overwrite anything (BatchWriteItem has no conditions), and there is no
 * unprocessed-items retry loop to get right. Chunks are written in order, so the workspace item,
 * last of the plan, is written only once everything else is.
 */
async function putAllNew(deps: Deps, items: readonly SeedItem[]): Promise<void> {
  for (let start = 0; start < items.length; start += transactionSize) {
    await deps.db.send(
      new TransactWriteCommand({
        TransactItems: items.slice(start, start + transactionSize).map((item) => ({
          Put: { TableName: deps.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
        })),
      }),
    );
  }
}
