import type { Deps } from '../../storage/client';
import { messages } from '../../messages';
import { getProspect } from '../../storage/prospects';
import { InvalidInputError, liveFields, type WorkspaceCaller, type ContactLookup } from '../model';
import { findLeadMatch, interpretLead } from '../lead/lead';
import { prospectReadView, type ProspectReadView } from './read-views';

/**
 * GET /prospects?email=|phone=|social_url= (docs/api.md#find-a-prospect-by-contact): the value is
 * read as the lead webhook reads that field, and matched by the webhook's own path
 * (`findLeadMatch`); a value the webhook would not keep is refused, naming the parameter.
 */
export async function findProspects(
  deps: Deps,
  principal: WorkspaceCaller,
  lookup: ContactLookup,
): Promise<{ prospects: ProspectReadView[] }> {
  const lead = leadOf(lookup);
  // The API key does not carry the phone settings: the configuration read with the markers says
  // them (one more BatchGetItem only for a workspace matching in E.164 outside region FR).
  const { config, match } = await findLeadMatch(deps, principal.workspaceId, lead, undefined);
  if (match.kind === 'new') return { prospects: [] };
  const prospect = await getProspect(deps, principal.workspaceId, match.prospectId);
  return { prospects: prospect ? [prospectReadView(prospect, config.tags, liveFields(config))] : [] };
}

function leadOf(lookup: ContactLookup) {
  try {
    return interpretLead({ [lookup.field]: lookup.value }).lead;
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    const message = messages.query.unreadableContact(lookup.field);
    throw new InvalidInputError(message, { field: lookup.field, message });
  }
}
