import { z } from 'zod';

/** Section 4.4: the id or exact name of an existing tag. */
export const addTagSchema = z.strictObject({
  tag: z.string().trim().min(1, 'un identifiant ou un nom de tag est attendu').max(200, '200 caractères au plus'),
});
