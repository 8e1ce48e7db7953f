import * as z from 'zod/mini';
import {
  type ApiKeyPrincipal,
  type FieldDefinition,
  type Member,
  type Prospect,
  type SalesPipeline,
  type Stage,
  fieldChangeName,
  isProtectedStage,
  liveFields,
  sameName,
  withFieldValues,
  InvalidInputError,
  NotFoundError,
  ProtectedStageError,
  UnknownReferenceError,
} from '../model';
import type { Deps } from '../../storage/client';
import type { ConfigAndProspect } from '../../storage/prospects';
import type { Decision } from '../../storage/conditional-writes';
import {
  changeLogEntry,
  type ChangeStamp,
  type FieldChange,
  changeProspectOnVersion,
  type VersionedWrite,
} from './logged-change';
import { prospectPatchView, type FieldsView, type ProspectPatchView } from './read-views';
import { messages } from '../../messages';
import { readIsoTimestamp } from '../timestamps';
import { fieldValuesBytes, fieldsView, maxFieldValuesBytes, readFieldValue } from '../fields/field-values';

/** ISO 8601 date and time with a time zone (Z or ±hh:mm): a follow-up without one is ambiguous. */
const followUpAt = z.pipe(
  z.string(),
  z.transform((value: string, context) => {
    const instant = readIsoTimestamp(value, { zone: 'required', dateOnly: false });
    if (instant) return instant.toISOString();
    context.issues.push({
      code: 'custom',
      message: messages.rules.zonedTimestamp,
      input: value,
    });
    return z.NEVER;
  }),
);

/**
 * A custom field's value as a body may send it (docs/api.md#custom-fields): the field's type reads it once the
 * definitions are read (`decideProspectPatch`); null clears it.
 */
const sentFieldValue = z.nullable(z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]));

/**
 * Only the fields to change, at least one, nothing else (docs/api.md#update-a-prospect); `fields` counts when it
 * names a custom field.
 */
export const patchProspectSchema = z
  .partial(
    z.strictObject({
      stage: z
        .string()
        .check(
          z.trim(),
          z.minLength(1, messages.rules.stageReference),
          z.maxLength(200, messages.rules.atMostCharacters(200)),
        ),
      setter_id: z.nullable(z.string().check(z.maxLength(100, messages.rules.atMostCharacters(100)))),
      closer_id: z.nullable(z.string().check(z.maxLength(100, messages.rules.atMostCharacters(100)))),
      follow_up_at: z.nullable(followUpAt),
      fields: z.record(z.string(), sentFieldValue),
    }),
  )
  .check(
    z.refine(
      ({ fields, ...others }) => Object.keys(others).length > 0 || Object.keys(fields ?? {}).length > 0,
      messages.rules.oneFieldToChange,
    ),
  );

export type PatchProspectInput = z.output<typeof patchProspectSchema>;

export type PatchResult = ProspectPatchView & { changed: string[] };

/** The change a PATCH writes: the attributes set and one log entry per field, on the version read. */
export type ProspectPatch = VersionedWrite<PatchResult>;

/**
 * Update a prospect (docs/api.md#update-a-prospect). Input: the validated body. Output: the
 * prospect after the change and what changed.
 * 1. Read the prospect and the workspace configuration in one eventually consistent BatchGetItem;
 *    a later round reads the prospect only, strongly consistently (`readConfigAndProspect`).
 * 2. Decide (`decideProspectPatch`): 404, 400 a custom field's value, 409 protected stage, 422 unknown stage, member
 *    or custom field, nothing to change, or the change; an answer that writes nothing comes from a strongly
 *    consistent read.
 * 3. Write the change and one log entry per field in one transaction conditional on the version;
 *    a lost race reads again (`changeProspectOnVersion`).
 */
export async function updateProspect(
  deps: Deps,
  principal: ApiKeyPrincipal,
  prospectId: string,
  input: PatchProspectInput,
): Promise<PatchResult> {
  return changeProspectOnVersion(deps, principal, prospectId, {
    decide: (snapshot, stamp) => decideProspectPatch(snapshot, input, stamp),
    versionedWrite: (patch: ProspectPatch) => patch,
  });
}

/**
 * What a PATCH does to the prospect read: refused (404; 400 a custom field's value that does not fit, or values
 * over 16 KB; 409; 422), nothing (every value already set: `changed: []`), or the fields whose value really changes,
 * each with its log entry (new ids every round: a log entry whose key was taken makes the round lose, never claim a
 * change). Refusals come in the order of docs/api.md#check-order once the prospect is found: 400, 409, 422.
 */
export function decideProspectPatch(
  { config, prospect }: ConfigAndProspect,
  input: PatchProspectInput,
  stamp: ChangeStamp,
): Decision<ProspectPatch, PatchResult> {
  if (!prospect) return { kind: 'refuse', refusal: new NotFoundError(messages.prospect.notFound) };
  const definitions = liveFields(config);
  const fieldEdits = customFieldChanges(prospect, input.fields ?? {}, definitions);
  if (fieldEdits instanceof Error) return { kind: 'refuse', refusal: fieldEdits };
  const changes = fieldChanges(prospect, input, config.salesPipelines, config.members);
  if (changes instanceof Error) return { kind: 'refuse', refusal: changes };
  if (fieldEdits.unknownKey !== undefined) {
    const message = messages.fields.patchUnknownField(fieldEdits.unknownKey);
    const field = fieldChangeName(fieldEdits.unknownKey);
    return { kind: 'refuse', refusal: new UnknownReferenceError(message, { field, message }) };
  }
  changes.push(...fieldEdits.changes);
  if (changes.length === 0)
    return { kind: 'answer', answer: { ...prospectPatchView(prospect, definitions), changed: [] } };
  const set = Object.assign({}, ...changes.map(({ set }) => set ?? {})) as Record<string, string | null>;
  const values = Object.fromEntries(fieldEdits.changes.map(({ key, change }) => [key, change.after]));
  const valuesChanged = fieldEdits.changes.length > 0;
  const updated: Prospect = {
    ...prospect,
    ...set,
    ...(valuesChanged ? { fields: withFieldValues(prospect.fields, values) } : {}),
  };
  const entries = changes.map(({ change }) =>
    changeLogEntry({
      id: stamp.newId(),
      workspaceId: prospect.workspace_id,
      prospectId: prospect.id,
      keyId: stamp.keyId,
      at: stamp.now,
      prospectVersion: prospect.version + 1,
      change,
    }),
  );
  return {
    kind: 'write',
    write: {
      set,
      ...(valuesChanged ? { fields: { values, mapExists: prospect.fields !== undefined } } : {}),
      entries,
      expectedVersion: prospect.version,
      now: stamp.now,
      answer: { ...prospectPatchView(updated, definitions), changed: changes.map(({ change }) => change.field) },
    },
  };
}

type PendingChange = { change: FieldChange; set?: Record<string, string | null> };

/** What a PATCH's `fields` changes: each value that really changes, and the first key no live field has. */
type CustomFieldChanges = {
  changes: { key: string; change: FieldChange }[];
  unknownKey: string | undefined;
};

/**
 * The custom fields' values a PATCH sends, read by their fields' types (docs/api.md#custom-fields): a value that does
 * not fit, or values together over 16 KB, is a 400 naming `fields.<key>` or `fields`; an unknown or deleted key is
 * named for a 422 (after the other refusals); a value sent as it is answered already is no change. Before and after
 * are the values as answered.
 */
function customFieldChanges(
  prospect: Prospect,
  sent: Readonly<Record<string, unknown>>,
  definitions: readonly FieldDefinition[],
): CustomFieldChanges | InvalidInputError {
  const before = fieldsView(prospect.fields, definitions);
  const after: FieldsView = { ...before };
  let unknownKey: string | undefined;
  for (const [key, raw] of Object.entries(sent)) {
    const definition = definitions.find((candidate) => candidate.key === key);
    if (definition === undefined) {
      unknownKey ??= key;
      continue;
    }
    const reading = readFieldValue(definition, raw);
    if (reading.kind === 'refused') {
      const field = fieldChangeName(key);
      const message = messages.body.invalidField(field, messages.fields.patchValueRefused(definition.label));
      return new InvalidInputError(message, { field, message });
    }
    after[key] = reading.kind === 'value' ? reading.value : null;
  }
  const changed = Object.keys(sent).filter(
    (key) => key in after && JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  if (changed.length > 0 && fieldValuesBytes(withFieldValues(undefined, after)) > maxFieldValuesBytes) {
    const message = messages.body.invalidField(
      'fields',
      messages.fields.patchValuesTooLarge(maxFieldValuesBytes / 1024),
    );
    return new InvalidInputError(message, { field: 'fields', message });
  }
  return {
    changes: changed.map((key) => ({
      key,
      change: { field: fieldChangeName(key), before: before[key] ?? null, after: after[key] ?? null },
    })),
    unknownKey,
  };
}

function fieldChanges(
  prospect: Prospect,
  input: PatchProspectInput,
  pipelines: readonly SalesPipeline[],
  members: readonly Member[],
): PendingChange[] | Error {
  const changes: PendingChange[] = [];
  if (input.stage !== undefined) {
    const target = resolveStageMove(pipelines, prospect, input.stage);
    if (target instanceof Error) return target;
    if (target.stage.id !== prospect.stage_id || target.pipelineId !== prospect.pipeline_id) {
      changes.push({
        change: {
          field: 'stage',
          before: prospect.stage_id,
          after: target.stage.id,
          pipelineBefore: prospect.pipeline_id,
          pipelineAfter: target.pipelineId,
        },
        set: { stage_id: target.stage.id, pipeline_id: target.pipelineId },
      });
    }
  }
  for (const [field, attribute, value] of [
    ['setter', 'setter_id', input.setter_id],
    ['closer', 'closer_id', input.closer_id],
  ] as const) {
    if (value === undefined) continue;
    const memberId = value === null ? null : members.find((member) => member.id === value.toLowerCase())?.id;
    if (memberId === undefined) return new UnknownReferenceError(messages.prospect.unknownMember(attribute));
    if (memberId !== prospect[attribute]) {
      changes.push({ change: { field, before: prospect[attribute], after: memberId }, set: { [attribute]: memberId } });
    }
  }
  if (input.follow_up_at !== undefined && input.follow_up_at !== prospect.next_follow_up_at) {
    changes.push({
      change: { field: 'follow_up', before: prospect.next_follow_up_at, after: input.follow_up_at },
      set: { next_follow_up_at: input.follow_up_at },
    });
  }
  return changes;
}

export type StageTarget = { pipelineId: string; stage: Stage };

function stageOf(pipelines: readonly SalesPipeline[], stageId: string | null): StageTarget | undefined {
  if (stageId === null) return undefined;
  for (const pipeline of pipelines) {
    const stage = pipeline.stages.find((candidate) => candidate.id === stageId);
    if (stage) return { pipelineId: pipeline.id, stage };
  }
  return undefined;
}

/**
 * The target of a `stage` (docs/api.md#update-a-prospect): a stage id of any active pipeline of the
 * workspace (the prospect changes pipeline), or a stage name (compared as in
 * docs/api.md#names-as-references) within the prospect's current pipeline, if active. Closé and Acompte are
 * neither left nor entered through the API (409, checked before an unknown target's 422). A refusal
 * is returned as a value: the caller decides whether the read it rests on may answer.
 */
export function resolveStageMove(
  pipelines: readonly SalesPipeline[],
  prospect: Pick<Prospect, 'pipeline_id' | 'stage_id'>,
  reference: string,
): StageTarget | ProtectedStageError | UnknownReferenceError {
  const current = stageOf(pipelines, prospect.stage_id);
  if (current && isProtectedStage(current.stage))
    return new ProtectedStageError(messages.prospect.inProtectedStage(current.stage.name));
  // A stage of an inactive pipeline is no target, by id or by name: the prospect would vanish from
  // every board (docs/api.md#update-a-prospect).
  const targets = pipelines.filter((pipeline) => pipeline.active);
  const byId = stageOf(targets, reference.trim().toLowerCase());
  const currentPipeline = targets.find((pipeline) => pipeline.id === prospect.pipeline_id);
  const byName = currentPipeline?.stages.find((stage) => sameName(stage.name, reference));
  const target = byId ?? (byName && currentPipeline ? { pipelineId: currentPipeline.id, stage: byName } : undefined);
  if (!target) return new UnknownReferenceError(messages.prospect.unknownStage(reference));
  if (isProtectedStage(target.stage))
    return new ProtectedStageError(messages.prospect.toProtectedStage(target.stage.name));
  return target;
}
