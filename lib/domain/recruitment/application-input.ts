import * as z from 'zod/mini';
import { InvalidInputError, type WebhookFields, isUuid, isEmailAddress } from '../model';
import { messages } from '../../messages';

export type ApplicationInput = {
  email: string;
  first_name: string;
  last_name: string;
  phone: string | undefined;
  position: string | undefined;
  source: string;
  pipeline_id: string | undefined;
  pipeline: string | undefined;
  answers: [question: string, answer: string][];
};

export const maxAnswerPairs = 200;

/** A field left empty is absent. */
const optionalText = (max = 500) =>
  z.pipe(
    z.transform((value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value)),
    z.optional(z.string().check(z.trim(), z.maxLength(max, messages.rules.atMostCharacters(max)))),
  );

const answersSchema = z.optional(
  z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]), {
      error: messages.rules.answersObject,
    })
    .check(
      z.refine((answers) => Object.keys(answers).length <= maxAnswerPairs, messages.rules.atMostPairs(maxAnswerPairs)),
    ),
);

/** The recruitment fields (docs/api.md#recruitment-fields); unknown fields are ignored. */
export const applicationSchema = z.object({
  email: z.pipe(
    z.transform((value: unknown) => (typeof value === 'string' ? value.trim() : value)),
    z.string({ error: messages.rules.emailAddress }).check(z.refine(isEmailAddress, messages.rules.emailAddress)),
  ),
  name: optionalText(),
  first_name: optionalText(),
  last_name: optionalText(),
  phone: optionalText(40),
  position: optionalText(),
  source: optionalText(),
  pipeline_id: optionalText().check(z.refine((value) => value === undefined || isUuid(value), messages.rules.uuid)),
  pipeline: optionalText(),
  answers: answersSchema,
});

const { nestedPayload, missingName } = messages.recruitment;

/** Native payloads of form tools nest their answers; the webhook wants them flattened (docs/api.md#nested-payloads). */
function isNestedFormPayload(fields: WebhookFields): boolean {
  const data = fields.data as { fields?: unknown } | undefined;
  const formResponse = fields.form_response as { answers?: unknown } | undefined;
  return Array.isArray(data?.fields) || Array.isArray(formResponse?.answers);
}

export function interpretApplication(fields: WebhookFields): ApplicationInput {
  if (isNestedFormPayload(fields))
    throw new InvalidInputError(nestedPayload, { field: 'answers', message: nestedPayload });
  const parsed = applicationSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? 'body');
    const message = messages.body.invalidField(field, issue?.message ?? messages.body.refusedValue);
    throw new InvalidInputError(message, { field, message });
  }
  const input = parsed.data;
  const [first_name, last_name] =
    input.first_name !== undefined ? [input.first_name, input.last_name ?? ''] : splitName(input.name);
  return {
    email: input.email,
    first_name,
    last_name,
    phone: input.phone,
    position: input.position,
    source: input.source ?? 'webhook',
    pipeline_id: input.pipeline_id?.toLowerCase(),
    pipeline: input.pipeline,
    answers: Object.entries(input.answers ?? {}).map(([question, answer]) => [question, String(answer)]),
  };
}

/**
 * "Full name, split automatically": the first word, then the rest (one word gives an empty last
 * name: docs/api.md#recruitment-fields).
 */
function splitName(name: string | undefined): [string, string] {
  if (name === undefined) throw new InvalidInputError(missingName, { field: 'name', message: missingName });
  const [first = '', ...rest] = name.split(/\s+/);
  return [first, rest.join(' ')];
}
