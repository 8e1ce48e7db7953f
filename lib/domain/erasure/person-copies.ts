import type { ContactValues, ErasedContacts, Erasure } from '../../storage/erasure';
import { e164Of, phonesInText } from '../phone';

/*
 * How a copy of a person is told apart outside their record's partition, the same for their erasure (which deletes
 * the copies, ./continue-erasures.ts) and their export (which shows them, ../export/person-exports.ts): a delivery by
 * the record its event is about, a failed call's kept body by the contact values it carries.
 */

/** The contact values a kept body is searched for: the e-mail, the phone as stored and in E.164 if it reads so. */
export function contactsOf(contact: Pick<ContactValues, 'email' | 'phone'>, phoneRegion: string): ErasedContacts {
  const e164 = contact.phone ? e164Of(contact.phone, phoneRegion) : undefined;
  return {
    emails: contact.email ? [contact.email] : [],
    phones: contact.phone ? [contact.phone, ...(e164 && e164 !== contact.phone ? [e164] : [])] : [],
    phone_region: phoneRegion,
  };
}

/** A kept body as text: one that was not UTF-8 is kept in base64 (docs/api.md#webhook-call-journal). */
export const textOf = (body: string, base64: boolean): string =>
  base64 ? Buffer.from(body, 'base64').toString('utf8') : body;

/**
 * A kept body carries the person when it holds one of the e-mails (compared ignoring case) or one of the phones: as
 * stored, or as any number written in it that reads as the same E.164 number.
 */
export function carriesContact(body: string, job: Pick<Erasure, 'contacts'>): boolean {
  const lower = body.toLowerCase();
  if (job.contacts.emails.some((email) => lower.includes(email.toLowerCase()))) return true;
  if (job.contacts.phones.length === 0) return false;
  if (job.contacts.phones.some((phone) => body.includes(phone))) return true;
  return phonesInText(body, job.contacts.phone_region).some((found) => job.contacts.phones.includes(found));
}

/**
 * A delivery is a copy of the record when its event is about it (`data.prospect.id`, `data.candidate.id`), but for the
 * event that tells its erasure (`data.prospect_id`, `data.candidate_id`), which is kept.
 */
export function isAbout(delivery: Record<string, unknown>, job: Pick<Erasure, 'kind' | 'record_id'>): boolean {
  if (typeof delivery.payload !== 'string') return false;
  const data = (JSON.parse(delivery.payload) as { data?: Record<string, { id?: unknown } | undefined> }).data ?? {};
  return data[job.kind]?.id === job.record_id;
}
