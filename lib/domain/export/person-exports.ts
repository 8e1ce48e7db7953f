import type { Deps } from '../../storage/client';
import { readCandidateCollection } from '../../storage/item-collections';
import { readWorkspaceCopies } from '../../storage/copies-of-person';
import type { ErasedContacts, ErasedKind } from '../../storage/erasure';
import { getWorkspace } from '../../storage/workspace-config';
import {
  stillKept,
  type CandidateItem,
  type NoteItem,
  type PagePosition,
  type WebhookCallItem,
} from '../../storage/table-items';
import { recordAudit, type ActingMemberId } from '../../storage/audit-log';
import { NotFoundError, phoneSettingsOf, type Delivery } from '../model';
import { deliveryView, type DeliveryView } from '../events/delivery-view';
import type { EventBody } from '../events/event-types';
import { listProspectChanges, listProspectNotes, readProspect, type Page } from '../prospect/read-prospect';
import type { ChangeLogEntryView, NoteView, ProspectReadView } from '../prospect/read-views';
import {
  candidateNoteView,
  candidateRecordView,
  type CandidateNoteView,
  type CandidateRecordView,
} from '../recruitment/candidate-view';
import { callDocument, type CallDocument } from '../webhook-call-view';
import { carriesContact, contactsOf, isAbout, textOf } from '../erasure/person-copies';
import { messages } from '../../messages';
import { answeredOrKept, type ExportLink, type ExportStore } from './export-store';

/*
 * Everything kept about one person, as one JSON document (docs/api.md#erasure-export-and-retention): the routes
 * `GET …/prospects/{p}/export` and `GET …/candidates/{t}/export`, and the command line's `prospect export` and
 * `candidate export`. Each part is shown as the route that shows it one by one does, every list oldest first.
 *
 * 1. the record and what hangs off it in its partition, or not found (404; the command line: exit 2);
 * 2. its copies elsewhere in the workspace, those still kept (30 days), told apart as its erasure tells them
 *    (../erasure/person-copies.ts): the journaled calls that name it or whose kept body carries its e-mail or phone,
 *    and the deliveries whose event is about it;
 * 3. the route answers the document, or past 5 MB a link to it (./export-store.ts); the command line prints it whole;
 * 4. the audit entry, once the document is built (and kept, for a link): it names the record by id, nothing else.
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

export type PersonExport = ProspectExport | CandidateExport;

/** Whose export, and who asks: a member of the settings API, or null for the command line. */
export type ExportRequest = { workspaceId: string; kind: ErasedKind; recordId: string; memberId: ActingMemberId };

/** What the export routes are given besides the table: where a document too large to answer is kept. */
export type ExportDeps = Deps & { exports: ExportStore };

/** Items asked of each read of a list: one Query reads up to 1 MB whatever it asks, and reads on while it may. */
const itemsPerRead = 1000;

const deliveryWithPayload = (item: Delivery): DeliveryWithPayload => ({
  ...deliveryView(item),
  payload: JSON.parse(item.payload) as EventBody,
});

/** The copies outside the record's partition that are still kept, oldest first. */
async function copiesOf(
  deps: Deps,
  person: { workspace_id: string; kind: ErasedKind; record_id: string; contacts: ErasedContacts },
): Promise<CopiesOfPerson> {
  const now = deps.clock();
  const kept = (item: Record<string, unknown>) => stillKept(item as { expires_at: number }, now);
  const webhookCalls: CallDocument[] = [];
  for await (const page of readWorkspaceCopies(deps, 'calls', person.workspace_id)) {
    const calls = (page.filter(kept) as WebhookCallItem[]).filter(
      (call) =>
        call.record_id === person.record_id ||
        (typeof call.body === 'string' && carriesContact(textOf(call.body, call.body_base64 === true), person)),
    );
    webhookCalls.push(...calls.map(callDocument));
  }
  const deliveries: DeliveryWithPayload[] = [];
  for await (const page of readWorkspaceCopies(deps, 'deliveries', person.workspace_id)) {
    const about = page.filter((delivery) => kept(delivery) && isAbout(delivery, person)) as Delivery[];
    deliveries.push(...about.map(deliveryWithPayload));
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

/** The workspace's phone region: a failed call's kept body may write the person's phone in its national format. */
const phoneRegionOf = async (deps: Deps, workspaceId: string): Promise<string> =>
  phoneSettingsOf(await getWorkspace(deps, workspaceId)).phone_region;

/** The prospect (not found as its routes answer), its notes and change log by their routes' readers, its copies. */
async function prospectDocument(deps: Deps, workspaceId: string, prospectId: string): Promise<ProspectExport> {
  const caller = { workspaceId };
  const prospect = await readProspect(deps, caller, prospectId);
  const page = (after: PagePosition | undefined) => ({ limit: itemsPerRead, after });
  const notes = await oldestFirst((after) => listProspectNotes(deps, caller, prospectId, page(after)));
  const changes = await oldestFirst((after) => listProspectChanges(deps, caller, prospectId, page(after)));
  const contacts = contactsOf(prospect, await phoneRegionOf(deps, workspaceId));
  const copies = await copiesOf(deps, { workspace_id: workspaceId, kind: 'prospect', record_id: prospectId, contacts });
  return { exported_at: deps.clock().toISOString(), prospect, notes, changes, ...copies };
}

/** The candidate and its notes from one Query of its partition (notes newest first there), its copies. */
async function candidateDocument(deps: Deps, workspaceId: string, candidateId: string): Promise<CandidateExport> {
  const items = await readCandidateCollection(deps, workspaceId, candidateId);
  const record = items.find((item): item is CandidateItem => item.type === 'candidate');
  if (!record) throw new NotFoundError(messages.candidate.notFound);
  const notes = items.filter((item): item is NoteItem => item.type === 'note').map(candidateNoteView);
  const contacts = contactsOf(record, await phoneRegionOf(deps, workspaceId));
  const copies = await copiesOf(deps, {
    workspace_id: workspaceId,
    kind: 'candidate',
    record_id: candidateId,
    contacts,
  });
  return {
    exported_at: deps.clock().toISOString(),
    candidate: candidateRecordView(record),
    notes: notes.reverse(),
    ...copies,
  };
}

const documentOf = (deps: Deps, { workspaceId, kind, recordId }: ExportRequest): Promise<PersonExport> =>
  kind === 'prospect' ? prospectDocument(deps, workspaceId, recordId) : candidateDocument(deps, workspaceId, recordId);

const audited = (deps: Deps, { workspaceId, kind, recordId, memberId }: ExportRequest): Promise<void> =>
  recordAudit(deps, {
    workspaceId,
    memberId,
    action: kind === 'prospect' ? 'prospect.exported' : 'candidate.exported',
    targetId: recordId,
    summary:
      kind === 'prospect' ? messages.audit.prospectExported(recordId) : messages.audit.candidateExported(recordId),
  });

/** `prospect export`, `candidate export`: the whole document, whatever its size; then the audit entry. */
export async function exportPerson(deps: Deps, request: ExportRequest): Promise<PersonExport> {
  const document = await documentOf(deps, request);
  await audited(deps, request);
  return document;
}

/**
 * The export routes: the document, or past 5 MB the link to it, kept under a name of its own in the workspace's
 * folder (ids only: a name says nothing of the person); then the audit entry.
 */
export async function answerPersonExport(deps: ExportDeps, request: ExportRequest): Promise<PersonExport | ExportLink> {
  const document = await documentOf(deps, request);
  const answer = await answeredOrKept(deps.exports, `${request.workspaceId}/${deps.newId()}.json`, document);
  await audited(deps, request);
  return answer;
}
