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
  type ErasureStep,
} from '../../storage/erasure';
import type { ItemKey } from '../../storage/table-items';
import { carriesContact, isAbout, textOf } from './person-copies';

/**
 * How much one run does (docs/adr/0019-erasure-in-the-background.md): jobs read from the index, pages of at most
 * `pageSize` items, at most `pagesPerRun` pages in all, deletes in flight at once. A run every minute goes on from the
 * recorded step; a job whose copies fill more than a run's pages takes the next runs too.
 */
export type ErasureSettings = {
  /** How often a run starts: every minute on AWS (an EventBridge schedule), more often in `npm start`. */
  intervalMinutes: number;
  localIntervalSeconds: number;
  jobsPerRun: number;
  pageSize: number;
  pagesPerRun: number;
  inFlight: number;
  /**
   * The deliveries step waits this long after the erasure: the change stream may still turn a write made just before
   * it into a delivery (its records reach the stream handler within seconds), which the step must find.
   */
  deliveriesAfterSeconds: number;
};

export const erasureSettings: ErasureSettings = {
  intervalMinutes: 1,
  localIntervalSeconds: 10,
  jobsPerRun: 20,
  pageSize: 100,
  pagesPerRun: 50,
  inFlight: 16,
  deliveriesAfterSeconds: 60,
};

export type ErasureRun = { jobs: number; finished: number; pages: number };

/**
 * The scheduled run (functions/events/erase-records.ts): takes the jobs under way, oldest first, and moves each on by
 * steps until its copies are all deleted or the run's pages are spent. Every step is idempotent (a delete of what is
 * gone deletes nothing), and its progress is recorded only if nobody moved the job meanwhile, so an interrupted run,
 * or two at once, leave nothing half done: the next run repeats at most one page.
 */
export async function continueErasures(
  deps: Pick<Deps, 'db' | 'tableName' | 'clock'>,
  settings: ErasureSettings = erasureSettings,
): Promise<ErasureRun> {
  const now = deps.clock();
  const run: ErasureRun = { jobs: 0, finished: 0, pages: 0 };
  for (const key of await listErasures(deps, now, settings.jobsPerRun)) {
    if (run.pages >= settings.pagesPerRun) break;
    const job = await readErasure(deps, key);
    if (!job) continue;
    run.jobs += 1;
    if (await advance(deps, job, now, settings, run)) run.finished += 1;
  }
  return run;
}

/** Moves one job on; true once it is finished. */
async function advance(
  deps: Pick<Deps, 'db' | 'tableName'>,
  start: Erasure,
  now: Date,
  settings: ErasureSettings,
  run: ErasureRun,
): Promise<boolean> {
  let job = start;
  while (run.pages < settings.pagesPerRun) {
    run.pages += 1;
    const next = await stepOnce(deps, job, now, settings);
    if (next === 'wait') return false;
    if (next === 'finished') {
      await finishErasure(deps, job);
      return true;
    }
    if (next === 'same') continue;
    if (!(await recordErasureProgress(deps, job, next))) return false;
    job = { ...job, ...next };
    if (!next.resume) delete job.resume;
  }
  return false;
}

type StepResult = 'same' | 'wait' | 'finished' | Pick<Erasure, 'step' | 'resume'>;

const following: Record<ErasureStep, ErasureStep | 'finished'> = {
  records: 'answers',
  answers: 'calls',
  calls: 'deliveries',
  deliveries: 'finished',
};

const moveOn = (step: ErasureStep): StepResult => {
  const next = following[step];
  return next === 'finished' ? 'finished' : { step: next };
};

/** One page of the job's step: 'same' while its partition still holds copies to delete. */
async function stepOnce(
  deps: Pick<Deps, 'db' | 'tableName'>,
  job: Erasure,
  now: Date,
  settings: ErasureSettings,
): Promise<StepResult> {
  switch (job.step) {
    case 'records':
    case 'answers': {
      const copies =
        job.step === 'records'
          ? await readRecordPartition(deps, job, settings.pageSize)
          : await readAnswersAbout(deps, job, settings.pageSize);
      if (copies.length === 0) return moveOn(job.step);
      await inBatches(copies, settings.inFlight, (key) => deleteCopy(deps, key));
      return 'same';
    }
    case 'calls': {
      const page = await readWorkspacePage(deps, 'calls', job, settings.pageSize);
      await inBatches(page.items, settings.inFlight, async (call) => {
        const recordId = call.record_id === job.record_id ? job.record_id : undefined;
        const body = typeof call.body === 'string' && carriesContact(textOf(call.body, call.body_base64 === true), job);
        if (recordId || body) await clearCall(deps, keyOf(call), { ...(recordId ? { recordId } : {}), body });
      });
      return page.next ? { step: 'calls', resume: page.next } : moveOn('calls');
    }
    case 'deliveries': {
      if (now.getTime() - Date.parse(job.erased_at) < settings.deliveriesAfterSeconds * 1000) return 'wait';
      const page = await readWorkspacePage(deps, 'deliveries', job, settings.pageSize);
      await inBatches(
        page.items.filter((delivery) => isAbout(delivery, job)),
        settings.inFlight,
        (delivery) => deleteCopy(deps, keyOf(delivery)),
      );
      if (page.next) return { step: 'deliveries', resume: page.next };
      // A write of the prospect made just before its erasure may have scheduled its follow-up again since.
      await deleteFollowUpScheduleOf(deps, job);
      return 'finished';
    }
  }
}

const keyOf = (item: Record<string, unknown>): ItemKey => ({ pk: item.pk as string, sk: item.sk as string });

async function inBatches<T>(values: readonly T[], size: number, work: (value: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < values.length; start += size) {
    await Promise.all(values.slice(start, start + size).map(work));
  }
}
