import type { Deps } from '../../deps';
import {
  findContactOwners,
  loadConfigAndContactOwners,
  type ContactOwners,
  type FoundMarker,
} from '../../storage/leads';
import type { PhoneMatching } from '../../storage/leads';
import { loadPhoneLibrary, phoneMatchKey } from '../phone';
import type { LeadInput } from './lead-input';
import { matchContact, type ContactMatch } from './matching';
import type { PhoneSettings, WorkspaceConfig } from '../model';

/** What a round of matching read: the configuration and how phones were matched. */
export type MatchContext = { config: WorkspaceConfig; phone: PhoneMatching };

/** The E.164 form a phone is matched by in a workspace (undefined: matched as sent). */
export const e164Key = (phone: string, settings: PhoneSettings): string | undefined => {
  const key = phoneMatchKey(phone, settings);
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
    await loadPhoneLibrary();
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
