import {
  findByIdOrName,
  InvalidInputError,
  isUuid,
  liveFields,
  sameName,
  UnknownReferenceError,
  type FieldDefinition,
  type WorkspaceConfig,
} from '../model';
import { messages } from '../../messages';
import { readFieldValue } from '../fields/field-values';
import { readIsoTimestamp } from '../timestamps';
import { comparableValues } from './list-filter';
import {
  defaultListSort,
  followUpWindows,
  listSorts,
  maxFilterValues,
  maxListIds,
  type FieldFilter,
  type FieldFilterValue,
  type InstantRange,
  type ListQuery,
  type ListSort,
  type MemberChoice,
  type RangedAttribute,
  type WorkspaceDays,
} from './list-query';

/*
 * `GET /prospects` as a list (docs/api.md#lists-of-prospects): its parameters read into a `ListQuery`, in the check
 * order of docs/api.md#check-order: the names and counts, then every value (400, naming the parameter), then what
 * the values refer to (422, naming it).
 */

const refuse = (field: string, message: string) => new InvalidInputError(message, { field, message });

const distinct = <T>(values: T[]): T[] => [...new Set(values)];

// Which parameters the list reads, and how often each may come, before any value is read: these refusals are 400s
// naming the parameter, and come before every other.

/** The query string as API Gateway splits it: each parameter's values, in the order sent. */
export type ListParameters = Readonly<Record<string, readonly string[]>>;

/** Given several times, any of their values (`?tag=a&tag=b`): they share `maxFilterValues`, `fields.<key>` too. */
const repeatableFilters = ['pipeline', 'stage', 'setter_id', 'closer_id', 'member_id', 'tag', 'follow_up'];
const singleParameters = [
  'follow_up_from',
  'follow_up_to',
  'created_from',
  'created_to',
  'updated_from',
  'updated_to',
  'sort',
  'limit',
  'cursor',
];
const fieldPrefix = 'fields.';

const fieldKeyOfParameter = (name: string): string | undefined =>
  name.startsWith(fieldPrefix) ? name.slice(fieldPrefix.length) : undefined;

const isListParameter = (name: string): boolean =>
  name === 'id' ||
  repeatableFilters.includes(name) ||
  singleParameters.includes(name) ||
  fieldKeyOfParameter(name) !== undefined;

/** A parameter with no value is not given. */
const givenNames = (parameters: ListParameters): string[] =>
  Object.keys(parameters).filter((name) => (parameters[name]?.length ?? 0) > 0);

/** The order parameters are checked in, so that of two faults the same one is always named. */
const rankOf = (name: string): number => {
  if (name === 'id') return 0;
  const repeatable = repeatableFilters.indexOf(name);
  if (repeatable >= 0) return 1 + repeatable;
  if (fieldKeyOfParameter(name) !== undefined) return 1 + repeatableFilters.length;
  return 2 + repeatableFilters.length + singleParameters.indexOf(name);
};
const inCheckOrder = (names: string[]): string[] =>
  [...names].sort((a, b) => rankOf(a) - rankOf(b) || (a < b ? -1 : a > b ? 1 : 0));

/**
 * The parameters given, in check order, once their names and counts are accepted (the look-up by contact is the
 * handler's to tell apart, before: lib/http/query-parameters.ts): a name the list does not read, a parameter that takes one value given several
 * times, more than `maxListIds` ids, or more than `maxFilterValues` values in all across the other repeatable
 * filters (naming the one that goes over) is a 400.
 */
function checkedListParameters(parameters: ListParameters): string[] {
  const given = givenNames(parameters);
  const unknownName = given.filter((name) => !isListParameter(name)).sort()[0];
  if (unknownName !== undefined) throw refuse(unknownName, messages.lists.unknownParameter(unknownName));
  const names = inCheckOrder(given);
  const count = (name: string) => parameters[name]?.length ?? 0;
  const repeated = names.find((name) => singleParameters.includes(name) && count(name) > 1);
  if (repeated !== undefined) throw refuse(repeated, messages.query.repeated(repeated));
  if (count('id') > maxListIds) throw refuse('id', messages.lists.tooManyIds(maxListIds));
  let filterValues = 0;
  for (const name of names) {
    if (name === 'id' || singleParameters.includes(name)) continue;
    filterValues += count(name);
    if (filterValues > maxFilterValues) throw refuse(name, messages.lists.tooManyValues(name, maxFilterValues));
  }
  return names;
}

// The values, each as its parameter reads it: 400s.

/** `limit`, as every list reads it (docs/api.md#pagination): decimal digits, 1 to 100, default 50. */
const defaultLimit = 50;
const maxLimit = 100;
function limitOf(text: string | undefined): number {
  if (text === undefined) return defaultLimit;
  const limit = Number(text);
  if (!/^\d{1,3}$/.test(text) || limit < 1 || limit > maxLimit) throw refuse('limit', messages.query.invalidLimit);
  return limit;
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A bound of a range: a timestamp with its zone (docs/api.md#timestamps), or a date alone, the first instant of that
 * day in the workspace's time zone.
 */
function instantOf(parameter: string, text: string, days: WorkspaceDays): string {
  const instant = isoDate.test(text)
    ? readIsoTimestamp(text, { zone: 'required', dateOnly: true }) && new Date(days.startOf(text))
    : readIsoTimestamp(text, { zone: 'required', dateOnly: false });
  if (!instant) throw refuse(parameter, messages.lists.invalidInstant(parameter));
  return instant.toISOString();
}

const rangeParameters: readonly [RangedAttribute, string, string][] = [
  ['next_follow_up_at', 'follow_up_from', 'follow_up_to'],
  ['created_at', 'created_from', 'created_to'],
  ['updated_at', 'updated_from', 'updated_to'],
];

function memberChoiceOf(parameter: string, values: readonly string[]): MemberChoice {
  if (values.some((value) => value !== 'none' && !isUuid(value)))
    throw refuse(parameter, messages.lists.invalidMember(parameter));
  return {
    memberIds: distinct(values.filter((value) => value !== 'none').map((value) => value.toLowerCase())),
    none: values.includes('none'),
  };
}

function memberIdsOf(values: readonly string[]): string[] {
  if (!values.every(isUuid)) throw refuse('member_id', messages.lists.invalidMember('member_id'));
  return distinct(values.map((value) => value.toLowerCase()));
}

const isOneOf = <T extends string>(allowed: readonly T[], value: string): value is T =>
  (allowed as readonly string[]).includes(value);

/**
 * The filter the values of one `fields.<key>` ask for (any of them; for `multi_choice`, any of the options they
 * name), each once; undefined when one of them does not fit the type (or is blank). A value is read as the field's
 * type reads a PATCH's (docs/api.md#field-types), so that `1 500,50` finds 1500.5, `25/12/2026` finds 2026-12-25,
 * `Oui` finds true and an option finds it however it is cased.
 */
export function fieldFilterOf(definition: FieldDefinition, texts: readonly string[]): FieldFilter | undefined {
  const values: FieldFilterValue[] = [];
  for (const text of texts) {
    const reading = readFieldValue(definition, text);
    if (reading.kind !== 'value') return undefined;
    for (const value of comparableValues(definition, reading.value)) if (!values.includes(value)) values.push(value);
  }
  const { key, type, options } = definition;
  return { definition: { key, type, options }, values };
}

// What the values refer to, resolved against the workspace's configuration: what the workspace does not have is a
// 422 naming the parameter, once every 400 has been ruled out.

const unknown = (field: string, message: string) => new UnknownReferenceError(message, { field, message });

/** `pipeline`: sales pipelines by id or name (docs/api.md#names-as-references), inactive ones too. */
function pipelineIdsOf(config: WorkspaceConfig, references: readonly string[]): string[] {
  return distinct(
    references.map((reference) => {
      const pipeline = findByIdOrName(config.salesPipelines, reference);
      if (!pipeline) throw unknown('pipeline', messages.lists.unknownPipeline(reference));
      return pipeline.id;
    }),
  );
}

/**
 * `stage`: a stage id of any sales pipeline, or a stage name within the one pipeline `pipeline` names, or, unless
 * exactly one is named, within the default pipeline: a name alone means the stage of the board shown first.
 */
function stageIdsOf(
  config: WorkspaceConfig,
  references: readonly string[],
  pipelineIds: readonly string[] | undefined,
): string[] {
  const stages = config.salesPipelines.flatMap((pipeline) => pipeline.stages);
  const namesIn = config.salesPipelines.find((pipeline) =>
    pipelineIds?.length === 1 ? pipeline.id === pipelineIds[0] : pipeline.is_default,
  );
  return distinct(
    references.map((reference) => {
      const id = reference.trim().toLowerCase();
      const stage =
        stages.find((candidate) => candidate.id === id) ??
        namesIn?.stages.find((candidate) => sameName(candidate.name, reference));
      if (!stage) throw unknown('stage', messages.lists.unknownStage(reference));
      return stage.id;
    }),
  );
}

/** `setter_id`, `closer_id`, `member_id`: members of the workspace, removed ones too (their ids stay valid). */
function checkMembers(config: WorkspaceConfig, parameter: string, memberIds: readonly string[]): void {
  if (memberIds.some((id) => !config.members.some((member) => member.id === id)))
    throw unknown(parameter, messages.lists.unknownMember(parameter));
}

/** `tag`: tags by id or name. */
function tagIdsOf(config: WorkspaceConfig, references: readonly string[]): string[] {
  return distinct(
    references.map((reference) => {
      const tag = findByIdOrName(config.tags, reference);
      if (!tag) throw unknown('tag', messages.lists.unknownTag(reference));
      return tag.id;
    }),
  );
}

/** `fields.<key>` of a key the workspace has no live field for (a deleted field's included). */
const unknownFieldKey = (parameter: string, key: string) => unknown(parameter, messages.fields.unknownField(key));

/**
 * The list a request asks for, read with the workspace's configuration and days at `now`: ids resolved (pipelines,
 * stages and tags by id or name), dates as instants, custom field values as their types answer them. Throws the
 * 400 (`InvalidInputError`) or 422 (`UnknownReferenceError`) the first fault calls for, `field` naming its parameter.
 */
export function parseListQuery(
  parameters: ListParameters,
  config: WorkspaceConfig,
  days: WorkspaceDays,
  now: Date,
): ListQuery {
  const names = checkedListParameters(parameters);
  const valuesOf = (name: string): readonly string[] | undefined =>
    names.includes(name) ? (parameters[name] ?? []) : undefined;
  const single = (name: string): string | undefined => valuesOf(name)?.[0];

  // The values, each as its parameter reads it: 400s.
  const ids = valuesOf('id');
  if (ids && !ids.every(isUuid)) throw refuse('id', messages.lists.invalidId);
  for (const name of ['pipeline', 'stage', 'tag']) {
    if (valuesOf(name)?.some((value) => value.trim() === '')) throw refuse(name, messages.lists.blank(name));
  }
  const setterIds = valuesOf('setter_id');
  const setters = setterIds && memberChoiceOf('setter_id', setterIds);
  const closerIds = valuesOf('closer_id');
  const closers = closerIds && memberChoiceOf('closer_id', closerIds);
  const memberValues = valuesOf('member_id');
  const memberIds = memberValues && memberIdsOf(memberValues);
  const windows = valuesOf('follow_up')?.map((window) => {
    if (!isOneOf(followUpWindows, window)) throw refuse('follow_up', messages.lists.invalidFollowUp);
    return window;
  });

  const definitions = liveFields(config);
  const fields: FieldFilter[] = [];
  const unknownKeys: [string, string][] = [];
  for (const name of names) {
    const key = fieldKeyOfParameter(name);
    if (key === undefined) continue;
    const definition = definitions.find((candidate) => candidate.key === key);
    if (!definition) {
      unknownKeys.push([name, key]);
      continue;
    }
    const filter = fieldFilterOf(definition, valuesOf(name) ?? []);
    if (!filter) throw refuse(name, messages.lists.invalidFieldValue(name, definition.label));
    fields.push(filter);
  }

  const ranges: ListQuery['ranges'] = {};
  for (const [attribute, fromName, toName] of rangeParameters) {
    const from = single(fromName);
    const to = single(toName);
    if (from === undefined && to === undefined) continue;
    const range: InstantRange = {};
    if (from !== undefined) range.from = instantOf(fromName, from, days);
    if (to !== undefined) range.to = instantOf(toName, to, days);
    ranges[attribute] = range;
  }

  const sortText = single('sort');
  if (sortText !== undefined && !isOneOf(listSorts, sortText)) throw refuse('sort', messages.lists.invalidSort);
  const sort: ListSort = sortText ?? defaultListSort;
  const limit = limitOf(single('limit'));
  const cursor = single('cursor');
  if (cursor === '') throw refuse('cursor', messages.query.invalidCursor);

  // What the values refer to: 422s.
  const pipelineReferences = valuesOf('pipeline');
  const pipelineIds = pipelineReferences && pipelineIdsOf(config, pipelineReferences);
  const stageReferences = valuesOf('stage');
  const stageIds = stageReferences && stageIdsOf(config, stageReferences, pipelineIds);
  if (setters) checkMembers(config, 'setter_id', setters.memberIds);
  if (closers) checkMembers(config, 'closer_id', closers.memberIds);
  if (memberIds) checkMembers(config, 'member_id', memberIds);
  const tagReferences = valuesOf('tag');
  const tagIds = tagReferences && tagIdsOf(config, tagReferences);
  const [unknownField] = unknownKeys;
  if (unknownField) throw unknownFieldKey(...unknownField);

  const day = windows && days.today(now);
  return {
    ...(ids && { ids: distinct(ids.map((id) => id.toLowerCase())) }),
    ...(pipelineIds && { pipelineIds }),
    ...(stageIds && { stageIds }),
    ...(setters && { setters }),
    ...(closers && { closers }),
    ...(memberIds && { memberIds }),
    ...(tagIds && { tagIds }),
    ...(windows &&
      day && {
        followUp: {
          windows: distinct(windows),
          day: { start: new Date(day.start).toISOString(), end: new Date(day.end).toISOString() },
        },
      }),
    ranges,
    fields,
    sort,
    limit,
    ...(cursor !== undefined && { cursor }),
  };
}
