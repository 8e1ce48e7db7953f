import { z } from 'zod';
import { isEmailAddress } from '../../lib/domain/model';
import { messages } from '../../lib/messages';
import { allScopes } from '../../lib/routes';
import { AdminInputError } from '../../lib/settings/admin-input';

/**
 * The input of `seed` (docs/api.md#seed-description). Every list is optional; `key` is a label local to the file
 * (defaults to `name`; for a prospect, to its e-mail, else its phone, else its social URL) and
 * prospects refer to pipelines, stages, members and tags by these labels.
 * Lists keep their order: a pipeline's position, a stage's or a column's order is its place in
 * its list. When no pipeline of a kind says `is_default: true`, the first one of the list is the
 * default. Unknown fields are refused, so a misspelt field never goes unnoticed.
 */
const text = z.string().trim().min(1);
const label = text;
/** The webhooks' rule for an address (docs/api.md#e-mail-addresses), so a seeded contact is one a lead can match. */
const email = z.string().trim().refine(isEmailAddress, messages.admin.seed.invalidEmail);

/**
 * `role` (docs/api.md#sign-in): `admin` or `member`, by default `member`; one with an e-mail may sign in once invited.
 */
const member = z.strictObject({
  key: label.optional(),
  name: text,
  email: email.nullable().optional(),
  role: z.enum(['admin', 'member']).default('member'),
});
const tag = z.strictObject({ key: label.optional(), name: text });
const stage = z.strictObject({ key: label.optional(), name: text, type: text });
const salesPipeline = z.strictObject({
  key: label.optional(),
  name: text,
  is_default: z.boolean().default(false),
  active: z.boolean().default(true),
  stages: z.array(stage).min(1),
});
const column = z.strictObject({ key: label.optional(), name: text });
const recruitmentPipeline = z.strictObject({
  key: label.optional(),
  name: text,
  is_default: z.boolean().default(false),
  active: z.boolean().default(true),
  columns: z.array(column).min(1),
});
const apiKey = z.strictObject({
  key: label.optional(),
  name: text,
  scopes: z
    .array(z.enum(['*', ...allScopes]))
    .min(1)
    .optional(),
});
const webhook = z.strictObject({ active: z.boolean().default(true) });
const optionalText = text.nullable().optional();
const prospect = z.strictObject({
  key: label.optional(),
  first_name: optionalText,
  last_name: optionalText,
  email: email.nullable().optional(),
  phone: text.max(40).nullable().optional(),
  social_url: optionalText,
  source: optionalText,
  /** Labels; without `pipeline`, the default pipeline; without `stage`, the pipeline's first stage. */
  pipeline: label.optional(),
  stage: label.optional(),
  setter: label.optional(),
  closer: label.optional(),
  tags: z.array(label).default([]),
  next_follow_up_at: z.iso.datetime({ offset: true }).nullable().optional(),
});

export const seedDescriptionSchema = z.strictObject({
  workspace: z.strictObject({ name: text }),
  members: z.array(member).default([]),
  tags: z.array(tag).default([]),
  pipelines: z.array(salesPipeline).default([]),
  recruitment_pipelines: z.array(recruitmentPipeline).default([]),
  api_keys: z.array(apiKey).default([]),
  webhook: webhook.optional(),
  prospects: z.array(prospect).default([]),
});

/** What a seed file may contain (optional parts optional). */
export type SeedDescription = z.input<typeof seedDescriptionSchema>;
/** The same, checked, with its defaults filled in. */
export type ParsedSeedDescription = z.output<typeof seedDescriptionSchema>;

export type SeedProblem = { path: readonly PropertyKey[]; message: string };

export function parseSeedDescription(description: unknown): ParsedSeedDescription {
  const parsed = seedDescriptionSchema.safeParse(description, { error: z.locales.fr().localeError });
  if (!parsed.success) throw invalidSeed(parsed.error.issues);
  return parsed.data;
}

export function invalidSeed(problems: readonly SeedProblem[]): AdminInputError {
  const lines = problems.map((problem) =>
    messages.admin.seed.problem(problem.path.map(String).join('.'), problem.message),
  );
  return new AdminInputError(messages.admin.seed.invalid(lines.join('\n')));
}
