import * as z from 'zod/mini';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  UnknownReferenceError,
  isDeletedField,
  liveFields,
  nameKey,
  type FieldDefinition,
  type FieldEntry,
  type FieldType,
  type WorkspaceConfig,
} from '../model';
import { messages } from '../../messages';

/*
 * The rules of a workspace's custom field definitions (docs/api.md#custom-fields), decided on the configuration read
 * and applied by one conditional edit of it (lib/settings/fields.ts): what a body may say (the schemas), then what the
 * other fields allow (limits, names taken, options that only grow).
 */

const refusals = messages.fields;

export const fieldTypes = [
  'text',
  'number',
  'date',
  'boolean',
  'choice',
  'multi_choice',
] as const satisfies readonly FieldType[];
export const fieldKeyPattern = /^[a-z][a-z0-9_]{0,39}$/;
export const maxFields = 50;
export const maxDefinitionsBytes = 64 * 1024;
export const maxOptions = 50;
export const maxAliases = 10;

/** The names the lead webhook reads itself: no field may take one as its key or an alias. */
export const reservedFieldNames: readonly string[] = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'social_url',
  'source',
  'tag_ids',
  'tags',
  'pipeline',
  'stage',
  'fields',
  'id',
];

const isReserved = (name: string): boolean => reservedFieldNames.includes(nameKey(name));
const hasChoices = (type: FieldType): boolean => type === 'choice' || type === 'multi_choice';

/** A name or label as stored: trimmed, 1 to `max` characters (code points), and without a comma where `noComma`. */
const trimmedText = (max: number, field: string, noComma = false) =>
  z.pipe(
    z.string(),
    z.transform((value: string, context): string => {
      const text = value.trim();
      const length = Array.from(text).length;
      if (length < 1 || length > max) {
        context.issues.push({ code: 'custom', message: refusals.textLength(field, max), input: value });
        return z.NEVER;
      }
      if (noComma && text.includes(',')) {
        context.issues.push({ code: 'custom', message: refusals.optionComma, input: value });
        return z.NEVER;
      }
      return text;
    }),
  );

const label = trimmedText(100, 'label');
const option = trimmedText(100, 'option', true);
const options = z.array(option).check(
  z.minLength(1, refusals.optionsCount(maxOptions)),
  z.maxLength(maxOptions, refusals.optionsCount(maxOptions)),
  z.refine((names: string[]) => new Set(names.map(nameKey)).size === names.length, refusals.optionsRepeated),
);
const aliases = z.array(trimmedText(200, 'alias')).check(
  z.maxLength(maxAliases, refusals.aliasesCount(maxAliases)),
  z.refine((names: string[]) => new Set(names.map(nameKey)).size === names.length, refusals.aliasesRepeated),
  z.refine((names: string[]) => !names.some(isReserved), refusals.reservedName),
);
const update = z.enum(['always', 'if_empty'], refusals.updateRule);

/** `POST /fields`: a new definition. */
export const newFieldSchema = z
  .strictObject({
    key: z.string().check(
      z.regex(fieldKeyPattern, refusals.keyPattern),
      z.refine((key: string) => !isReserved(key), refusals.reservedName),
    ),
    label,
    type: z.enum(fieldTypes, refusals.type),
    options: z.optional(options),
    aliases: z.optional(aliases),
    update: z.optional(update),
  })
  .check(
    z.superRefine((body, context) => {
      if (hasChoices(body.type) === (body.options !== undefined)) return;
      context.issues.push({
        code: 'custom',
        path: ['options'],
        message: hasChoices(body.type) ? refusals.optionsRequired : refusals.optionsRefused,
        input: body.options,
      });
    }),
  );
export type NewFieldInput = z.output<typeof newFieldSchema>;

/** `PATCH /fields/{key}`: what may change, at least one of it; `key` and `type` never change. */
export const fieldChangeSchema = z
  .strictObject({
    key: z.optional(z.never(refusals.keyFixed)),
    type: z.optional(z.never(refusals.typeFixed)),
    label: z.optional(label),
    options: z.optional(options),
    aliases: z.optional(aliases),
    update: z.optional(update),
  })
  .check(z.refine((body) => Object.keys(body).length > 0, messages.rules.oneFieldToChange));
export type FieldChangeInput = z.output<typeof fieldChangeSchema>;

/** The live definition of that key; a deleted or unknown one is 404. */
export function fieldNamed(entries: readonly FieldEntry[], key: string): FieldDefinition {
  const found = entries.find((entry) => entry.key === key);
  if (!found || isDeletedField(found)) throw new NotFoundError(refusals.unknownField(key));
  return found;
}

/** A key or an alias another live field answers to (as names compare), or a deleted field's key: 409. */
function refuseTakenNames(entries: readonly FieldEntry[], definition: FieldDefinition): void {
  const others = entries.filter((entry) => entry.key !== definition.key);
  const taken = new Set<string>();
  for (const other of others) {
    taken.add(nameKey(other.key));
    if (!isDeletedField(other)) for (const alias of other.aliases) taken.add(nameKey(alias));
  }
  const clash = [definition.key, ...definition.aliases].find((name) => taken.has(nameKey(name)));
  if (clash !== undefined) throw new ConflictError(refusals.nameTaken(clash));
}

/** 50 live fields, 64 KB of definitions as JSON (tombstones not counted): past either, 422. */
function refuseOverLimits(entries: readonly FieldEntry[]): void {
  const live = entries.filter((entry): entry is FieldDefinition => !isDeletedField(entry));
  if (live.length > maxFields) throw new UnknownReferenceError(refusals.tooMany(maxFields));
  if (Buffer.byteLength(JSON.stringify(live), 'utf8') > maxDefinitionsBytes)
    throw new UnknownReferenceError(refusals.tooLarge(maxDefinitionsBytes / 1024));
}

/** The definitions with a new one last; a key ever used in the workspace, even deleted, is 409. */
export function withNewField(config: Pick<WorkspaceConfig, 'fields'>, input: NewFieldInput): FieldEntry[] {
  const definition: FieldDefinition = {
    key: input.key,
    label: input.label,
    type: input.type,
    options: input.options ?? null,
    aliases: input.aliases ?? [],
    update: input.update ?? 'always',
  };
  if (config.fields.some((entry) => entry.key === definition.key))
    throw new ConflictError(refusals.keyTaken(input.key));
  const fields = [...config.fields, definition];
  refuseTakenNames(fields, definition);
  refuseOverLimits(fields);
  return fields;
}

/**
 * The definitions with one changed: `options` only for the choice types, in any order (the new order is the
 * definition's) but keeping every current option (as names compare), since values use them: one left out is 409.
 * Returns `unchanged` when the change says what the definition already says.
 */
export function withChangedField(
  config: Pick<WorkspaceConfig, 'fields'>,
  key: string,
  input: FieldChangeInput,
): { fields: FieldEntry[]; definition: FieldDefinition } | { unchanged: FieldDefinition } {
  const current = fieldNamed(config.fields, key);
  if (input.options !== undefined) {
    if (!hasChoices(current.type)) {
      const message = messages.body.invalidField('options', refusals.optionsRefused);
      throw new InvalidInputError(message, { field: 'options', message });
    }
    const kept = new Set(input.options.map(nameKey));
    const dropped = (current.options ?? []).find((option) => !kept.has(nameKey(option)));
    if (dropped !== undefined) throw new ConflictError(refusals.optionDropped(dropped));
  }
  const definition: FieldDefinition = {
    ...current,
    ...(input.label === undefined ? {} : { label: input.label }),
    ...(input.options === undefined ? {} : { options: input.options }),
    ...(input.aliases === undefined ? {} : { aliases: input.aliases }),
    ...(input.update === undefined ? {} : { update: input.update }),
  };
  if (JSON.stringify(definition) === JSON.stringify(current)) return { unchanged: current };
  const fields = config.fields.map((entry) => (entry === current ? definition : entry));
  refuseTakenNames(fields, definition);
  refuseOverLimits(fields);
  return { fields, definition };
}

/** The definitions with that field as a tombstone: its key stays taken, its values wait for the purge. */
export function withDeletedField(config: Pick<WorkspaceConfig, 'fields'>, key: string, now: string): FieldEntry[] {
  const current = fieldNamed(config.fields, key);
  return config.fields.map((entry) => (entry === current ? { key, deleted_at: now, purging: true } : entry));
}

/** A definition as the routes answer it: its six attributes, in this order. */
export const fieldView = ({ key, label, type, options, aliases, update }: FieldDefinition): FieldDefinition => ({
  key,
  label,
  type,
  options,
  aliases,
  update,
});

/** `GET /fields`: the live definitions in creation order. */
export const fieldListing = (config: Pick<WorkspaceConfig, 'fields'>): { fields: FieldDefinition[] } => ({
  fields: liveFields(config).map(fieldView),
});
