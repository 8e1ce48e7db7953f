import type { ContactOwners } from '../../storage/leads';
import type { LeadInput } from './lead-input';
import { messages } from '../../messages';

export type ContactMatch =
  | { kind: 'new' }
  | {
      kind: 'existing';
      prospectId: string;
      /**
       * The e-mail or phone to write on the record: sent, and not owned by another prospect. A
       * phone that already designates this prospect is not written: it may be another format of
       * the stored one (E.164 matching), and the phone stays as first sent.
       */
      email: string | undefined;
      phone: string | undefined;
      /** True when that value is not yet the record's: its marker must be taken over. */
      takesNewEmail: boolean;
      takesNewPhone: boolean;
      warnings: string[];
    };

const warningsText = messages.lead;

/**
 * Lead matching (docs/api.md#lead-matching): the e-mail (case-insensitive) first, then the phone
 * (as sent, or by its E.164 form in a workspace matching in E.164: docs/api.md#phone-matching),
 * then, only for a lead carrying neither a known e-mail nor a known phone, the exact social_url.
 * In E.164 matching `phone` is the E.164 marker's owner and `phone_exact` the owner of the string
 * sent; the E.164 form decides, the exact string serves while no prospect holds that form yet.
 */
export function matchContact(lead: LeadInput, owners: ContactOwners): ContactMatch {
  const prospectId = owners.email ?? owners.phone ?? owners.phone_exact ?? owners.social;
  if (prospectId === undefined) return { kind: 'new' };
  const warnings: string[] = [];
  const contact = (sent: string | undefined, owner: string | undefined, taken: string) => {
    if (sent === undefined) return { value: undefined, isNew: false };
    if (owner === undefined) return { value: sent, isNew: true };
    if (owner === prospectId) return { value: sent, isNew: false };
    warnings.push(taken);
    return { value: undefined, isNew: false };
  };
  const email = contact(lead.email, owners.email, warningsText.emailTaken);
  const phoneOwner =
    owners.phone === prospectId || owners.phone_exact === prospectId
      ? prospectId
      : (owners.phone ?? owners.phone_exact);
  const phone = contact(lead.phone, phoneOwner, warningsText.phoneTaken);
  return {
    kind: 'existing',
    prospectId,
    email: email.value,
    phone: phone.isNew ? phone.value : undefined,
    takesNewEmail: email.isNew,
    takesNewPhone: phone.isNew,
    warnings,
  };
}
