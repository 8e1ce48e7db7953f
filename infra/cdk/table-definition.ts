import { indexes } from '../../lib/storage/table-items';

/**
 * The one table definition: the CDK stack and the local table creation both read it,
 * so the deployed table and DynamoDB Local cannot drift apart.
 *
 * An index projects every attribute (`ALL`) unless it names the non-key attributes it copies
 * (`INCLUDE`): besides those, an item's table keys and the index's keys are always projected.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  timeToLiveAttribute: 'expires_at',
  /**
   * The change stream outbound events are built from (docs/events.md): both images, so a change is
   * the difference between the item before and after its write.
   */
  streamViewType: 'NEW_AND_OLD_IMAGES',
  globalSecondaryIndexes: [
    /** API keys of a workspace, change log of an API key. */
    { indexName: indexes.listsInCreationOrder, partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: { type: 'ALL' } },
    /** A change-log entry by its id (admin undo). */
    { indexName: indexes.changeLogEntryById, partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: { type: 'ALL' } },
    /**
     * The prospects of a workspace, oldest first (admin `workspace set`, indexing phones in E.164):
     * only what the indexing reads, so a stage move, a tag, a note or a follow-up never writes the index.
     */
    {
      indexName: indexes.prospectPhonesOfWorkspace,
      partitionKey: 'gsi3pk',
      sortKey: 'gsi3sk',
      // Only what E.164 indexing reads: a prospect's index entry is rewritten when one of these
      // changes, never for a stage move, a tag or a follow-up (docs/data-model.md, "Phone matching in E.164").
      projection: { type: 'INCLUDE', nonKeyAttributes: ['id', 'phone', 'created_at'] },
    },
    /**
     * Work waiting for a scheduled function, by time; sparse. Pending deliveries of every workspace by the time of
     * their next attempt (the sweep, lib/domain/events/sweep.ts; docs/data-model.md, "Pending deliveries"): a
     * delivery is in it only while `pending`, spread over 16 partitions by its id so that no one partition takes
     * every delivery being written; only what a queue message needs, so a claim or an attempt count changes nothing
     * projected and only a new schedule writes the index. And the configuration items of the workspaces with a
     * deleted custom field to purge, by the oldest deletion (lib/domain/fields/field-purge.ts; docs/data-model.md,
     * "The purge of a deleted field"), of which `id` (the workspace's) is what the purge reads.
     */
    {
      indexName: indexes.pendingWorkByTime,
      partitionKey: 'gsi4pk',
      sortKey: 'gsi4sk',
      projection: { type: 'INCLUDE', nonKeyAttributes: ['workspace_id', 'id', 'subscription_id', 'step'] },
    },
    /**
     * The lists of prospects (docs/adr/0017-lists-of-prospects.md), keys only: a list reads the prospects themselves,
     * strongly, so an entry is rewritten only when its key moves. By stage, in the order of the last change (where the
     * candidates of each recruitment pipeline also stand, by their last application, for the retention: partitions of
     * their own, which no list reads); and, while a follow-up is set, by follow-up.
     */
    {
      indexName: indexes.recordsByLastChange,
      partitionKey: 'gsi5pk',
      sortKey: 'gsi5sk',
      projection: { type: 'KEYS_ONLY' },
    },
    {
      indexName: indexes.prospectsByFollowUp,
      partitionKey: 'gsi6pk',
      sortKey: 'gsi6sk',
      projection: { type: 'KEYS_ONLY' },
    },
  ],
} as const;

export type IndexName = (typeof tableDefinition.globalSecondaryIndexes)[number]['indexName'];

/** An index's projection as DynamoDB's API and CloudFormation spell it. */
export type IndexProjection =
  { ProjectionType: 'ALL' | 'KEYS_ONLY' } | { ProjectionType: 'INCLUDE'; NonKeyAttributes: string[] };

export type IndexDefinition = (typeof tableDefinition.globalSecondaryIndexes)[number];

export const projectionOf = (index: IndexDefinition): IndexProjection =>
  index.projection.type === 'INCLUDE'
    ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.nonKeyAttributes] }
    : { ProjectionType: index.projection.type };

/** The non-key attributes an index copies besides the keys. */
export const projectedAttributes = (index: IndexDefinition): readonly string[] =>
  index.projection.type === 'INCLUDE' ? index.projection.nonKeyAttributes : [];
