import * as z from 'zod/mini';
import { readIsoTimestamp } from '../timestamps';
import { messages } from '../../messages';

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

/** Only the fields to change, at least one, nothing else (docs/api.md#update-a-prospect). */
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
    }),
  )
  .check(z.refine((body) => Object.keys(body).length > 0, messages.rules.oneFieldToChange));

export type PatchProspectInput = z.output<typeof patchProspectSchema>;
