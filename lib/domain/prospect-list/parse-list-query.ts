import { InvalidInputError, isUuid, liveFields, type WorkspaceConfig } from '../model';
import { messages } from '../../messages';
import { readIsoTimestamp } from '../timestamps';
import { fieldFilterOf } from './field-filters';
import { checkedListParameters, fieldKeyOfParameter, type ListParameters } from './list-parameters';
import {
  defaultListSort,
  followUpWindows,
  listSorts,
  type FieldFilter,
  type InstantRange,
  type ListQuery,
  type ListSort,
  type MemberChoice,
  type RangedAttribute,
  type WorkspaceDays,
} from './list-query';
import { checkMembers, pipelineIdsOf, stageIdsOf, tagIdsOf, unknownFieldKey } from './list-references';

/*
 * `GET /prospects` as a list (docs/api.md#lists-of-prospects): its parameters read into a `ListQuery`, in the check
 * order of docs/api.md#check-order: the names and counts, then every value (400, naming the parameter), then what
 * the values refer to (422, naming it).
 */

const refuse = (field: string, message: string) => new InvalidInputError(message, { field, message });

const distinct = <T>(values: T[]): T[] => [...new Set(values)];

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
