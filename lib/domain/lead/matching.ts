import type { ContactOwners } from '../../storage/leads';
import type { LeadInput } from './lead-input';
import { messages } from '../../messages';

export type ContactMatch =
  | { kind: 'new' }
  | {
      kind: 'existing';
      prospectId: string;
      /** The e-mail or phone to write on the record: sent, and not owned by another prospect. */
      email: string | undefined;
      phone: string | undefined;
      /** True when that value is not yet the record's: its marker must be taken over. */
      takesNewEmail: boolean;
      takesNewPhone: boolean;
      warnings: string[];
    };

const warningsText = messages.lead;

/**
 * Lead matching (docs/api.md#lead-matching): the e-mail (case-insensitive) first, then the exact
 * phone, then, only for a lead carrying neither a known e-mail nor a known phone, the exact
 * social_url.
 */
export function matchContact(lead: LeadInput, owners: ContactOwners): ContactMatch {
  const prospectId = owners.email ?? owners.phone ?? owners.social;
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
  const phone = contact(lead.phone, owners.phone, warningsText.phoneTaken);
  return {
    kind: 'existing',
    prospectId,
    email: email.value,
    phone: phone.value,
    takesNewEmail: email.isNew,
    takesNewPhone: phone.isNew,
    warnings,
  };
}
