import type { Deps } from '../../deps';
import { StorageUnavailableError } from '../errors';
import type { WebhookFields } from '../webhook-fields';
import { createProspectWithMarkers, updateKnownProspect, updateKnownProspectContacts } from '../../storage/leads';
import { getProspect } from '../../storage/prospects';
import type { ProspectItem } from '../../storage/records';
import {
  defaultRetryPolicy,
  retryOnTransactionConflict,
  retryWhileChangedMeanwhile,
  type RetryPolicy,
} from '../../storage/retry';
import type { WorkspaceConfig } from '../../storage/workspace-config';
import { resolveTagIds } from '../tags';
import { interpretLead } from './lead-input';
import { findLeadMatch } from './find-match';
import { newProspect } from './new-prospect';
import { placeNewLead } from './placement';
import { messages } from '../../messages';

export type LeadResult = {
  status: 'created' | 'existing';
  prospect_id: string;
  pipeline_id: string | null;
  stage_id: string | null;
  placement: 'demande' | 'defaut' | 'existant' | 'aucun';
  tags_applied: { id: string; name: string }[];
  warnings: string[];
};

/**
 * The lead webhook (docs/api.md#lead-webhook). Input: the body's fields, read by the service.
 * Output: the answer of the webhook.
 * 1. Interpret the fields (unknown or wrongly typed fields become warnings).
 * 2. Read the workspace configuration and the contact's markers in one BatchGetItem (a later
 *    round reads the markers only).
 * 3. Unknown contact: place it, then create the prospect and its markers in one transaction that
 *    fails if any marker exists meanwhile; known contact: update it, taking over a new e-mail or
 *    phone only if no other prospect owns it.
 * 4. When a concurrent call won the race, go back to 2: the contact is then known.
 */
export async function ingestLead(
  deps: Deps,
  workspaceId: string,
  fields: WebhookFields,
  retryPolicy: RetryPolicy = defaultRetryPolicy,
): Promise<LeadResult> {
  const { lead, warnings: inputWarnings } = interpretLead(fields);
  const newProspectId = deps.newId();
  let knownConfig: WorkspaceConfig | undefined;
  const result = await retryWhileChangedMeanwhile(async (): Promise<LeadResult | undefined> => {
    const { config, match } = await findLeadMatch(deps, workspaceId, lead, knownConfig);
    knownConfig = config;
    const tags = resolveTagIds(config.tags, lead.tag_ids);
    const tagIds = tags.applied.map((tag) => tag.id);
    const now = deps.clock().toISOString();

    // The contact is this request's own prospect when a retry under the same Idempotency-Key
    // repeats a first attempt that did land (same ids): it was created then.
    if (match.kind === 'new' || match.prospectId === newProspectId) {
      const placement = placeNewLead(config.salesPipelines, lead);
      const prospect = newProspect(newProspectId, workspaceId, lead, placement, tagIds, now);
      if (match.kind === 'new') {
        const outcome = await retryOnTransactionConflict(() => createProspectWithMarkers(deps, prospect), retryPolicy);
        if (outcome === 'contact_taken') return undefined;
      }
      return {
        status: 'created',
        prospect_id: prospect.id,
        pipeline_id: prospect.pipeline_id,
        stage_id: prospect.stage_id,
        placement: placement.kind,
        tags_applied: tags.applied,
        warnings: [...inputWarnings, ...tags.warnings, ...placement.warnings],
      };
    }

    const update = {
      first_name: lead.first_name,
      last_name: lead.last_name,
      email: match.email,
      phone: match.phone,
      tagIds,
      now,
    };
    let prospect: ProspectItem | undefined;
    if (match.takesNewEmail || match.takesNewPhone) {
      const current = await getProspect(deps, workspaceId, match.prospectId);
      if (!current) return undefined;
      const outcome = await retryOnTransactionConflict(
        () => updateKnownProspectContacts(deps, current, update),
        retryPolicy,
      );
      if (outcome === 'changed_meanwhile') return undefined;
      prospect = current;
    } else {
      prospect = await updateKnownProspect(deps, workspaceId, match.prospectId, update);
      if (!prospect) return undefined;
    }
    return {
      status: 'existing',
      prospect_id: prospect.id,
      pipeline_id: prospect.pipeline_id,
      stage_id: prospect.stage_id,
      placement: 'existant',
      tags_applied: tags.applied,
      warnings: [...inputWarnings, ...tags.warnings, ...match.warnings, messages.lead.notMoved],
    };
  });
  if (result) return result;
  throw new StorageUnavailableError(messages.failure.leadContended);
}
