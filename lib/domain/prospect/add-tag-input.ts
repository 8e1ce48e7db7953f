import * as z from 'zod/mini';
import { messages } from '../../messages';

/** The id or exact name of an existing tag (docs/api.md#add-a-tag). */
export const addTagSchema = z.strictObject({
  tag: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, messages.rules.tagReference),
      z.maxLength(200, messages.rules.atMostCharacters(200)),
    ),
});
