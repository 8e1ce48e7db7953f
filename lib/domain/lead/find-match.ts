import type { Deps } from '../../deps';
import { findContactOwners, loadConfigAndContactOwners } from '../../storage/leads';
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
): Promise<{ config: WorkspaceConfig; match: ContactMatch }> {
  if (knownConfig) {
    return { config: knownConfig, match: matchContact(lead, await findContactOwners(deps, workspaceId, lead)) };
  }
  const { config, owners } = await loadConfigAndContactOwners(deps, workspaceId, lead);
  return { config, match: matchContact(lead, owners) };
}
