import type { Deps } from '../../deps';
import type { MetricsSink } from '../metrics';
import type { Actor } from '../../storage/event-records';
import { StorageUnavailableError } from '../errors';
import type { WebhookFields } from '../webhook-fields';
import {
  createProspectWithMarkers,
  updateKnownProspect,
  updateKnownProspectContacts,
  type Placement,
} from '../../storage/leads';
import { getProspect } from '../../storage/prospects';
import {
  defaultRetryPolicy,
  retryOnTransactionConflict,
  retryWhileChangedMeanwhile,
  type RetryPolicy,
} from '../../storage/retry';
import { defaultPhoneSettings } from '../../storage/workspace-config';
import { resolveTagIds } from '../tags';
import { successEntry, type CallOutcome, type WebhookCallContext } from '../webhook-call';
import { interpretLead } from './lead-input';
import { findLeadMatch, phoneMatching, type MatchContext } from './find-match';
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
  call: WebhookCallContext,
  fields: WebhookFields,
  retryPolicy: RetryPolicy = defaultRetryPolicy,
): Promise<LeadResult> {
  const { workspaceId } = call;
  const { lead, warnings: inputWarnings } = interpretLead(fields);
  const newProspectId = deps.newId();
  // The workspace's phone settings came with the endpoint, in the authorizer's one write: the
  // first read already looks phones up the workspace's way (docs/api.md#phone-matching).
  const phone = phoneMatching(call.phone ?? defaultPhoneSettings);
  const actor: Actor = { kind: 'webhook', id: call.endpointId };
  let known: MatchContext | undefined;
  const result = await retryWhileChangedMeanwhile(async (): Promise<LeadResult | undefined> => {
    const { config, match, marker } = await findLeadMatch(deps, workspaceId, lead, phone.settings, known);
    known = { config, phone };
    const tags = resolveTagIds(config.tags, lead.tag_ids);
    const tagIds = tags.applied.map((tag) => tag.id);
    const now = deps.clock().toISOString();

    // The contact is this request's own prospect when a retry under the same Idempotency-Key
    // repeats a first attempt that did land (same ids): it was created then.
    if (match.kind === 'new' || match.prospectId === newProspectId) {
      const placement = placeNewLead(config.salesPipelines, lead);
      const prospect = newProspect(newProspectId, workspaceId, lead, placement, tagIds, actor, now);
      const created: LeadResult = {
        status: 'created',
        prospect_id: prospect.id,
        pipeline_id: prospect.pipeline_id,
        stage_id: prospect.stage_id,
        placement: placement.kind,
        tags_applied: tags.applied,
        warnings: [...inputWarnings, ...tags.warnings, ...placement.warnings],
      };
      if (match.kind === 'new') {
        const journal = successEntry(call, entryOf(created));
        const outcome = await retryOnTransactionConflict(
          () => createProspectWithMarkers(deps, prospect, journal, phone),
          retryPolicy,
        );
        if (outcome === 'contact_taken') return undefined;
        call.journaled = true;
      }
      return created;
    }

    const update = {
      first_name: lead.first_name,
      last_name: lead.last_name,
      email: match.email,
      phone: match.phone,
      tagIds,
      actor,
      now,
    };
    const existing = (placement: Placement): LeadResult => ({
      status: 'existing',
      prospect_id: match.prospectId,
      ...placement,
      placement: 'existant',
      tags_applied: tags.applied,
      warnings: [...inputWarnings, ...tags.warnings, ...match.warnings, messages.lead.notMoved],
    });
    const journal = (placement: Placement) => successEntry(call, entryOf(existing(placement)));

    if (match.takesNewEmail || match.takesNewPhone || marker === undefined) {
      const current = await getProspect(deps, workspaceId, match.prospectId);
      if (!current) return undefined;
      const outcome = await retryOnTransactionConflict(
        () => updateKnownProspectContacts(deps, current, update, journal(current), phone),
        retryPolicy,
      );
      if (outcome === 'changed_meanwhile') return undefined;
      call.journaled = true;
      return existing(current);
    }
    // The matched marker's placement hint, checked by the write's condition; a marker without one
    // (written before hints existed) or a stale one costs one more write, which refreshes it.
    let expected = marker.placement ?? { pipeline_id: null, stage_id: null };
    let refresh = marker.placement === undefined;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const target = { workspaceId, prospectId: match.prospectId, marker: marker.key };
      const written = await retryOnTransactionConflict(
        () => updateKnownProspect(deps, target, update, { expected, refresh }, journal(expected)),
        retryPolicy,
      );
      if (written.kind === 'changed_meanwhile') return undefined;
      if (written.kind === 'updated') {
        call.journaled = true;
        return existing(expected);
      }
      expected = written.placement;
      refresh = true;
    }
    return undefined;
  });
  if (result) {
    countLead(deps.metrics, result);
    return result;
  }
  throw new StorageUnavailableError(messages.failure.leadContended);
}

/** One count per answer the use case gives (a replayed one is IdempotentReplays); refusals: the webhook journal. */
function countLead(metrics: MetricsSink, result: LeadResult): void {
  metrics.count(result.status === 'created' ? 'LeadsCreated' : 'LeadsExisting');
  metrics.count('LeadPlacements', { placement: result.placement });
  if (result.warnings.length > 0) metrics.count('LeadWarnings', {}, result.warnings.length);
}

const entryOf = (result: LeadResult): CallOutcome => ({
  outcome: result.status,
  record_id: result.prospect_id,
  placement: result.placement,
  warnings: result.warnings,
});
