import { InvalidInputError } from '../model';
import { messages } from '../../messages';
import { maxFilterValues, maxListIds } from './list-query';

/*
 * Which parameters `GET /prospects` reads as a list, and how often each may come (docs/api.md#lists-of-prospects),
 * before any value is read: these refusals are 400s naming the parameter, and come before every other.
 */

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

export const fieldKeyOfParameter = (name: string): string | undefined =>
  name.startsWith(fieldPrefix) ? name.slice(fieldPrefix.length) : undefined;

const isListParameter = (name: string): boolean =>
  name === 'id' ||
  repeatableFilters.includes(name) ||
  singleParameters.includes(name) ||
  fieldKeyOfParameter(name) !== undefined;

/** A parameter with no value is not given. */
const givenNames = (parameters: ListParameters): string[] =>
  Object.keys(parameters).filter((name) => (parameters[name]?.length ?? 0) > 0);

const refuse = (field: string, message: string) => new InvalidInputError(message, { field, message });

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
export function checkedListParameters(parameters: ListParameters): string[] {
  const given = givenNames(parameters);
  const unknown = given.filter((name) => !isListParameter(name)).sort()[0];
  if (unknown !== undefined) throw refuse(unknown, messages.lists.unknownParameter(unknown));
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
