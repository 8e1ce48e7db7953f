import { logger } from '../../observability';
import type { Deps } from '../../storage/client';
import { configOfRead, editWorkspaceConfig, partsOf, readConfigForEdit } from '../../storage/config-edits';
import {
  listWorkspacesToPurge,
  purgeProspectField,
  readProspectsAfter,
  type ProspectPurged,
} from '../../storage/field-purge';
import { isDeletedField, type DeletedField, type FieldEntry } from '../model';

/** How much one run of the purge does, and when a deletion is ready for it. */
export type FieldPurgeSettings = {
  settleSeconds: number;
  pageSize: number;
  pagesPerRun: number;
  concurrency: number;
};

/**
 * The purge of a deleted custom field (docs/adr/0016-custom-fields-storage.md, docs/data-model.md "The purge of a
 * deleted field"), scheduled on AWS (infra/cdk/constructs/outbound-events.ts) and run by `npm start` on the same terms.
 */
export const fieldPurgeSettings: FieldPurgeSettings & { intervalMinutes: number; timeoutSeconds: number } = {
  /** Minutes between two runs. */
  intervalMinutes: 1,
  /** A run's Lambda timeout: less than the interval, so two runs never overlap (reserved concurrency 1). */
  timeoutSeconds: 45,
  /**
   * A tombstone is walked once its deletion is this far past: a write that read the definition before the deletion
   * (a route function's 10 s, its DynamoDB calls 8 s of them) has landed by then, so no value of the key can be
   * written behind the walk.
   */
  settleSeconds: 60,
  /** Prospects of one page: one Query of index gsi3, then one Query per prospect, `concurrency` at a time. */
  pageSize: 100,
  /** Pages of one run, across the workspaces listed: 2 000 prospects a minute, a run of seconds. */
  pagesPerRun: 20,
  /** Prospects purged at once: modest, so a big workspace does not throttle the table for the API. */
  concurrency: 16,
};

/** What one run of the purge did. */
export type FieldPurgeOutcome = {
  /** Prospects walked. */
  prospects: number;
  /** Values removed from prospect items. */
  values: number;
  /** Change-log entries deleted. */
  entries: number;
  /** Tombstones whose purge ended (left as `{ key, deleted_at }`). */
  finished: number;
  /** The run stopped at its page budget: the next one goes on. */
  more: boolean;
};

/**
 * The tombstone a workspace's purge walks now: among those still `purging` and deleted at `settledAt` or before, the
 * oldest deletion (one walk at a time per workspace; the others wait their turn).
 */
export function tombstoneToPurge(fields: readonly FieldEntry[], settledAt: Date): DeletedField | undefined {
  return fields
    .filter(isDeletedField)
    .filter((tombstone) => tombstone.purging === true && Date.parse(tombstone.deleted_at) <= settledAt.getTime())
    .sort((a, b) => Date.parse(a.deleted_at) - Date.parse(b.deleted_at))[0];
}

/**
 * The fields once the purge of `key` has walked through a position (`through`, where the next page starts), or has
 * walked every prospect (`finished`: the tombstone keeps its key and deletion time only). Undefined when that
 * tombstone no longer purges, or already stands at or past that position: nothing to write. Decided from its argument
 * only, as a configuration edit must be (it runs again on the fresh configuration after a lost race).
 */
export function withPurgeProgress(
  fields: readonly FieldEntry[],
  key: string,
  progress: { through: string } | 'finished',
): FieldEntry[] | undefined {
  const tombstone = fields.filter(isDeletedField).find((entry) => entry.key === key && entry.purging === true);
  if (tombstone === undefined) return undefined;
  if (progress !== 'finished' && tombstone.purged_through !== undefined && tombstone.purged_through >= progress.through)
    return undefined;
  const moved: DeletedField =
    progress === 'finished'
      ? { key: tombstone.key, deleted_at: tombstone.deleted_at }
      : { ...tombstone, purged_through: progress.through };
  return fields.map((entry) => (entry === tombstone ? moved : entry));
}

/**
 * One run: the workspaces with a settled purge, oldest deletion first; in each, page after page of its prospects
 * from where the walk stopped, each prospect's value and entries of the key removed (`purgeProspectField`), then the
 * position kept on the tombstone by a configuration edit (conditional on `config_version`: an admin's edit made
 * meanwhile is never overwritten, the progress is applied again to it); after the last page the tombstone is left
 * as `{ key, deleted_at }`. At most `pagesPerRun` pages. A run that fails or stops anywhere loses nothing: the
 * next one redoes at most the page it was on, whose writes are conditional and find nothing the second time.
 */
export async function purgeDeletedFields(
  deps: Deps,
  settings: FieldPurgeSettings = fieldPurgeSettings,
): Promise<FieldPurgeOutcome> {
  const settledAt = new Date(deps.clock().getTime() - settings.settleSeconds * 1000);
  const workspaces = await listWorkspacesToPurge(deps, settledAt, settings.pagesPerRun);
  const outcome: FieldPurgeOutcome = { prospects: 0, values: 0, entries: 0, finished: 0, more: false };
  let pages = 0;
  for (const workspaceId of workspaces) {
    for (;;) {
      const read = await readConfigForEdit(deps, workspaceId);
      const tombstone = tombstoneToPurge(configOfRead(read)?.fields ?? [], settledAt);
      if (tombstone === undefined) break;
      if (pages === settings.pagesPerRun) {
        outcome.more = true;
        break;
      }
      pages += 1;
      const page = await readProspectsAfter(deps, workspaceId, tombstone.purged_through, settings.pageSize);
      for (const purged of await purgeAll(deps, workspaceId, tombstone.key, page.ids, settings.concurrency)) {
        outcome.prospects += 1;
        outcome.values += purged.value ? 1 : 0;
        outcome.entries += purged.entries;
      }
      const progress = page.more && page.through !== undefined ? { through: page.through } : 'finished';
      await editWorkspaceConfig(
        deps,
        workspaceId,
        (config) => {
          const fields = withPurgeProgress(config.fields, tombstone.key, progress);
          return fields === undefined ? 'unchanged' : { ...partsOf(config), fields };
        },
        undefined,
        read,
      );
      if (progress === 'finished') {
        outcome.finished += 1;
        // Ids and a key only: which field left the table, for whoever follows a deletion up.
        logger.info('Valeurs du champ supprimé retirées de la table', {
          event: 'field_purged',
          workspace_id: workspaceId,
          field_key: tombstone.key,
        });
      }
    }
    if (outcome.more) break;
  }
  logger.debug('deleted fields purged', { workspaces: workspaces.length, pages, ...outcome });
  return outcome;
}

/** Each prospect of a page purged, `concurrency` at a time. */
async function purgeAll(
  deps: Deps,
  workspaceId: string,
  key: string,
  prospectIds: readonly string[],
  concurrency: number,
): Promise<ProspectPurged[]> {
  const purged: ProspectPurged[] = [];
  for (let start = 0; start < prospectIds.length; start += concurrency) {
    const chunk = prospectIds.slice(start, start + concurrency);
    purged.push(...(await Promise.all(chunk.map((id) => purgeProspectField(deps, workspaceId, id, key)))));
  }
  return purged;
}
