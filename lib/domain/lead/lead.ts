import * as z from 'zod/mini';
import type { Deps } from '../../storage/client';
import { messages } from '../../messages';
import {
  findContactOwners,
  loadConfigAndContactOwners,
  type ContactOwners,
  type FoundMarker,
  type PhoneMatching,
} from '../../storage/prospects';
import { readFieldValue } from '../fields/field-values';
import {
  isEmailAddress,
  maxEmailLength,
  nameKey,
  InvalidInputError,
  type FieldDefinition,
  type FieldValues,
  type PhoneSettings,
  type Tag,
  type WebhookFields,
  type WorkspaceConfig,
} from '../model';
import type * as PhoneModule from '../phone';

/*
 * What a lead is, for the lead webhook and for the look-up by contact (`GET /prospects?email=…`),
 * which reads its query as a lead so that it answers what the webhook would match: the fields read
 * from the body, the tags they name, and the prospect they designate.
 */

/**
 * The fields the lead webhook reads (docs/api.md#lead-fields), and the values of the workspace's custom fields it was
 * given (docs/api.md#lead-custom-fields); anything else is reported and ignored.
 */
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
  /** By key, each value as answered; absent when the body gave none (an empty value gives none). */
  fields?: FieldValues;
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

/** The definitions the reading below applies field by field; tools/openapi/document describes the body with them. */
export const leadFieldDefinitions = { maxLengths, text, email, tagIdList } as const;

const warningsText = {
  ...messages.lead,
  tooLong: (name: TextField) => messages.lead.tooLong(name, maxLengths[name]),
  tooManyTags: messages.lead.tooManyTags(maxTagIds),
} as const;

/**
 * Lenient reading (docs/api.md#lead-fields): a field left empty is absent; a field of the wrong
 * type, or an e-mail that is not an address, is ignored and named in `warnings`; without any
 * e-mail, phone or social_url left, the payload is refused. A member naming one of `definitions`
 * (the workspace's live custom fields) gives that field a value (`customFieldsOf`); without
 * them, every such member is an unknown field.
 */
export function interpretLead(fields: WebhookFields, definitions: readonly FieldDefinition[] = []): InterpretedLead {
  const lead: LeadInput = { tag_ids: [] };
  const warnings: string[] = [];
  const custom = customFieldsOf(definitions);
  for (const [name, value] of Object.entries(fields)) {
    if (isTextField(name)) {
      readText(lead, name, value, warnings);
    } else if (name === 'tag_ids') {
      lead.tag_ids = readTagIds(value, warnings);
    } else if (name === 'tags') {
      warnings.push(warningsText.tagsField);
    } else if (name === 'fields') {
      custom.giveAll(value, warnings);
    } else if (!custom.give(name, value)) {
      warnings.push(warningsText.unknownField(name));
    }
  }
  if (lead.email === undefined && lead.phone === undefined && lead.social_url === undefined) {
    throw new InvalidInputError(messages.lead.noContact);
  }
  const values = custom.values(warnings);
  if (Object.keys(values).length > 0) lead.fields = values;
  return { lead, warnings: bounded(warnings) };
}

/** Form-encoded `fields[key]=value` arrives as a member of that very name (lib/domain/webhook-call.ts, readForm). */
const formFieldName = /^fields\[(.*)\]$/s;

/**
 * The values a body gives the workspace's custom fields (docs/api.md#lead-custom-fields). A member gives a field a
 * value when its name is, as names compare (`nameKey`), the field's key or one of its aliases, or it is a key of the
 * `fields` object (`fields[key]` form-encoded). Several members giving one field: `fields` wins, then the key, then
 * an alias, then the first sent; an empty one gives nothing, so the next one counts. A value that does not fit the
 * field's type is ignored with a warning that names the field, never the value (personal data).
 */
function customFieldsOf(definitions: readonly FieldDefinition[]) {
  const rank = { fields: 0, key: 1, alias: 2 } as const;
  type Named = { definition: FieldDefinition; rank: number };
  const named = new Map<string, Named>();
  for (const definition of definitions) {
    named.set(nameKey(definition.key), { definition, rank: rank.key });
    for (const alias of definition.aliases) named.set(nameKey(alias), { definition, rank: rank.alias });
  }
  /** The field of that key, given inside `fields`: an alias names none there. */
  const keyed = (key: string): Named | undefined => {
    const found = named.get(nameKey(key));
    return found?.rank === rank.key ? { definition: found.definition, rank: rank.fields } : undefined;
  };
  const sent = new Map<FieldDefinition, { rank: number; raw: unknown }[]>();
  const take = ({ definition, rank: given }: Named, raw: unknown) =>
    sent.set(definition, [...(sent.get(definition) ?? []), { rank: given, raw }]);
  return {
    /** A member of the body: true when it names a field (and so is no unknown field). */
    give(name: string, raw: unknown): boolean {
      const inForm = formFieldName.exec(name);
      const found = inForm ? keyed(inForm[1] ?? '') : named.get(nameKey(name));
      if (found !== undefined) take(found, raw);
      return found !== undefined;
    },
    /** The `fields` member: an object of values by key; a key no field has is an unknown field. */
    giveAll(raw: unknown, warnings: string[]): void {
      if (raw === null || raw === undefined || raw === '') return;
      if (typeof raw !== 'object' || Array.isArray(raw)) {
        warnings.push(messages.fields.leadFieldsNotObject);
        return;
      }
      for (const [key, value] of Object.entries(raw)) {
        const found = keyed(key);
        if (found === undefined) warnings.push(warningsText.unknownField(`fields.${key}`));
        else take(found, value);
      }
    },
    /** Each field's value, in definition order: the first member by rank (then as sent) that is not empty. */
    values(warnings: string[]): FieldValues {
      const values: FieldValues = {};
      for (const definition of definitions) {
        const candidates = (sent.get(definition) ?? []).sort((a, b) => a.rank - b.rank);
        for (const { raw } of candidates) {
          const reading = readFieldValue(definition, raw);
          if (reading.kind === 'empty') continue;
          if (reading.kind === 'value') values[definition.key] = reading.value;
          else warnings.push(messages.fields.leadValueRefused(definition.label, definition.key));
          break;
        }
      }
      return values;
    },
  };
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

/** What a round of matching read: the configuration and how phones were matched. */
export type MatchContext = { config: WorkspaceConfig; phone: PhoneMatching };

let phoneModule: typeof PhoneModule | undefined;

/**
 * Loads phone matching (lib/domain/phone.ts, with libphonenumber-js) on first need: a lead of a
 * workspace matching in E.164, a look-up by phone. Bundled, a dynamically imported module stays in
 * the one file but is evaluated only when imported (esbuild, "Code splitting" off:
 * https://esbuild.github.io/api/#splitting), so the cold start of a function whose first call needs
 * no E.164 form skips its ~120 KB of metadata (docs/performance.md).
 */
export async function loadPhoneMatching(): Promise<void> {
  phoneModule ??= await import('../phone');
}

/** The E.164 form a phone is matched by in a workspace (undefined: matched as sent). */
export const e164Key = (phone: string, settings: PhoneSettings): string | undefined => {
  // A workspace matching phones as sent needs no E.164 form, so no phone matching loaded.
  if (settings.phone_matching !== 'e164') return undefined;
  if (phoneModule === undefined) throw new Error('phone matching is not loaded: await loadPhoneMatching() first');
  const key = phoneModule.phoneMatchKey(phone, settings);
  return key.kind === 'e164' ? key.value : undefined;
};

/** How a workspace with these settings matches phones. */
export const phoneMatching = (settings: PhoneSettings): PhoneMatching => ({ settings, e164Key });

/**
 * Which prospect a lead designates (docs/api.md#lead-matching): its contact markers, read strongly
 * consistently, decided by `matchContact`. The one path of the lead webhook and of the look-up
 * `GET /prospects?email=|phone=|social_url=`, so the look-up answers what the webhook would match.
 * The configuration comes in the same BatchGetItem; a later round passes it back and reads the
 * markers only. `phone`: the workspace's phone settings when the caller knows them (the lead
 * webhook, from its endpoint); unknown, the configuration says them (docs/api.md#phone-matching).
 */
export async function findLeadMatch(
  deps: Deps,
  workspaceId: string,
  lead: LeadInput,
  phone: PhoneSettings | undefined,
  known?: MatchContext,
): Promise<MatchContext & { match: ContactMatch; marker: FoundMarker | undefined }> {
  // An E.164 form is needed for a phone of a workspace matching in E.164, or of unknown settings
  // (the look-up reads the E.164 marker speculatively): only then is the phone library loaded.
  const settingsOfRound = known?.phone.settings ?? phone;
  if (lead.phone != null && (settingsOfRound === undefined || settingsOfRound.phone_matching === 'e164')) {
    await loadPhoneMatching();
  }
  const {
    config,
    phone: settings,
    owners,
  } = known
    ? { ...known, owners: await findContactOwners(deps, workspaceId, lead, known.phone) }
    : await loadConfigAndContactOwners(deps, workspaceId, lead, { settings: phone, e164Key });
  const match = matchContact(lead, owners);
  return {
    config,
    phone: settings,
    match,
    marker: match.kind === 'existing' ? markerOf(owners, match.prospectId) : undefined,
  };
}

/** The marker that names the matched prospect, in matching order: its placement hint serves the answer. */
function markerOf(owners: ContactOwners, prospectId: string): FoundMarker | undefined {
  const kind = (['email', 'phone', 'phone_exact', 'social'] as const).find(
    (candidate) => owners[candidate] === prospectId,
  );
  return kind === undefined ? undefined : owners.markers?.[kind];
}

export type ContactMatch =
  | { kind: 'new' }
  | {
      kind: 'existing';
      prospectId: string;
      /**
       * The e-mail or phone to write on the record: sent, and not owned by another prospect. A
       * phone that already designates this prospect is not written: it may be another format of
       * the stored one (E.164 matching), and the phone stays as first sent.
       */
      email: string | undefined;
      phone: string | undefined;
      /** True when that value is not yet the record's: its marker must be taken over. */
      takesNewEmail: boolean;
      takesNewPhone: boolean;
      warnings: string[];
    };

const matchWarnings = messages.lead;

/**
 * Lead matching (docs/api.md#lead-matching): the e-mail (case-insensitive) first, then the phone
 * (as sent, or by its E.164 form in a workspace matching in E.164: docs/api.md#phone-matching),
 * then, only for a lead carrying neither a known e-mail nor a known phone, the exact social_url.
 * In E.164 matching `phone` is the E.164 marker's owner and `phone_exact` the owner of the string
 * sent; the E.164 form decides, the exact string serves while no prospect holds that form yet.
 */
export function matchContact(lead: LeadInput, owners: ContactOwners): ContactMatch {
  const prospectId = owners.email ?? owners.phone ?? owners.phone_exact ?? owners.social;
  if (prospectId === undefined) return { kind: 'new' };
  const warnings: string[] = [];
  const contact = (sent: string | undefined, owner: string | undefined, taken: string) => {
    if (sent === undefined) return { value: undefined, isNew: false };
    if (owner === undefined) return { value: sent, isNew: true };
    if (owner === prospectId) return { value: sent, isNew: false };
    warnings.push(taken);
    return { value: undefined, isNew: false };
  };
  const email = contact(lead.email, owners.email, matchWarnings.emailTaken);
  const phoneOwner =
    owners.phone === prospectId || owners.phone_exact === prospectId
      ? prospectId
      : (owners.phone ?? owners.phone_exact);
  const phone = contact(lead.phone, phoneOwner, matchWarnings.phoneTaken);
  return {
    kind: 'existing',
    prospectId,
    email: email.value,
    phone: phone.isNew ? phone.value : undefined,
    takesNewEmail: email.isNew,
    takesNewPhone: phone.isNew,
    warnings,
  };
}
