import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { TableAction } from '../../lib/routes';
import { deletablePrefixes } from '../../lib/storage/keys';
import { tableDefinition } from '../../lib/storage/table';

/**
 * IAM has no TransactWriteItems action: DynamoDB checks each write of a transaction against
 * PutItem, UpdateItem, DeleteItem or ConditionCheckItem, so a route writing in a transaction
 * lists those item actions too, and only they are granted.
 */
const transactionItemActions: readonly TableAction[] = ['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'];

/** Deletions (plain or inside a transaction) only on partitions whose key starts with a deletable prefix. */
export const deletableLeadingKeys = deletablePrefixes.map((prefix) => `${prefix}*`);

/**
 * Exactly the table actions of one function. The route list cannot say which index a Query
 * reads, so a function that queries gets Query on every index, named one by one (no index
 * wildcard), and a function that does not query gets no index at all.
 */
export function tableAccessStatements(table: ITable, actions: readonly TableAction[]): PolicyStatement[] {
  if (actions.includes('TransactWriteItems') && !actions.some((action) => transactionItemActions.includes(action))) {
    throw new Error('A route listing TransactWriteItems must list the item actions of its transactions as well');
  }
  const itemActions = [...new Set(actions)].filter(
    (action) => action !== 'TransactWriteItems' && action !== 'DeleteItem',
  );
  const statements: PolicyStatement[] = [];
  if (itemActions.length > 0) {
    statements.push(
      new PolicyStatement({ actions: itemActions.map((action) => `dynamodb:${action}`), resources: [table.tableArn] }),
    );
  }
  if (actions.includes('Query')) {
    statements.push(new PolicyStatement({ actions: ['dynamodb:Query'], resources: indexArns(table) }));
  }
  if (actions.includes('DeleteItem')) {
    statements.push(
      new PolicyStatement({
        actions: ['dynamodb:DeleteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': deletableLeadingKeys } },
      }),
    );
  }
  return statements;
}

const indexArns = (table: ITable): string[] =>
  tableDefinition.globalSecondaryIndexes.map((index) => `${table.tableArn}/index/${index.indexName}`);
