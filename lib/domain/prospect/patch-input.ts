import * as z from 'zod/mini';
import { readIsoTimestamp } from '../timestamps';

/** ISO 8601 date and time with a time zone (Z or ±hh:mm): a follow-up without one is ambiguous. */
const followUpAt = z.pipe(
  z.string(),
  z.transform((value: string, context) => {
    const instant = readIsoTimestamp(value, { zone: 'required', dateOnly: false });
    if (instant) return instant.toISOString();
    context.issues.push({
      code: 'custom',
      message: 'une date ISO 8601 avec fuseau horaire est attendue (ex. 2026-12-01T09:30:00+01:00)',
      input: value,
    });
    return z.NEVER;
  }),
);

/** Section 4.2: only the fields to change, at least one, nothing else. */
export const patchProspectSchema = z
  .partial(
    z.strictObject({
      stage: z
        .string()
        .check(
          z.trim(),
          z.minLength(1, 'un identifiant ou un nom d’étape est attendu'),
          z.maxLength(200, '200 caractères au plus'),
        ),
      setter_id: z.nullable(z.string().check(z.maxLength(100, '100 caractères au plus'))),
      closer_id: z.nullable(z.string().check(z.maxLength(100, '100 caractères au plus'))),
      follow_up_at: z.nullable(followUpAt),
    }),
  )
  .check(z.refine((body) => Object.keys(body).length > 0, 'au moins un champ à modifier est attendu'));

export type PatchProspectInput = z.output<typeof patchProspectSchema>;
