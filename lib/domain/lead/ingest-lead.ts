import type { Deps } from '../../storage/client';
import {
  StorageUnavailableError,
  defaultPhoneSettings,
  findByIdOrName,
  isProtectedStage,
  liveFields,
  type Actor,
  type FieldDefinition,
  type FieldValues,
  type Prospect,
  type SalesPipeline,
  type Stage,
  type Stamped,
  type WebhookFields,
  type WorkspaceConfig,
} from '../model';
import {
  createProspectWithMarkers,
  updateKnownProspect,
  updateKnownProspectContacts,
  type KnownContactUpdate,
} from '../../storage/leads';
import { type FoundMarker, type PhoneMatching, type Placement, getProspect } from '../../storage/prospects';
import { readDecideWrite, type Decision, type RoundRead } from '../../storage/conditional-writes';
import {
  successEntry,
  type CallOutcome,
  type MetricCount,
  type WebhookAnswer,
  type WebhookCallContext,
} from '../webhook-call';
import {
  findLeadMatch,
  interpretLead,
  phoneMatching,
  resolveTagIds,
  type ContactMatch,
  type InterpretedLead,
  type LeadInput,
} from './lead';
import { fieldValuesBytes, maxFieldValuesBytes, readFieldValue } from '../fields/field-values';
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
 * What a round of the lead webhook read: the configuration, how phones are matched, the contact's
 * match and the marker that names it; the prospect itself when a known contact takes a new e-mail
 * or phone, is given custom field values, or its marker has no placement hint; and the placement a
 * refused write returned.
 */
export type LeadSnapshot = {
  config: WorkspaceConfig;
  phone: PhoneMatching;
  match: ContactMatch;
  marker: FoundMarker | undefined;
  prospect?: Prospect | undefined;
  placedAt?: Placement;
};

/**
 * What the lead webhook writes, each with the answer it makes once written: a new contact; a known one on the version
 * read (`take-contacts`: one taking a new e-mail or phone, given custom field values, or whose marker has no hint);
 * a known one on its marker's placement hint, without reading it (`update-known`, never with field values).
 */
export type LeadWrite =
  | { kind: 'create'; prospect: Stamped<Prospect>; answer: LeadResult }
  | { kind: 'take-contacts'; prospect: Prospect; update: KnownContactUpdate; answer: LeadResult }
  | {
      kind: 'update-known';
      prospectId: string;
      marker: FoundMarker;
      placement: { expected: Placement; refresh: boolean };
      update: KnownContactUpdate;
      answer: LeadResult;
    };

/**
 * What the decision is taken with besides the snapshot: the lead as read with the configuration's fields, this call's
 * ids, actor and time.
 */
export type LeadCall = {
  lead: LeadInput;
  inputWarnings: string[];
  workspaceId: string;
  newProspectId: string;
  actor: Actor;
  now: string;
};

/** The lead webhook's answer, and whether its journal entry went with a write. */
type LeadAnswered = { result: LeadResult; journaledWithChange: boolean };

/**
 * The lead webhook (docs/api.md#lead-webhook). Input: the body's fields, read by the service.
 * Output: the answer of the webhook, its journal entry and its counts (`WebhookAnswer`).
 * 1. Interpret the fields (unknown or wrongly typed fields become warnings); the contact is read
 *    then, the custom fields' values once the configuration that defines them is read.
 * 2. Read the workspace configuration and the contact's markers in one BatchGetItem (a later
 *    round reads the markers only), and the prospect when a known contact needs it (`readLead`).
 * 3. Decide (`decideLead`): an unknown contact is placed and created with its markers in one
 *    transaction that fails if any marker exists meanwhile; a known contact is updated, taking over
 *    a new e-mail or phone only if no other prospect owns it.
 * 4. When a concurrent call won the race, read again (`readDecideWrite`): the contact is then known.
 * A write carries the call's journal entry in its transaction; an answer without a write (a retry
 * whose first attempt landed) leaves the entry to the route.
 */
export async function ingestLead(
  deps: Deps,
  call: WebhookCallContext,
  fields: WebhookFields,
): Promise<WebhookAnswer<LeadResult>> {
  const { workspaceId } = call;
  const { lead: contact } = interpretLead(fields);
  const readWith = leadReading(fields);
  const newProspectId = deps.newId();
  // The workspace's phone settings came with the endpoint, in the authorizer's one write: the
  // first read already looks phones up the workspace's way (docs/api.md#phone-matching).
  const phone = phoneMatching(call.phone ?? defaultPhoneSettings);
  const actor: Actor = { kind: 'webhook', id: call.endpointId };
  const journal = (result: LeadResult) => successEntry(call, entryOf(result));
  const { result, journaledWithChange } = await readDecideWrite<LeadSnapshot, LeadWrite, LeadAnswered, Placement>({
    read: async (previous) => {
      // A known contact placed elsewhere than its marker's hint: the refusal returned where it
      // stands, written against at once; placed elsewhere again, the next round reads anew.
      if (previous?.reason === 'lost-race' && previous.learned && !previous.snapshot.placedAt) {
        return { snapshot: { ...previous.snapshot, placedAt: previous.learned }, consistent: true };
      }
      return readLead(deps, workspaceId, { contact, readWith }, newProspectId, phone, previous?.snapshot.config);
    },
    decide: (snapshot) => {
      const { lead, warnings: inputWarnings } = readWith(snapshot.config);
      const decision = decideLead(snapshot, {
        lead,
        inputWarnings,
        workspaceId,
        newProspectId,
        actor,
        now: deps.clock().toISOString(),
      });
      return decision.kind === 'answer'
        ? { kind: 'answer', answer: { result: decision.answer, journaledWithChange: false } }
        : decision;
    },
    write: async (write) => {
      if (write.kind === 'create') {
        const outcome = await createProspectWithMarkers(deps, write.prospect, journal(write.answer), phone);
        if (outcome === 'contact_taken') return { kind: 'lost-race' };
      } else if (write.kind === 'take-contacts') {
        const outcome = await updateKnownProspectContacts(
          deps,
          write.prospect,
          write.update,
          journal(write.answer),
          phone,
        );
        if (outcome === 'changed_meanwhile') return { kind: 'lost-race' };
      } else {
        const target = { workspaceId, prospectId: write.prospectId, marker: write.marker.key };
        const outcome = await updateKnownProspect(deps, target, write.update, write.placement, journal(write.answer));
        if (outcome.kind === 'changed_meanwhile') return { kind: 'lost-race' };
        if (outcome.kind === 'placed_elsewhere') return { kind: 'lost-race', learned: outcome.placement };
      }
      return { kind: 'written', answer: { result: write.answer, journaledWithChange: true } };
    },
    contended: () => new StorageUnavailableError(messages.failure.leadContended),
  });
  return { answer: result, journal: entryOf(result), journaledWithChange, counts: leadCounts(result) };
}

/**
 * The body read with a configuration's live fields, read once per configuration: the contact, which the markers are
 * read by, does not depend on them (no field's key or alias is a lead field's name), so it is read before them.
 */
function leadReading(fields: WebhookFields): (config: WorkspaceConfig) => InterpretedLead {
  let last: { config: WorkspaceConfig; reading: InterpretedLead } | undefined;
  return (config) => {
    if (last?.config !== config) last = { config, reading: interpretLead(fields, liveFields(config)) };
    return last.reading;
  };
}

/**
 * A round's read: the configuration and the contact's markers (`findLeadMatch`; a later round
 * passes the configuration back and reads the markers only), and a known contact's prospect when
 * it takes a new e-mail or phone, or is given custom field values (the write is conditional on its
 * version and sets what it read: docs/api.md#lead-custom-fields), or its marker has no placement
 * hint, by a strongly consistent GetItem. Every read is strongly consistent.
 */
async function readLead(
  deps: Deps,
  workspaceId: string,
  lead: { contact: LeadInput; readWith: (config: WorkspaceConfig) => InterpretedLead },
  newProspectId: string,
  phone: PhoneMatching,
  known: WorkspaceConfig | undefined,
): Promise<RoundRead<LeadSnapshot>> {
  const found = await findLeadMatch(deps, workspaceId, lead.contact, phone.settings, known && { config: known, phone });
  const { match, marker } = found;
  const snapshot: LeadSnapshot = { config: found.config, phone, match, marker };
  const read = lead.readWith(found.config).lead;
  if (match.kind === 'existing' && match.prospectId !== newProspectId && readsProspect(match, marker, read)) {
    snapshot.prospect = await getProspect(deps, workspaceId, match.prospectId);
  }
  return { snapshot, consistent: true };
}

const readsProspect = (
  match: Extract<ContactMatch, { kind: 'existing' }>,
  marker: FoundMarker | undefined,
  lead: LeadInput,
) => match.takesNewEmail || match.takesNewPhone || marker === undefined || lead.fields !== undefined;

/**
 * What a lead does, given what was read. The contact is this request's own prospect when a retry
 * under the same Idempotency-Key repeats a first attempt that did land (same ids): it was created
 * then, and is answered so without writing. A known contact's answer names where the prospect
 * stands: the version read (taking a new e-mail or phone, or given custom field values), or the
 * placement its write is conditional on (the marker's hint, or where a refused write said it stands).
 * A new contact takes every custom field value; a known one, each as its field's `update` says.
 */
export function decideLead(snapshot: LeadSnapshot, call: LeadCall): Decision<LeadWrite, LeadResult> {
  const { config, match, marker } = snapshot;
  const { lead, inputWarnings } = call;
  const tags = resolveTagIds(config.tags, lead.tag_ids);
  const tagIds = tags.applied.map((tag) => tag.id);

  if (match.kind === 'new' || match.prospectId === call.newProspectId) {
    const placement = placeNewLead(config.salesPipelines, lead);
    const values = leadFieldValues(lead.fields, undefined, liveFields(config));
    const prospect = newProspect(
      call.newProspectId,
      call.workspaceId,
      { ...lead, fields: values.changed },
      placement,
      tagIds,
      call.actor,
      call.now,
    );
    const answer: LeadResult = {
      status: 'created',
      prospect_id: prospect.id,
      pipeline_id: prospect.pipeline_id,
      stage_id: prospect.stage_id,
      placement: placement.kind,
      tags_applied: tags.applied,
      warnings: [...inputWarnings, ...values.warnings, ...tags.warnings, ...placement.warnings],
    };
    return match.kind === 'new'
      ? { kind: 'write', write: { kind: 'create', prospect, answer } }
      : { kind: 'answer', answer };
  }

  const update: KnownContactUpdate = {
    first_name: lead.first_name,
    last_name: lead.last_name,
    email: match.email,
    phone: match.phone,
    tagIds,
    actor: call.actor,
    now: call.now,
  };
  const existing = (placement: Placement, valueWarnings: readonly string[] = []): LeadResult => ({
    status: 'existing',
    prospect_id: match.prospectId,
    pipeline_id: placement.pipeline_id,
    stage_id: placement.stage_id,
    placement: 'existant',
    tags_applied: tags.applied,
    warnings: [...inputWarnings, ...valueWarnings, ...tags.warnings, ...match.warnings, messages.lead.notMoved],
  });
  if (!marker || readsProspect(match, marker, lead)) {
    const { prospect } = snapshot;
    // Its markers name a prospect not found: a write under way, read again.
    if (!prospect) return { kind: 'lost-race' };
    const values = leadFieldValues(lead.fields, prospect.fields, liveFields(config));
    const withValues = Object.keys(values.changed).length > 0 ? { ...update, fields: values.changed } : update;
    const answer = existing(prospect, values.warnings);
    // A match that changes nothing writes nothing of the prospect (its `updated_at` stays): the answer alone.
    if (changesNothing(prospect, withValues)) return { kind: 'answer', answer };
    return { kind: 'write', write: { kind: 'take-contacts', prospect, update: withValues, answer } };
  }
  // The matched marker's placement hint, checked by the write's condition; a marker without one
  // (written before hints existed) or a stale one costs one more write, which refreshes it.
  const expected = snapshot.placedAt ?? marker.placement ?? { pipeline_id: null, stage_id: null };
  const refresh = snapshot.placedAt !== undefined || marker.placement === undefined;
  return {
    kind: 'write',
    write: {
      kind: 'update-known',
      prospectId: match.prospectId,
      marker,
      placement: { expected, refresh },
      update,
      answer: existing(expected),
    },
  };
}

/**
 * Whether a known contact's update leaves the prospect read as it is: every value it sets already there, every tag it
 * adds already carried, no custom field value changed (`leadFieldValues` keeps only those that change).
 */
function changesNothing(prospect: Prospect, update: KnownContactUpdate): boolean {
  const sets = (['first_name', 'last_name', 'email', 'phone'] as const).every(
    (name) => update[name] === undefined || update[name] === prospect[name],
  );
  const tags = update.tagIds.every((tagId) => prospect.tag_ids?.has(tagId) === true);
  return sets && tags && update.fields === undefined;
}

/** What a lead writes of the custom field values it carries, and the warnings about those it does not. */
export type LeadFieldValues = { changed: FieldValues; warnings: string[] };

/**
 * What a lead writes of the values it carries (docs/api.md#lead-custom-fields), given the prospect's values as read
 * (none for a new contact), field by field in definition order: a value already set stays when its field says
 * `if_empty`, a value equal to the one set changes nothing, and a value that would take the prospect's values past
 * 16 KB is ignored with a warning naming the field. Only the values that change are returned; a lead never clears
 * one (an empty value gave none). The prospect's values are counted as every view shows them: those of live fields.
 */
export function leadFieldValues(
  sent: FieldValues | undefined,
  stored: FieldValues | undefined,
  definitions: readonly FieldDefinition[],
): LeadFieldValues {
  const changed: FieldValues = {};
  const warnings: string[] = [];
  if (sent === undefined) return { changed, warnings };
  let values: FieldValues = {};
  for (const definition of definitions) {
    const raw = stored?.[definition.key];
    const reading = raw === undefined ? undefined : readFieldValue(definition, raw);
    if (reading?.kind === 'value') values[definition.key] = reading.value;
  }
  for (const definition of definitions) {
    const { key } = definition;
    const value = sent[key];
    if (value === undefined) continue;
    const current = values[key];
    if (current !== undefined && (definition.update === 'if_empty' || sameValue(current, value))) continue;
    const next = { ...values, [key]: value };
    if (fieldValuesBytes(next) > maxFieldValuesBytes) {
      warnings.push(messages.fields.leadValuesTooLarge(definition.label, key, maxFieldValuesBytes / 1024));
      continue;
    }
    values = next;
    changed[key] = value;
  }
  return { changed, warnings };
}

/** Two answered values (canonical: an array's options in definition order) are the same when their JSON is. */
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What a lead's answer counts (a replayed one is IdempotentReplays; a refusal, the route's to count). */
export function leadCounts(result: LeadResult): MetricCount[] {
  return [
    { metric: result.status === 'created' ? 'LeadsCreated' : 'LeadsExisting' },
    { metric: 'LeadPlacements', dimensions: { placement: result.placement } },
    ...(result.warnings.length > 0 ? [{ metric: 'LeadWarnings' as const, value: result.warnings.length }] : []),
  ];
}

const entryOf = (result: LeadResult): CallOutcome => ({
  outcome: result.status,
  record_id: result.prospect_id,
  placement: result.placement,
  pipeline_id: result.pipeline_id,
  stage_id: result.stage_id,
  warnings: result.warnings,
});

export type PlacementKind = 'demande' | 'defaut' | 'aucun';

/** Where a new contact lands, and why (`kind`); the write's placement is storage's `Placement`. */
export type NewLeadPlacement = {
  kind: PlacementKind;
  pipelineId: string | null;
  stageId: string | null;
  warnings: string[];
};

const warningsText = messages.lead;

/** The active pipeline marked default; failing that, the first active one. */
export function defaultPipeline(pipelines: readonly SalesPipeline[]): SalesPipeline | undefined {
  const active = activePipelines(pipelines);
  return active.find((pipeline) => pipeline.is_default) ?? active[0];
}

function activePipelines(pipelines: readonly SalesPipeline[]): SalesPipeline[] {
  return pipelines.filter((pipeline) => pipeline.active).sort((a, b) => a.position - b.position);
}

const firstStage = (pipeline: SalesPipeline): Stage | undefined =>
  [...pipeline.stages].sort((a, b) => a.order - b.order)[0];

/**
 * Where a new contact lands (docs/api.md#lead-placement): a requested pipeline and stage are honoured when
 * found; anything requested but not found sends the lead to the default pipeline's first stage
 * with a warning; a stage requested without a pipeline is looked up in the default pipeline.
 * The protected stages (Closé, Acompte) are never a lead's arrival stage.
 */
export function placeNewLead(
  pipelines: readonly SalesPipeline[],
  request: { pipeline?: string | undefined; stage?: string | undefined },
): NewLeadPlacement {
  const fallback = defaultPipeline(pipelines);
  if (!fallback) {
    const requested = request.pipeline !== undefined || request.stage !== undefined;
    return { kind: 'aucun', pipelineId: null, stageId: null, warnings: requested ? [warningsText.noPipeline] : [] };
  }
  const atDefault = (warnings: string[]): NewLeadPlacement => ({
    kind: 'defaut',
    pipelineId: fallback.id,
    stageId: firstStage(fallback)?.id ?? null,
    warnings,
  });

  let pipeline = fallback;
  if (request.pipeline !== undefined) {
    const found = findByIdOrName(activePipelines(pipelines), request.pipeline);
    if (!found) return atDefault([warningsText.pipelineNotFound(request.pipeline)]);
    pipeline = found;
  }
  if (request.stage === undefined) {
    if (request.pipeline === undefined) return atDefault([]);
    return { kind: 'demande', pipelineId: pipeline.id, stageId: firstStage(pipeline)?.id ?? null, warnings: [] };
  }
  const stage = findByIdOrName(pipeline.stages, request.stage);
  if (!stage) return atDefault([warningsText.stageNotFound(request.stage, pipeline.name)]);
  if (isProtectedStage(stage)) return atDefault([warningsText.protectedStage(stage.name)]);
  return { kind: 'demande', pipelineId: pipeline.id, stageId: stage.id, warnings: [] };
}

/**
 * A new prospect record as the lead webhook creates it: version 1, no setter, closer or follow-up; the custom field
 * values given (`lead.fields`, the map attribute `fields`, absent when none).
 */
export function newProspect(
  id: string,
  workspaceId: string,
  lead: LeadInput,
  placement: { pipelineId: string | null; stageId: string | null },
  tagIds: readonly string[],
  actor: Actor,
  now: string,
): Stamped<Prospect> {
  return {
    id,
    workspace_id: workspaceId,
    pipeline_id: placement.pipelineId,
    stage_id: placement.stageId,
    setter_id: null,
    closer_id: null,
    next_follow_up_at: null,
    first_name: lead.first_name ?? null,
    last_name: lead.last_name ?? null,
    email: lead.email ?? null,
    phone: lead.phone ?? null,
    social_url: lead.social_url ?? null,
    source: lead.source ?? null,
    ...(tagIds.length > 0 ? { tag_ids: new Set(tagIds) } : {}),
    ...(lead.fields !== undefined && Object.keys(lead.fields).length > 0 ? { fields: lead.fields } : {}),
    version: 1,
    created_at: now,
    updated_at: now,
    actor,
  };
}
