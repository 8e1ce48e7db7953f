import type { Deps } from '../../deps';
import {
  findContactOwners,
  loadConfigAndContactOwners,
  type ContactOwners,
  type FoundMarker,
} from '../../storage/leads';
import type { WorkspaceConfig } from '../../storage/workspace-config';
import type { LeadInput } from './lead-input';
import { matchContact, type ContactMatch } from './matching';

/**
 * Which prospect a lead designates (docs/api.md#lead-matching): its contact markers, read strongly
 * consistently, decided by `matchContact`. The one path of the lead webhook and of the look-up
 * `GET /prospects?email=|phone=|social_url=`, so the look-up answers what the webhook would match.
 * The configuration comes in the same BatchGetItem; a later round passes it back and reads the
 * markers only.
 */
export async function findLeadMatch(
  deps: Deps,
  workspaceId: string,
  lead: LeadInput,
  knownConfig?: WorkspaceConfig,
): Promise<{ config: WorkspaceConfig; match: ContactMatch; marker: FoundMarker | undefined }> {
  const { config, owners } = knownConfig
    ? { config: knownConfig, owners: await findContactOwners(deps, workspaceId, lead) }
    : await loadConfigAndContactOwners(deps, workspaceId, lead);
  const match = matchContact(lead, owners);
  return { config, match, marker: match.kind === 'existing' ? markerOf(owners, match.prospectId) : undefined };
}

/** The marker that names the matched prospect, in matching order: its placement hint serves the answer. */
function markerOf(owners: ContactOwners, prospectId: string): FoundMarker | undefined {
  const kind = (['email', 'phone', 'social'] as const).find((candidate) => owners[candidate] === prospectId);
  return kind === undefined ? undefined : owners.markers?.[kind];
}
