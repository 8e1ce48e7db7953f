import * as z from 'zod/mini';
import type { WebhookFields } from '../../http/webhook-body';
import { InvalidInputError } from '../../errors';
import { isEmailAddress, maxEmailLength } from '../email';

/** Section 4.7: the fields the lead webhook reads; anything else is reported and ignored. */
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

/** Decisions 4, "Bounded answers": whatever the body, at most this many warnings name ignored fields. */
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
  unknownField: (name: string) => `Champ inconnu ignoré : « ${shorten(name)} ».`,
  tagsField: 'Le champ « tags » est ignoré : utilisez « tag_ids » avec les identifiants des tags.',
  wrongType: (name: string) => `Champ « ${name} » ignoré : une chaîne de caractères est attendue.`,
  invalidEmail: "Champ « email » ignoré : ce n'est pas une adresse e-mail valide.",
  tooLong: (name: TextField) => `Champ « ${name} » ignoré : ${maxLengths[name]} caractères au plus.`,
  wrongTagIds: 'Champ « tag_ids » ignoré : une liste d’identifiants de tags est attendue.',
  tooManyTags: `Seuls les ${maxTagIds} premiers identifiants distincts de « tag_ids » sont lus ; les suivants sont ignorés.`,
  moreIgnored: (count: number) =>
    count === 1
      ? '1 autre champ ignoré n’est pas nommé ici.'
      : `${count} autres champs ignorés ne sont pas nommés ici.`,
} as const;

const noContact =
  'Le prospect doit avoir au moins un moyen de contact valide : « email », « phone » ou « social_url ».';

/**
 * Decisions 4: a field left empty is absent; a field of the wrong type, or an e-mail that is not
 * an address, is ignored and named in `warnings`; without any e-mail, phone or social_url left,
 * the payload is refused.
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
    throw new InvalidInputError(noContact);
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

/** A warning quotes what the caller sent, never a 20 000-character copy of it, nor half an emoji. */
export function shorten(value: string, max = 80): string {
  const codePoints = Array.from(value);
  return codePoints.length > max ? `${codePoints.slice(0, max).join('')}…` : value;
}
