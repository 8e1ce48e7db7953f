import type { Deps } from '../../storage/client';
import type { ErasedKind } from '../../storage/erasure';
import { listRetainingWorkspaces, readWrittenBefore, type RetainingWorkspace } from '../../storage/retention';
import { ConflictError, NotFoundError } from '../model';
import { retentionCutoff } from '../retention';
import { eraseForRetentionOf, type RetentionErasureInput } from './erase-record';

/**
 * A run's bounds (docs/adr/0019-erasure-in-the-background.md, "Retention"): prospects, then candidates, read
 * `batchSize` at a time, at most `batchesPerRun` batches of either kind in all; what is left waits for the next run,
 * which finds it again in the same index (an erased record leaves it), so a run cut short or bounded resumes where it
 * stopped without a cursor of its own.
 */
export type RetentionSettings = { batchSize: number; batchesPerRun: number };

/** 100 records a batch, 50 batches: 5,000 erasures a run, each one transaction of milliseconds. */
export const retentionSettings: RetentionSettings = { batchSize: 100, batchesPerRun: 50 };

/** The daily rule's constant input (infra/cdk/constructs/erasure.ts): this run applies the workspaces' retention. */
export const retentionTask = 'retention';

export type RetentionRun = { workspaces: number; erased: number; kept: number; more: boolean };

/**
 * The daily retention (decisions of docs/api.md#erasure-export-and-retention): in every workspace that set
 * `retention_months`, each prospect and each candidate last written more than that many calendar months ago is erased
 * as an admin's erasure would (the same transaction and job), by no member, the audit summary saying why. A record
 * written since the index showed it is kept; one erased meanwhile is skipped.
 */
export async function applyRetention(
  deps: Pick<Deps, 'db' | 'tableName' | 'clock'>,
  settings: RetentionSettings = retentionSettings,
): Promise<RetentionRun> {
  const run: RetentionRun = { workspaces: 0, erased: 0, kept: 0, more: false };
  const budget = { batches: settings.batchesPerRun };
  for (const workspace of await listRetainingWorkspaces(deps)) {
    run.workspaces += 1;
    const retention = {
      months: workspace.retentionMonths,
      cutoff: retentionCutoff(deps.clock(), workspace.retentionMonths),
    };
    for (const kind of erasedKinds) {
      if ((await eraseKind(deps, { workspace, kind, retention, settings, budget }, run)) === 'budget_spent') {
        return { ...run, more: true };
      }
    }
  }
  return run;
}

const erasedKinds: readonly ErasedKind[] = ['prospect', 'candidate'];

type KindRun = {
  workspace: RetainingWorkspace;
  kind: ErasedKind;
  retention: { months: number; cutoff: Date };
  settings: RetentionSettings;
  /** The batches this run may still erase, of any workspace and kind. */
  budget: { batches: number };
};

/** The batches of one kind of one workspace, until none is left or the run's budget is spent. */
async function eraseKind(
  deps: Pick<Deps, 'db' | 'tableName' | 'clock'>,
  { workspace, kind, retention, settings, budget }: KindRun,
  run: RetentionRun,
): Promise<'done' | 'budget_spent'> {
  // Ids this run has dealt with: an index lagging its erasures (or the writes that kept them) lists them again.
  const seen = new Set<string>();
  for (;;) {
    const limit = settings.batchSize + seen.size;
    const listed = await readWrittenBefore(deps, workspace.partitions[kind], retention.cutoff, limit);
    const batch = listed.filter((id) => !seen.has(id)).slice(0, settings.batchSize);
    if (batch.length === 0) return 'done';
    // Only batches that hold records count: a run with nothing to erase reads each workspace's partitions once.
    if (budget.batches <= 0) return 'budget_spent';
    budget.batches -= 1;
    for (const recordId of batch) {
      seen.add(recordId);
      const outcome = await eraseForRetention(deps, {
        workspaceId: workspace.id,
        kind,
        recordId,
        memberId: null,
        retention,
        phoneRegion: workspace.phoneRegion,
      });
      run[outcome] += 1;
    }
  }
}

async function eraseForRetention(
  deps: Pick<Deps, 'db' | 'tableName' | 'clock'>,
  input: RetentionErasureInput,
): Promise<'erased' | 'kept'> {
  try {
    const outcome = await eraseForRetentionOf(deps, input);
    return outcome === 'kept' ? 'kept' : 'erased';
  } catch (error) {
    // Erased meanwhile (by an admin, or a run before), or written under every round of the erasure: the next run decides.
    if (error instanceof NotFoundError || error instanceof ConflictError) return 'kept';
    throw error;
  }
}
