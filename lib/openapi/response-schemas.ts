import { z } from 'zod';
import type { LeadResult } from '../domain/lead/ingest-lead';
import type { PipelineListing } from '../domain/pipelines';
import type { NoteResult } from '../domain/prospect/add-note';
import type { TagOutcome } from '../domain/prospect/change-tag';
import type { PatchResult } from '../domain/prospect/update-prospect';
import type { ApplicationResult } from '../domain/recruitment/receive-application';

type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * A response schema is accepted only if its output type is exactly the type the use case
 * returns: tsc fails when one changes without the other, so the document cannot drift.
 */
const describing =
  <T>() =>
  <S extends z.ZodType>(schema: SameType<z.output<S>, T> extends true ? S : never): S =>
    schema;

const id = z.uuid();
const timestamp = z.iso.datetime().meta({ description: 'ISO 8601, UTC (Z).' });
const tag = z.strictObject({ id, name: z.string() });

export const pipelineListingSchema = describing<PipelineListing>()(
  z.strictObject({
    pipelines: z.array(
      z.strictObject({
        id,
        name: z.string(),
        is_default: z.boolean(),
        stages: z.array(
          z.strictObject({
            id,
            name: z.string(),
            type: z.string().meta({ description: 'Values that appear: `Appointment Setting`, `Follow up`.' }),
            order: z.int().min(0).meta({ description: 'Position in the pipeline, from 0.' }),
          }),
        ),
      }),
    ),
    tags: z.array(tag),
  }),
);

export const patchResultSchema = describing<PatchResult>()(
  z.strictObject({
    id,
    pipeline_id: id.nullable().meta({ description: 'Null for a prospect on no board until a stage is set.' }),
    stage_id: id.nullable(),
    setter_id: id.nullable(),
    closer_id: id.nullable(),
    next_follow_up_at: timestamp.nullable(),
    changed: z.array(z.string()).meta({
      description:
        'What this call changed: `stage`, `setter`, `closer`, `follow_up`. A field sent with the value it already had is not listed.',
    }),
  }),
);

export const noteResultSchema = describing<NoteResult>()(
  z.strictObject({
    id,
    created_at: timestamp.meta({ description: 'Reception time, ISO 8601, UTC (Z).' }),
    warnings: z.array(z.string()).meta({ description: 'French sentences: a `date` not kept, and why.' }),
  }),
);

export const tagOutcomeSchema = describing<TagOutcome>()(
  z.strictObject({ outcome: z.enum(['added', 'already_present', 'removed', 'absent']), tag }),
);

export const leadResultSchema = describing<LeadResult>()(
  z.strictObject({
    status: z.enum(['created', 'existing']),
    prospect_id: id,
    pipeline_id: id.nullable().meta({ description: 'Where the prospect really is.' }),
    stage_id: id.nullable().meta({ description: 'Where the prospect really is.' }),
    placement: z.enum(['demande', 'defaut', 'existant', 'aucun']),
    tags_applied: z.array(tag),
    warnings: z.array(z.string()).meta({
      description:
        'French sentences: what was not applied as sent (unknown or ignored field, unknown tag, pipeline or stage not found, known contact not moved).',
    }),
  }),
);

export const applicationResultSchema = describing<ApplicationResult>()(
  z.strictObject({ ok: z.literal(true), talent_id: id, action: z.enum(['created', 'existing']) }),
);

/** `details` names the field at fault (the body's, or the Idempotency-Key header). */
const errorDetails = z.strictObject({ field: z.string(), message: z.string() });

/** Prospect API and recruitment webhook (docs/api.md#error-bodies). */
export const standardErrorSchema = (code: string) =>
  z.strictObject({
    error: z.strictObject({
      code: z.literal(code),
      message: z.string().meta({ description: 'A French sentence.' }),
      details: errorDetails.optional(),
    }),
  });

/** Lead webhook (docs/api.md#lead-webhook-errors). */
export const leadErrorSchema = (code: string) =>
  z.strictObject({ error: z.literal(code), message: z.string().meta({ description: 'A French sentence.' }) });

/** The success bodies, by component name. */
export const responseSchemas = {
  PipelineListing: pipelineListingSchema,
  ProspectChangeResult: patchResultSchema,
  NoteResult: noteResultSchema,
  TagOutcome: tagOutcomeSchema,
  LeadResult: leadResultSchema,
  ApplicationResult: applicationResultSchema,
} as const;

export type ResponseSchemaName = keyof typeof responseSchemas;
