/**
 * The one table definition: the CDK stack and the local table creation both read it,
 * so the deployed table and DynamoDB Local cannot drift apart.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  timeToLiveAttribute: 'expires_at',
  globalSecondaryIndexes: [
    /** API keys of a workspace, change log of an API key. */
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    /** A change-log entry by its id (admin undo). */
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
} as const;

export type IndexName = (typeof tableDefinition.globalSecondaryIndexes)[number]['indexName'];
