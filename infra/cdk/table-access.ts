import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type {
  ItemAction,
  KeyPrefix,
  SecretsTableAction,
  SecretsTableWrite,
  TableAction,
  TableKeys,
} from './route-grants';
import { deletablePrefixes, erasedPrefixes, purgedPrefixes } from '../../lib/storage/table-items';
import { tableDefinition } from './table-definition';

/**
 * IAM has no TransactWriteItems action: DynamoDB checks each write of a transaction against
 * PutItem, UpdateItem, DeleteItem or ConditionCheckItem, so a route writing in a transaction
 * lists those item actions too, and only they are granted.
 */
const transactionItemActions: readonly TableAction[] = ['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'];

/** `UNIQ#` → `UNIQ#*`: IAM's StringLike pattern of the partitions under a prefix. */
export const leadingKeyPatterns = (prefixes: readonly KeyPrefix[]): string[] => prefixes.map((prefix) => `${prefix}*`);

/** The most any DeleteItem (plain or in a transaction) may reach: a route names its own, among these. */
export const deletableLeadingKeys = leadingKeyPatterns(deletablePrefixes);

/**
 * Every partition key the call names matches one of the patterns, and the call names at least one:
 * `ForAllValues` alone holds when the key is absent (an empty set), hence the `Null` guard.
 */
export const leadingKeysCondition = (prefixes: readonly KeyPrefix[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeyPatterns(prefixes) },
  Null: { 'dynamodb:LeadingKeys': 'false' },
});

/**
 * Exactly the table actions of one function, each confined by `dynamodb:LeadingKeys` to the
 * partition-key prefixes `keys` gives for it; actions with the same prefixes share a statement
 * (as the CDK's policy minimization would merge them anyway). DeleteItem within the deletable prefixes only, or for
 * the purge of deleted custom fields (`purgesDeletedFields`) also `PROSPECT#`, for the erasing functions (`erasesRecords`)
 * also the erased record's prefixes (`erasedPrefixes`).
 * Query on an index only for the indexes `keys` names, one by one: gsi1 holds every workspace's
 * API-key fingerprints, and no route handler reads it.
 */
export function tableAccessStatements(
  table: ITable,
  actions: readonly TableAction[],
  keys: TableKeys = {},
): PolicyStatement[] {
  if (actions.includes('TransactWriteItems') && !actions.some((action) => transactionItemActions.includes(action))) {
    throw new Error('A route listing TransactWriteItems must list the item actions of its transactions as well');
  }
  const itemActions = [...new Set(actions)].filter((action): action is ItemAction => action !== 'TransactWriteItems');
  const { indexes = [], purgesDeletedFields, erasesRecords, ...prefixesOf } = keys;
  const unlisted = Object.keys(prefixesOf).filter((action) => !itemActions.includes(action as ItemAction));
  if (unlisted.length > 0) throw new Error(`Key prefixes for actions not granted: ${unlisted.join(', ')}`);
  const deletable: readonly string[] = [
    ...deletablePrefixes,
    ...(purgesDeletedFields ? purgedPrefixes : []),
    ...(erasesRecords ? erasedPrefixes : []),
  ];
  const notDeletable = (prefixesOf.DeleteItem ?? []).filter((prefix) => !deletable.includes(prefix));
  if (notDeletable.length > 0)
    throw new Error(`DeleteItem on prefixes that are not deletable: ${notDeletable.join(', ')}`);

  const byPrefixes = new Map<string, { prefixes: readonly KeyPrefix[]; actions: ItemAction[] }>();
  for (const action of itemActions) {
    const prefixes = prefixesOf[action] ?? [];
    // A Query of the named indexes only: no statement on the table itself.
    if (prefixes.length === 0 && action === 'Query' && indexes.length > 0) continue;
    if (prefixes.length === 0) throw new Error(`${action} granted without the key prefixes it reaches`);
    const group = [...prefixes].sort().join(' ');
    byPrefixes.set(group, { prefixes, actions: [...(byPrefixes.get(group)?.actions ?? []), action] });
  }
  const statements = [...byPrefixes.values()].map(
    (group) =>
      new PolicyStatement({
        actions: group.actions.map((action) => `dynamodb:${action}`),
        resources: [table.tableArn],
        conditions: leadingKeysCondition(group.prefixes),
      }),
  );
  if (indexes.length > 0) {
    if (!itemActions.includes('Query')) throw new Error('Indexes are named for Query only');
    const defined: readonly string[] = tableDefinition.globalSecondaryIndexes.map((index) => index.indexName);
    const undefinedIndexes = indexes.filter((index) => !defined.includes(index));
    if (undefinedIndexes.length > 0)
      throw new Error(`Indexes the table does not define: ${undefinedIndexes.join(', ')}`);
    statements.push(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: indexes.map((index) => `${table.tableArn}/index/${index}`),
      }),
    );
  }
  return statements;
}

/**
 * A write to the signing-secrets table that hands nothing back: the `ReturnValues` of the request, "one of the
 * following: ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW, or NONE" (`dynamodb:ReturnValues`, "Actions, resources, and
 * condition keys for Amazon DynamoDB",
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html#amazondynamodb-policy-keys;
 * "Using IAM policy conditions for fine-grained access control",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html), is NONE or absent, as
 * the SDK leaves it when the caller names none ("NONE - If ReturnValues is not specified, or if its value is NONE,
 * then nothing is returned", "PutItem", DynamoDB API Reference,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html). A write asking for the item
 * overwritten or deleted (ALL_OLD) would read the secret it replaces: refused. The items of a transaction, the
 * functions' only writes there, take no ReturnValues at all. `ReturnValuesOnConditionCheckFailure` has no condition
 * key: the functions never send it on this table (test/infra/iam-least-privilege.test.ts records their calls).
 */
const returnsNothing = { StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' } } as const;

const secretsTableWrites: readonly string[] = ['PutItem', 'UpdateItem', 'DeleteItem'] satisfies SecretsTableWrite[];

/**
 * A signing function's read of the signing-secrets table, or a settings route's write there (a secret created,
 * rotated or deleted): exactly `actions`, on that table's ARN alone (no index, no stream: it has neither). No
 * partition condition: the table holds secrets only, each of which the function may need. The writes in a statement
 * of their own, which returns nothing (`returnsNothing`): write-only, by IAM.
 */
export function secretsTableStatements(
  secretsTable: ITable,
  actions: readonly (SecretsTableAction | SecretsTableWrite)[],
): PolicyStatement[] {
  const distinct = [...new Set(actions)];
  const reads = distinct.filter((action) => !secretsTableWrites.includes(action));
  const writes = distinct.filter((action) => secretsTableWrites.includes(action));
  const statement = (granted: readonly string[], conditions?: typeof returnsNothing) =>
    new PolicyStatement({
      actions: granted.map((action) => `dynamodb:${action}`),
      resources: [secretsTable.tableArn],
      ...(conditions ? { conditions } : {}),
    });
  return [
    ...(reads.length > 0 ? [statement(reads)] : []),
    ...(writes.length > 0 ? [statement(writes, returnsNothing)] : []),
  ];
}
