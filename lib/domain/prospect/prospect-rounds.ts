import type { ProspectRead } from '../../storage/prospects';
import { NotFoundError, ProtectedStageError, UnknownReferenceError } from '../errors';

/** What one round decided: its answer and whether it wrote, or a concurrent write won (read again). */
export type RoundDecision<T> = { answer: T; wrote: boolean } | 'changed-meanwhile';

/** Refusals that depend on what was read of the prospect (or of the configuration read with it). */
const refusesWhatWasRead = (error: unknown) =>
  error instanceof NotFoundError || error instanceof ProtectedStageError || error instanceof UnknownReferenceError;

/**
 * One round of an optimistic change of a prospect (PATCH, tags), for `retryWhileChangedMeanwhile`.
 * A decision that writes is safe on any read: its transaction is conditional on the version read,
 * so a stale read only loses the race. A decision that writes nothing (not found, a refusal, a
 * value already set, a tag already present or absent) has no condition to catch a stale read: it
 * is answered only from a strongly consistent read. On an eventually consistent one (the first
 * round's, half the read units: docs/adr/0007) the round answers `undefined` and the next round
 * reads the prospect strongly consistently, so a write of the last second is never missed.
 */
export function roundOnConfirmedRead<T>(
  read: () => Promise<ProspectRead>,
  decide: (snapshot: ProspectRead) => Promise<RoundDecision<T>>,
): () => Promise<T | undefined> {
  return async () => {
    const snapshot = await read();
    let decision: RoundDecision<T>;
    try {
      decision = await decide(snapshot);
    } catch (error) {
      if (!snapshot.consistent && refusesWhatWasRead(error)) return undefined;
      throw error;
    }
    if (decision === 'changed-meanwhile') return undefined;
    if (!decision.wrote && !snapshot.consistent) return undefined;
    return decision.answer;
  };
}
