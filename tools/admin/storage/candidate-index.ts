import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../../../lib/storage/client';
import { candidateIndexKeys, keys, notePrefix, type CandidateItem } from '../../../lib/storage/table-items';
import { indexingConcurrency, inParallel } from './phone-index';

/** What the reindex reads of a candidate: its keys, where it stands and what it last wrote (if it says). */
type StoredCandidate = Pick<
  CandidateItem,
  'pk' | 'workspace_id' | 'id' | 'pipeline_id' | 'version' | 'created_at' | 'gsi5pk' | 'gsi5sk'
> & { updated_at?: string };

/**
 * What a deployment adds to the candidates written before the index of their last write (docs/deploy.md#new-indexes,
 * docs/data-model.md, "Candidate"): each candidate of the workspace (of every workspace without one) is given its last
 * application as `updated_at` (the newest of its notes, each written by an application, when later than the stored
 * one: a known candidate that applied again before this version moved nothing) and its key in
 * `indexes.recordsByLastChange` (`candidateIndexKeys`), which the retention reads; on the condition that its version
 * did not move meanwhile (a new application writes both itself). Not a change: no `version`, no event. Run again, it
 * writes nothing.
 *
 * No index lists the candidates this reindex is for: it is the one Scan of the project (every page, filtered on the
 * candidate items), a one-off upgrade step run by an operator, never by a function.
 */
export async function reindexCandidates(
  store: Store,
  workspaceId: string | undefined,
): Promise<{ walked: number; written: number }> {
  const candidates = await listCandidates(store, workspaceId);
  let written = 0;
  await inParallel(candidates, indexingConcurrency, async (candidate) => {
    const lastNote = await newestNoteTime(store, candidate);
    const stored = candidate.updated_at ?? candidate.created_at;
    const updatedAt = lastNote !== undefined && lastNote > stored ? lastNote : stored;
    const wanted = candidateIndexKeys({ ...candidate, updated_at: updatedAt });
    if (
      candidate.updated_at === updatedAt &&
      candidate.gsi5pk === wanted.gsi5pk &&
      candidate.gsi5sk === wanted.gsi5sk
    ) {
      return;
    }
    try {
      await store.db.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: keys.candidate(candidate.workspace_id, candidate.id),
          UpdateExpression: 'SET updated_at = :updatedAt, gsi5pk = :indexPk, gsi5sk = :indexSk',
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: {
            ':updatedAt': updatedAt,
            ':indexPk': wanted.gsi5pk,
            ':indexSk': wanted.gsi5sk,
            ':version': candidate.version,
          },
        }),
      );
      written += 1;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  });
  return { walked: candidates.length, written };
}

/** Every candidate item of the table (of one workspace when given), what the reindex needs of it. */
async function listCandidates(store: Store, workspaceId: string | undefined): Promise<StoredCandidate[]> {
  const found: StoredCandidate[] = [];
  const pages = paginateScan(
    { client: store.db },
    {
      TableName: store.tableName,
      FilterExpression: workspaceId ? '#type = :candidate AND workspace_id = :workspace_id' : '#type = :candidate',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':candidate': 'candidate',
        ...(workspaceId ? { ':workspace_id': workspaceId } : {}),
      },
      ProjectionExpression: 'pk, workspace_id, id, pipeline_id, version, created_at, updated_at, gsi5pk, gsi5sk',
      ConsistentRead: true,
    },
  );
  for await (const page of pages) found.push(...((page.Items ?? []) as StoredCandidate[]));
  return found;
}

/** The creation time of the candidate's newest note (its sort key starts with it), strongly consistent. */
async function newestNoteTime(store: Store, candidate: StoredCandidate): Promise<string | undefined> {
  const { Items = [] } = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :notes)',
      ExpressionAttributeValues: { ':pk': candidate.pk, ':notes': notePrefix },
      ProjectionExpression: 'created_at',
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return Items[0]?.created_at as string | undefined;
}
