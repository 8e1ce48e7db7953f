import * as z from 'zod/mini';
import type { Deps } from '../../storage/client';
import { newAuditEntry, type ActingMemberId } from '../../storage/audit-log';
import {
  contactMarkers,
  eraseRecord,
  readAnswersAbout,
  readRecord,
  type ContactValues,
  type ErasedKind,
  type ErasurePlan,
} from '../../storage/erasure';
import { getWorkspace } from '../../storage/workspace-config';
import { e164Of } from '../phone';
import { contactsOf } from './person-copies';
import { ConflictError, NotFoundError, phoneSettingsOf } from '../model';
import { messages } from '../../messages';

/** `POST …/erase` takes no body, or an empty JSON object. */
export const erasureRequestSchema = z.strictObject({});

/** What `POST …/erase` answers (docs/api.md#erasure-export-and-retention). */
export type ErasureAnswer = { id: string; erased_at: string };

/**
 * A lost race (the record written between its read and the erasure, or a marker given meanwhile to another record)
 * decides again on a fresh read; this many rounds, then a 409.
 */
const maxRounds = 3;

/**
 * The answers kept for the record's Idempotency-Keys deleted with it (24 hours of them: a few), within the
 * transaction's 100 items; any more, and any the index had not shown yet, go with the job's `answers` step.
 */
const answersInTransaction = 80;

/** Who erases what; `memberId` null for the command line and the retention. */
export type ErasureInput = {
  workspaceId: string;
  kind: ErasedKind;
  recordId: string;
  memberId: ActingMemberId;
};

/**
 * The workspace's retention erases by no member (lib/domain/erasure/apply-retention.ts): only a record last written
 * before `cutoff` (read strongly here, where the index that found it may lag a later change), its audit summary saying
 * why. `phoneRegion`: the workspace's, which the retention read already with the workspaces it lists, so that the
 * workspace's item is not read again for each record.
 */
export type RetentionErasureInput = ErasureInput & {
  retention: { months: number; cutoff: Date };
  phoneRegion: string;
};

/**
 * Erases a prospect or a candidate (docs/adr/0019-erasure-in-the-background.md): one transaction deletes the record,
 * frees its contact markers (the same contact sent again is a new record), deletes its pending follow-up, writes the
 * audit entry and leaves the job that deletes the other copies within minutes. From the answer on the record is not
 * found anywhere; an unknown record, or one erased already: 404. `memberId`: the member acting through the settings
 * API; null for the command line.
 */
export async function eraseRecordOf(
  deps: Pick<Deps, 'db' | 'tableName' | 'clock'>,
  input: ErasureInput,
): Promise<ErasureAnswer> {
  // Without a retention's cutoff, nothing is kept: the record is erased, or the erasure refused.
  return (await erase(deps, input)) as ErasureAnswer;
}

/** The retention's erasure of a record: as `eraseRecordOf`, or `kept` when the record was written since `cutoff`. */
export function eraseForRetentionOf(
  deps: Pick<Deps, 'db' | 'tableName' | 'clock'>,
  input: RetentionErasureInput,
): Promise<ErasureAnswer | 'kept'> {
  return erase(deps, input);
}

async function erase(
  deps: Pick<Deps, 'db' | 'tableName' | 'clock'>,
  input: ErasureInput & Partial<Pick<RetentionErasureInput, 'retention' | 'phoneRegion'>>,
): Promise<ErasureAnswer | 'kept'> {
  const { workspaceId, kind, recordId } = input;
  const taken = new Set<string>();
  for (let round = 1; round <= maxRounds; round += 1) {
    const [record, region, answers] = await Promise.all([
      readRecord(deps, workspaceId, kind, recordId),
      input.phoneRegion ?? getWorkspace(deps, workspaceId).then((workspace) => phoneSettingsOf(workspace).phone_region),
      readAnswersAbout(deps, { workspace_id: workspaceId, kind, record_id: recordId }, answersInTransaction),
    ]);
    if (!record) throw new NotFoundError(notFound(kind));
    if (input.retention && !(String(record.updated_at) < input.retention.cutoff.toISOString())) return 'kept';
    const contact = record as ContactValues;
    const e164 = contact.phone ? e164Of(contact.phone, region) : undefined;
    const now = deps.clock();
    const plan: ErasurePlan = {
      job: {
        workspace_id: workspaceId,
        kind,
        record_id: recordId,
        erased_at: now.toISOString(),
        member_id: input.memberId,
        contacts: contactsOf(contact, region),
        step: 'records',
      },
      version: record.version as number,
      markers: contactMarkers(workspaceId, kind, contact, e164).filter((key) => !taken.has(key.pk)),
      answers,
      audit: newAuditEntry(now, {
        workspaceId,
        memberId: input.memberId,
        action: kind === 'prospect' ? 'prospect.erased' : 'candidate.erased',
        targetId: recordId,
        summary:
          (kind === 'prospect' ? messages.audit.prospectErased(recordId) : messages.audit.candidateErased(recordId)) +
          (input.retention ? messages.audit.erasedForRetention(input.retention.months) : ''),
      }),
    };
    const outcome = await eraseRecord(deps, plan);
    if (outcome === 'erased') return { id: recordId, erased_at: plan.job.erased_at };
    // A marker that names another record is that record's: the erasure leaves it.
    if (outcome !== 'changed_meanwhile') taken.add(outcome.markerTaken.pk);
  }
  throw new ConflictError(messages.erasure.contended);
}

const notFound = (kind: ErasedKind): string =>
  kind === 'prospect' ? messages.prospect.notFound : messages.candidate.notFound;
