import * as z from 'zod/mini';
import type { Tag, WebhookFields } from '../model';
import { InvalidInputError } from '../errors';
import { isEmailAddress, maxEmailLength } from '../email';
import { messages } from '../../messages';

/** The fields the lead webhook reads (docs/api.md#lead-fields); anything else is reported and ignored. */
export type LeadInput = {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
  social_url?: string;
  source?: string;
  pipeline?: string;
  stage?: string;
  tag_ids: string[];
};

export type InterpretedLead = { lead: LeadInput; warnings: string[] };

export const maxTagIds = 50;

/** Whatever the body, at most this many warnings name ignored fields (docs/api.md#bounded-warnings). */
export const maxNamedIgnoredFields = 20;

/**
 * Longest value read per field: beyond, a value is no name, phone or link, and it is ignored with a
 * warning like a value of the wrong type (keys only ever hold hashes, so length is about sense).
 */
const maxLengths = {
  first_name: 200,
  last_name: 200,
  email: maxEmailLength,
  phone: 40,
  social_url: 2048,
  source: 500,
  pipeline: 200,
  stage: 200,
} as const;
type TextField = keyof typeof maxLengths;
const textFields = Object.keys(maxLengths) as TextField[];

const text = z.string();
const email = z.string().check(z.refine(isEmailAddress));
const tagIdList = z.union([z.array(z.string()), z.string()]);

/** The definitions the reading below applies field by field; lib/openapi describes the body with them. */
export const leadFieldDefinitions = { maxLengths, text, email, tagIdList } as const;

const warningsText = {
  ...messages.lead,
  tooLong: (name: TextField) => messages.lead.tooLong(name, maxLengths[name]),
  tooManyTags: messages.lead.tooManyTags(maxTagIds),
} as const;

/**
 * Lenient reading (docs/api.md#lead-fields): a field left empty is absent; a field of the wrong
 * type, or an e-mail that is not an address, is ignored and named in `warnings`; without any
 * e-mail, phone or social_url left, the payload is refused.
 */
export function interpretLead(fields: WebhookFields): InterpretedLead {
  const lead: LeadInput = { tag_ids: [] };
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (isTextField(name)) {
      readText(lead, name, value, warnings);
    } else if (name === 'tag_ids') {
      lead.tag_ids = readTagIds(value, warnings);
    } else if (name === 'tags') {
      warnings.push(warningsText.tagsField);
    } else {
      warnings.push(warningsText.unknownField(name));
    }
  }
  if (lead.email === undefined && lead.phone === undefined && lead.social_url === undefined) {
    throw new InvalidInputError(messages.lead.noContact);
  }
  return { lead, warnings: bounded(warnings) };
}

/** The first warnings about ignored fields, then one that counts the rest: an answer stays a few KB. */
function bounded(warnings: string[]): string[] {
  if (warnings.length <= maxNamedIgnoredFields) return warnings;
  const rest = warnings.length - maxNamedIgnoredFields;
  return [...warnings.slice(0, maxNamedIgnoredFields), warningsText.moreIgnored(rest)];
}

function isTextField(name: string): name is TextField {
  return (textFields as readonly string[]).includes(name);
}

function readText(lead: LeadInput, name: TextField, value: unknown, warnings: string[]): void {
  if (value === null || value === undefined) return;
  const parsed = text.safeParse(value);
  if (!parsed.success) {
    warnings.push(warningsText.wrongType(name));
    return;
  }
  const trimmed = parsed.data.trim();
  if (trimmed === '') return;
  if (trimmed.length > maxLengths[name]) {
    warnings.push(warningsText.tooLong(name));
    return;
  }
  if (name === 'email' && !email.safeParse(trimmed).success) {
    warnings.push(warningsText.invalidEmail);
    return;
  }
  lead[name] = trimmed;
}

/** A list, repeated form keys, or one comma-separated string; distinct, at most 50 read. */
function readTagIds(value: unknown, warnings: string[]): string[] {
  if (value === null || value === undefined || value === '') return [];
  const parsed = tagIdList.safeParse(value);
  if (!parsed.success) {
    warnings.push(warningsText.wrongTagIds);
    return [];
  }
  const items = typeof parsed.data === 'string' ? [parsed.data] : parsed.data;
  const distinct = [
    ...new Set(
      items
        .flatMap((item) => item.split(','))
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ];
  if (distinct.length > maxTagIds) warnings.push(warningsText.tooManyTags);
  return distinct.slice(0, maxTagIds);
}

export type ResolvedTags = { applied: { id: string; name: string }[]; warnings: string[] };

/**
 * The lead's `tag_ids` against the workspace's tags: tags are referenced by id only on the lead
 * webhook (the API never creates a tag); an unknown id is reported, a repeated one applied once.
 */
export function resolveTagIds(tags: readonly Tag[], requested: readonly string[]): ResolvedTags {
  const applied: { id: string; name: string }[] = [];
  const warnings: string[] = [];
  for (const id of requested) {
    const tag = tags.find((candidate) => candidate.id === id.toLowerCase());
    if (!tag) warnings.push(messages.lead.unknownTag(id));
    else if (!applied.some((entry) => entry.id === tag.id)) applied.push({ id: tag.id, name: tag.name });
  }
  return { applied, warnings };
}
