import type * as z from 'zod/mini';
import { InvalidInputError } from '../domain/errors';
import { messages } from '../messages';

/** Prospect API bodies: JSON parsed and validated by the route's zod schema; any failure is a 400 naming the field. */
export function parseJsonBody<T>(body: string | null, schema: z.ZodMiniType<T>): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch (error) {
    throw new InvalidInputError(messages.body.notJsonObject, undefined, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InvalidInputError(messages.body.notJsonObject);
  const result = schema.safeParse(parsed);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.code === 'unrecognized_keys' ? issue.keys[0] : issue?.path[0];
  const name = field === undefined ? 'body' : String(field);
  const reason = issue?.message ?? messages.body.refusedValue;
  const message =
    issue?.code === 'unrecognized_keys'
      ? messages.body.unknownField(name)
      : name === 'body'
        ? messages.body.invalidBody(reason)
        : messages.body.invalidField(name, reason);
  throw new InvalidInputError(message, { field: name, message });
}
