import { z } from 'zod';

/** ISO 8601 date and time with a time zone (Z or ±hh:mm): a follow-up without one is ambiguous. */
const zonedTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

const followUpAt = z
  .string()
  .refine(
    (value) => zonedTimestamp.test(value) && !Number.isNaN(Date.parse(value)),
    'une date ISO 8601 avec fuseau horaire est attendue (ex. 2026-12-01T09:30:00+01:00)',
  )
  .transform((value) => new Date(value).toISOString());

/** Section 4.2: only the fields to change, at least one, nothing else. */
export const patchProspectSchema = z
  .strictObject({
    stage: z.string().trim().min(1, 'un identifiant ou un nom d’étape est attendu').max(200, '200 caractères au plus'),
    setter_id: z.string().max(100, '100 caractères au plus').nullable(),
    closer_id: z.string().max(100, '100 caractères au plus').nullable(),
    follow_up_at: followUpAt.nullable(),
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'au moins un champ à modifier est attendu');

export type PatchProspectInput = z.output<typeof patchProspectSchema>;
