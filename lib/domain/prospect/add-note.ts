import * as z from 'zod/mini';
import { type ApiKeyPrincipal, type Note, type Stamped, NotFoundError } from '../model';
import type { Deps, RetryPolicy } from '../../storage/client';
import { writeNote } from '../../storage/prospect-writes';
import { defaultRetryPolicy, retryOnTransactionConflict } from '../../storage/conditional-writes';
import { codePointLength, maxNoteLength } from '../notes';
import { readIsoTimestamp } from '../timestamps';
import { apiKeyActor, changeLogEntry } from './logged-change';
import { messages } from '../../messages';

/**
 * Content is kept exactly as sent (HTML, blank lines, emoji); `date` is checked by the use case
 * (docs/api.md#add-a-note).
 */
export const addNoteSchema = z.strictObject({
  content: z.string().check(
    z.refine((content) => content.trim() !== '', messages.rules.blankNote),
    z.refine((content) => codePointLength(content) <= maxNoteLength, messages.rules.noteTooLong(maxNoteLength)),
  ),
  date: z.optional(z.unknown()),
});

export type AddNoteInput = z.output<typeof addNoteSchema>;

export type NoteResult = { id: string; created_at: string; warnings: string[] };

const warningsText = messages.note;

/**
 * A backfilled date must be an existing ISO 8601 date in the past, read as UTC when it has no zone
 * (a date alone: UTC midnight); otherwise the reception date, and a warning.
 */
export function noteDate(date: unknown, receivedAt: Date): { date: string; warnings: string[] } {
  const received = receivedAt.toISOString();
  if (date === undefined || date === null) return { date: received, warnings: [] };
  const parsed =
    typeof date === 'string' ? readIsoTimestamp(date, { zone: 'utc-if-absent', dateOnly: true }) : undefined;
  if (!parsed) return { date: received, warnings: [warningsText.invalidDate] };
  if (parsed.getTime() > receivedAt.getTime()) return { date: received, warnings: [warningsText.futureDate] };
  return { date: parsed.toISOString(), warnings: [] };
}

/**
 * Add a note (docs/api.md#add-a-note): the note, its log entry and the prospect's new version in one transaction, which
 * also tells a prospect that does not exist (404) without a read beforehand.
 */
export async function addNote(
  deps: Deps,
  principal: ApiKeyPrincipal,
  prospectId: string,
  input: AddNoteInput,
  retryPolicy: RetryPolicy = defaultRetryPolicy,
): Promise<NoteResult> {
  const { workspaceId } = principal;
  const receivedAt = deps.clock();
  const now = receivedAt.toISOString();
  const { date, warnings } = noteDate(input.date, receivedAt);
  const noteId = deps.newId();
  const note: Stamped<Note> = {
    id: noteId,
    workspace_id: workspaceId,
    record_id: prospectId,
    content: input.content,
    date,
    created_at: now,
    key_id: principal.keyId,
    actor: apiKeyActor(principal),
  };
  const entry = changeLogEntry({
    id: deps.newId(),
    workspaceId,
    prospectId,
    keyId: principal.keyId,
    at: now,
    prospectVersion: null,
    change: { field: 'note', before: null, after: noteId },
  });
  const outcome = await retryOnTransactionConflict(
    () => writeNote(deps, { workspaceId, prospectId }, note, entry, now),
    retryPolicy,
  );
  if (outcome === 'prospect_not_found') throw new NotFoundError(messages.prospect.notFound);
  // Counted by the call that wrote it: a retry that finds its first attempt's note wrote nothing.
  if (outcome === 'written') deps.metrics.count('ProspectChanges', { field: 'note' });
  return { id: noteId, created_at: now, warnings };
}
