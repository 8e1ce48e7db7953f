import type { Deps } from '../../deps';
import {
  findContactOwners,
  loadConfigAndContactOwners,
  type ContactOwners,
  type FoundMarker,
  type PhoneMatching,
} from '../../storage/leads';
import { messages } from '../../messages';
import type * as PhoneModule from '../phone';
import type { LeadInput } from './lead-input';
import type { PhoneSettings, WorkspaceConfig } from '../model';

/** What a round of matching read: the configuration and how phones were matched. */
export type MatchContext = { config: WorkspaceConfig; phone: PhoneMatching };

let phoneModule: typeof PhoneModule | undefined;

/**
 * Loads phone matching (lib/domain/phone.ts, with libphonenumber-js) on first need: a lead of a
 * workspace matching in E.164, a look-up by phone. Bundled, a dynamically imported module stays in
 * the one file but is evaluated only when imported (esbuild, "Code splitting" off:
 * https://esbuild.github.io/api/#splitting), so the cold start of a function whose first call needs
 * no E.164 form skips its ~120 KB of metadata (docs/performance.md).
 */
export async function loadPhoneMatching(): Promise<void> {
  phoneModule ??= await import('../phone');
}

/** The E.164 form a phone is matched by in a workspace (undefined: matched as sent). */
export const e164Key = (phone: string, settings: PhoneSettings): string | undefined => {
  // A workspace matching phones as sent needs no E.164 form, so no phone matching loaded.
  if (settings.phone_matching !== 'e164') return undefined;
  if (phoneModule === undefined) throw new Error('phone matching is not loaded: await loadPhoneMatching() first');
  const key = phoneModule.phoneMatchKey(phone, settings);
  return key.kind === 'e164' ? key.value : undefined;
};

/** How a workspace with these settings matches phones. */
export const phoneMatching = (settings: PhoneSettings): PhoneMatching => ({ settings, e164Key });

/**
 * Which prospect a lead designates (docs/api.md#lead-matching): its contact markers, read strongly
 * consistently, decided by `matchContact`. The one path of the lead webhook and of the look-up
 * `GET /prospects?email=|phone=|social_url=`, so the look-up answers what the webhook would match.
 * The configuration comes in the same BatchGetItem; a later round passes it back and reads the
 * markers only. `phone`: the workspace's phone settings when the caller knows them (the lead
 * webhook, from its endpoint); unknown, the configuration says them (docs/api.md#phone-matching).
 */
export async function findLeadMatch(
  deps: Deps,
  workspaceId: string,
  lead: LeadInput,
  phone: PhoneSettings | undefined,
  known?: MatchContext,
): Promise<MatchContext & { match: ContactMatch; marker: FoundMarker | undefined }> {
  // An E.164 form is needed for a phone of a workspace matching in E.164, or of unknown settings
  // (the look-up reads the E.164 marker speculatively): only then is the phone library loaded.
  const settingsOfRound = known?.phone.settings ?? phone;
  if (lead.phone != null && (settingsOfRound === undefined || settingsOfRound.phone_matching === 'e164')) {
    await loadPhoneMatching();
  }
  const {
    config,
    phone: settings,
    owners,
  } = known
    ? { ...known, owners: await findContactOwners(deps, workspaceId, lead, known.phone) }
    : await loadConfigAndContactOwners(deps, workspaceId, lead, { settings: phone, e164Key });
  const match = matchContact(lead, owners);
  return {
    config,
    phone: settings,
    match,
    marker: match.kind === 'existing' ? markerOf(owners, match.prospectId) : undefined,
  };
}

/** The marker that names the matched prospect, in matching order: its placement hint serves the answer. */
function markerOf(owners: ContactOwners, prospectId: string): FoundMarker | undefined {
  const kind = (['email', 'phone', 'phone_exact', 'social'] as const).find(
    (candidate) => owners[candidate] === prospectId,
  );
  return kind === undefined ? undefined : owners.markers?.[kind];
}

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
