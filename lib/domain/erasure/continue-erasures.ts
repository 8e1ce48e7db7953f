import type { Deps } from '../../storage/client';
import {
  clearCall,
  deleteCopy,
  deleteFollowUpScheduleOf,
  finishErasure,
  listErasures,
  readAnswersAbout,
  readErasure,
  readRecordPartition,
  readWorkspacePage,
  recordErasureProgress,
  type Erasure,
} from '../../storage/erasure';
import type { ItemKey } from '../../storage/table-items';
import { carriesContact, isAbout, textOf } from './person-copies';

/**
 * How much one run does (docs/adr/0019-erasure-in-the-background.md): jobs read from the index, pages of at most
 * `pageSize` items, deletes in flight at once; at most `recordPagesPerRun` pages of the records' own partitions and kept
 * answers (a few small pages a record), and at most `pagesPerRun` pages of the workspaces' journals and deliveries
 * (each page walked once for every job of its workspace at that step). A run every minute goes on from the recorded
 * steps; a job whose copies fill more than a run's pages takes the next runs too.
 */
export type ErasureSettings = {
  /** How often a run starts: every minute on AWS (an EventBridge schedule), more often in `npm start`. */
  intervalMinutes: number;
  localIntervalSeconds: number;
  jobsPerRun: number;
  pageSize: number;
  recordPagesPerRun: number;
  pagesPerRun: number;
  inFlight: number;
  /**
   * The deliveries step waits this long after the erasure: the change stream may still turn a write made just before
   * it into a delivery (its records reach the stream handler within seconds), which the step must find.
   */
  deliveriesAfterSeconds: number;
};

/**
 * 100 jobs a run: a retention's batch of one workspace (100 records) walks its journal and deliveries together. 300
 * record pages: the three a record's partition and answers take at least (a page, the empty page that ends the step,
 * the answers), for each of the 100.
 */
export const erasureSettings: ErasureSettings = {
  intervalMinutes: 1,
  localIntervalSeconds: 10,
  jobsPerRun: 100,
  pageSize: 100,
  recordPagesPerRun: 300,
  pagesPerRun: 50,
  inFlight: 16,
  deliveriesAfterSeconds: 60,
};

/** What a run did: the jobs it read, those it finished, the pages it read (records' and workspaces' together). */
export type ErasureRun = { jobs: number; finished: number; pages: number };

/** The pages a run may still read, of each kind. */
type Budget = { recordPages: number; workspacePages: number };

/**
 * The scheduled run (functions/events/erase-records.ts): takes the jobs under way, oldest first; moves each through its
 * record's own partition and kept answers; then, workspace by workspace, walks the journal and then the deliveries
 * once for all the jobs standing at that step, until their copies are all deleted or the run's pages are spent. Every
 * page is idempotent (a delete of what is gone deletes nothing), and each job's progress is recorded only if nobody
 * moved it meanwhile, so an interrupted run, or two at once, leave nothing half done: the next run repeats at most one
 * page.
 */
export async function continueErasures(
  deps: Pick<Deps, 'db' | 'tableName' | 'clock'>,
  settings: ErasureSettings = erasureSettings,
): Promise<ErasureRun> {
  const now = deps.clock();
  const run: ErasureRun = { jobs: 0, finished: 0, pages: 0 };
  const budget: Budget = { recordPages: settings.recordPagesPerRun, workspacePages: settings.pagesPerRun };
  const listed = await listErasures(deps, now, settings.jobsPerRun);
  const read: (Erasure | undefined)[] = [];
  await inBatches(listed, settings.inFlight, async (key) => void read.push(await readErasure(deps, key)));
  const jobs = read.filter((job): job is Erasure => job !== undefined);
  run.jobs = jobs.length;
  const standing: Erasure[] = [];
  for (const job of jobs) {
    const moved = await throughRecord(deps, job, settings, budget, run);
    if (moved) standing.push(moved);
  }
  for (const together of byWorkspace(standing)) {
    const atCalls = together.filter((job) => job.step === 'calls');
    const pastCalls = await walkTogether(deps, 'calls', atCalls, settings, budget, run);
    const atDeliveries = [...together.filter((job) => job.step === 'deliveries'), ...pastCalls].filter(
      (job) => now.getTime() - Date.parse(job.erased_at) >= settings.deliveriesAfterSeconds * 1000,
    );
    for (const job of await walkTogether(deps, 'deliveries', atDeliveries, settings, budget, run)) {
      // A write of the prospect made just before its erasure may have scheduled its follow-up again since.
      await deleteFollowUpScheduleOf(deps, job);
      await finishErasure(deps, job);
      run.finished += 1;
    }
  }
  return run;
}

/**
 * Moves one job through the steps of its record's own (`records`, `answers`) while the run's record pages last: the job
 * as it then stands (at `calls` or later once they are done), or undefined when another run moved it meanwhile.
 */
async function throughRecord(
  deps: Pick<Deps, 'db' | 'tableName'>,
  start: Erasure,
  settings: ErasureSettings,
  budget: Budget,
  run: ErasureRun,
): Promise<Erasure | undefined> {
  let job = start;
  while (job.step === 'records' || job.step === 'answers') {
    if (budget.recordPages <= 0) return undefined;
    budget.recordPages -= 1;
    run.pages += 1;
    const copies =
      job.step === 'records'
        ? await readRecordPartition(deps, job, settings.pageSize)
        : await readAnswersAbout(deps, job, settings.pageSize);
    if (copies.length > 0) {
      await inBatches(copies, settings.inFlight, (key) => deleteCopy(deps, key));
      continue;
    }
    const next = { step: job.step === 'records' ? 'answers' : 'calls' } as const;
    if (!(await recordErasureProgress(deps, job, next))) return undefined;
    job = withProgress(job, next);
  }
  return job;
}

/**
 * The workspace's journal (`calls`) or deliveries walked once for every job of that workspace standing at that step,
 * from the earliest place one of them stopped: each page's copies of any of their records deleted, then each job's
 * progress recorded, on the condition that it still stands where it was read. A job that had walked further waits
 * until the walk passes where it stopped (what lies before was done for it already); the walk's last page finishes the
 * step for every job. Returns the jobs that finished it in this run, moved on to the next step (`deliveries` after
 * `calls`; after `deliveries` the job is the caller's to finish).
 */
async function walkTogether(
  deps: Pick<Deps, 'db' | 'tableName'>,
  partition: 'calls' | 'deliveries',
  jobs: readonly Erasure[],
  settings: ErasureSettings,
  budget: Budget,
  run: ErasureRun,
): Promise<Erasure[]> {
  let walking = [...jobs];
  const first = walking[0];
  if (!first) return [];
  let position = earliest(walking);
  while (walking.length > 0 && budget.workspacePages > 0) {
    budget.workspacePages -= 1;
    run.pages += 1;
    const page = await readWorkspacePage(
      deps,
      partition,
      { workspace_id: first.workspace_id, ...(position ? { resume: position } : {}) },
      settings.pageSize,
    );
    await (partition === 'calls' ? clearCalls : deleteDeliveries)(deps, page.items, walking, settings);
    const next: Pick<Erasure, 'step' | 'resume'> = page.next
      ? { step: partition, resume: page.next }
      : { step: 'deliveries' };
    const progressed = await Promise.all(
      walking.map(async (job) => {
        // Walked further before: this page lay behind it, nothing to record.
        if (page.next && job.resume && page.next.sk <= job.resume.sk) return job;
        // The last page of the deliveries: the job is done, for the caller to finish.
        if (!page.next && partition === 'deliveries') return job;
        return (await recordErasureProgress(deps, job, next)) ? withProgress(job, next) : undefined;
      }),
    );
    // The last page: every job still walking has walked the whole partition.
    if (!page.next) return progressed.filter((job): job is Erasure => job !== undefined);
    walking = progressed.filter((job): job is Erasure => job !== undefined);
    position = page.next;
  }
  return [];
}

/** Where a walk for these jobs starts: the partition's start when one of them has not begun it, else the earliest. */
function earliest(jobs: readonly Erasure[]): ItemKey | undefined {
  let found: ItemKey | undefined;
  for (const job of jobs) {
    if (!job.resume) return undefined;
    if (!found || job.resume.sk < found.sk) found = job.resume;
  }
  return found;
}

/**
 * A journal page: a call whose `record_id` is one of the records loses it, a failed call whose kept body carries one of
 * their contacts loses its body.
 */
async function clearCalls(
  deps: Pick<Deps, 'db' | 'tableName'>,
  calls: readonly Record<string, unknown>[],
  jobs: readonly Erasure[],
  settings: ErasureSettings,
): Promise<void> {
  const records = new Set(jobs.map((job) => job.record_id));
  await inBatches(calls, settings.inFlight, async (call) => {
    const recordId = typeof call.record_id === 'string' && records.has(call.record_id) ? call.record_id : undefined;
    const text = typeof call.body === 'string' ? textOf(call.body, call.body_base64 === true) : undefined;
    const body = text !== undefined && jobs.some((job) => carriesContact(text, job));
    if (recordId || body) await clearCall(deps, keyOf(call), { ...(recordId ? { recordId } : {}), body });
  });
}

/** A deliveries page: those whose event is about one of the records deleted. */
async function deleteDeliveries(
  deps: Pick<Deps, 'db' | 'tableName'>,
  deliveries: readonly Record<string, unknown>[],
  jobs: readonly Erasure[],
  settings: ErasureSettings,
): Promise<void> {
  const copies = deliveries.filter((delivery) => jobs.some((job) => isAbout(delivery, job)));
  await inBatches(copies, settings.inFlight, (delivery) => deleteCopy(deps, keyOf(delivery)));
}

/** The jobs by workspace, in the order their workspaces first come. */
function byWorkspace(jobs: readonly Erasure[]): Erasure[][] {
  const groups = new Map<string, Erasure[]>();
  for (const job of jobs) groups.set(job.workspace_id, [...(groups.get(job.workspace_id) ?? []), job]);
  return [...groups.values()];
}

const withProgress = (job: Erasure, next: Pick<Erasure, 'step' | 'resume'>): Erasure => {
  const moved = { ...job, ...next };
  if (!next.resume) delete moved.resume;
  return moved;
};

const keyOf = (item: Record<string, unknown>): ItemKey => ({ pk: item.pk as string, sk: item.sk as string });

async function inBatches<T>(values: readonly T[], size: number, work: (value: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < values.length; start += size) {
    await Promise.all(values.slice(start, start + size).map(work));
  }
}
