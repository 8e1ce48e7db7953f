import * as z from 'zod/mini';

/** Section 4.4: the id or exact name of an existing tag. */
export const addTagSchema = z.strictObject({
  tag: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'un identifiant ou un nom de tag est attendu'),
      z.maxLength(200, '200 caractères au plus'),
    ),
});
