import type { Deps } from '../../../lib/storage/client';
import { readCandidateCollection } from '../../../lib/storage/item-collections';
import { stillKept, type CandidateItem, type NoteItem, type PagePosition } from '../../../lib/storage/table-items';
import { commandLine, recordAudit } from '../../../lib/storage/audit-log';
import { NotFoundError, type Delivery } from '../../../lib/domain/model';
import { deliveryView, type DeliveryView } from '../../../lib/domain/events/delivery-view';
import type { EventBody } from '../../../lib/domain/events/event-types';
import {
  listProspectChanges,
  listProspectNotes,
  readProspect,
  type Page,
} from '../../../lib/domain/prospect/read-prospect';
import type { ChangeLogEntryView, NoteView, ProspectReadView } from '../../../lib/domain/prospect/read-views';
import {
  candidateNoteView,
  candidateRecordView,
  type CandidateNoteView,
  type CandidateRecordView,
} from '../../../lib/domain/recruitment/candidate-view';
import { callDocument, type CallDocument } from '../../../lib/settings/webhook-call-reads';
import { messages } from '../../../lib/messages';
import { readCallsOfRecord, readDeliveriesAbout, type PersonSubject } from '../storage/copies-of-person';

/*
 * `prospect export` and `candidate export` (docs/api.md#exports): everything kept about one person, as one JSON
 * document. Each part is shown as the route that shows it one by one does, every list oldest first.
 *
 * 1. the record and what hangs off it in its partition, or not found (exit 2);
 * 2. its copies elsewhere in the workspace (`copiesOf`): the journaled calls that name it and the deliveries whose
 *    event is about it, those still kept (30 days);
 * 3. the audit entry, once the document is built: it names the record by id, nothing else.
 */

/** A delivery as the deliveries route shows it, with the event it carries (`{ type, timestamp, data }`, as posted). */
export type DeliveryWithPayload = DeliveryView & { payload: EventBody };

/** What every export holds besides its record's own part. */
export type CopiesOfPerson = { webhook_calls: CallDocument[]; deliveries: DeliveryWithPayload[] };

export type ProspectExport = {
  exported_at: string;
  prospect: ProspectReadView;
  notes: NoteView[];
  changes: ChangeLogEntryView[];
} & CopiesOfPerson;

export type CandidateExport = {
  exported_at: string;
  candidate: CandidateRecordView;
  notes: CandidateNoteView[];
} & CopiesOfPerson;

/** Items asked of each read of a list: one Query reads up to 1 MB whatever it asks, and reads on while it may. */
const itemsPerRead = 1000;

const deliveryWithPayload = (item: Delivery): DeliveryWithPayload => ({
  ...deliveryView(item),
  payload: JSON.parse(item.payload) as EventBody,
});

/** The copies outside the record's partition that are still kept, oldest first. */
async function copiesOf(deps: Deps, workspaceId: string, subject: PersonSubject): Promise<CopiesOfPerson> {
  const now = deps.clock();
  const webhookCalls: CallDocument[] = [];
  for await (const page of readCallsOfRecord(deps, workspaceId, subject.id)) {
    webhookCalls.push(...page.filter((call) => stillKept(call, now)).map(callDocument));
  }
  const deliveries: DeliveryWithPayload[] = [];
  for await (const page of readDeliveriesAbout(deps, workspaceId, subject)) {
    deliveries.push(...page.filter((delivery) => stillKept(delivery, now)).map(deliveryWithPayload));
  }
  return { webhook_calls: webhookCalls, deliveries };
}

/** Every item of a paged list, read by the route's own pages (newest first), turned oldest first. */
async function oldestFirst<T>(readPage: (after: PagePosition | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let after: PagePosition | undefined;
  do {
    const page = await readPage(after);
    items.push(...page.items);
    after = page.next ?? undefined;
  } while (after !== undefined);
  return items.reverse();
}

/**
 * `prospect export`: the prospect (not found as its routes answer), its notes and change log by their routes' readers,
 * its copies; then the audit entry.
 */
export async function exportProspect(
  deps: Deps,
  input: { workspaceId: string; prospectId: string },
): Promise<ProspectExport> {
  const { workspaceId, prospectId } = input;
  const caller = { workspaceId };
  const prospect = await readProspect(deps, caller, prospectId);
  const page = (after: PagePosition | undefined) => ({ limit: itemsPerRead, after });
  const notes = await oldestFirst((after) => listProspectNotes(deps, caller, prospectId, page(after)));
  const changes = await oldestFirst((after) => listProspectChanges(deps, caller, prospectId, page(after)));
  const copies = await copiesOf(deps, workspaceId, { kind: 'prospect', id: prospectId });
  const document = { exported_at: deps.clock().toISOString(), prospect, notes, changes, ...copies };
  await recordAudit(deps, {
    workspaceId,
    memberId: commandLine,
    action: 'prospect.exported',
    targetId: prospectId,
    summary: messages.audit.prospectExported(prospectId),
  });
  return document;
}

/** `candidate export`: the candidate and its notes from one Query of its partition, its copies; the audit entry. */
export async function exportCandidate(
  deps: Deps,
  input: { workspaceId: string; candidateId: string },
): Promise<CandidateExport> {
  const { workspaceId, candidateId } = input;
  const items = await readCandidateCollection(deps, workspaceId, candidateId);
  const record = items.find((item): item is CandidateItem => item.type === 'candidate');
  if (!record) throw new NotFoundError(messages.candidate.notFound);
  const notes = items.filter((item): item is NoteItem => item.type === 'note').map(candidateNoteView);
  const copies = await copiesOf(deps, workspaceId, { kind: 'candidate', id: candidateId });
  const document = {
    exported_at: deps.clock().toISOString(),
    candidate: candidateRecordView(record),
    notes: notes.reverse(),
    ...copies,
  };
  await recordAudit(deps, {
    workspaceId,
    memberId: commandLine,
    action: 'candidate.exported',
    targetId: candidateId,
    summary: messages.audit.candidateExported(candidateId),
  });
  return document;
}
