/**
 * The signing-secrets table (docs/adr/0012-signing-secrets-table.md): the CDK stack and the local
 * table creation both read this definition, as they read infra/cdk/table-definition.ts for the main table.
 *
 * Keys only: no change stream (the point of the table: a stream reader reads every record, with no
 * per-key condition), no index, no time to live (a secret lives as long as its subscription).
 * A subscription's secrets are stored under the subscription's own key (`WS#<ws>` / `SUB#<id>`,
 * lib/storage/table-items.ts), so the two are read together by key alone.
 */
export const secretsTableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
} as const;
