import { emailPatternSource } from '../../../lib/domain/model';

/**
 * Rules the handlers check in code, as JSON Schema patterns (ECMA-262, compiled with the `u` flag
 * as validators do): every validator asserts a pattern, whereas OpenAPI 3.1 makes `format` an
 * annotation. Where the service trims a value before reading it, the pattern allows the same
 * white space around it (JavaScript's `\s` is exactly what `String.prototype.trim` removes).
 */

/** Some character other than white space: the value is not blank once trimmed. */
export const notBlank = String.raw`\S`;

/** White space only: a field the service reads as absent. */
export const blank = String.raw`^\s*$`;

function inner(anchored: string): string {
  if (!anchored.startsWith('^') || !anchored.endsWith('$')) throw new Error(`Pattern not anchored: ${anchored}`);
  return anchored.slice(1, -1);
}

/** What `anchored` (`^…$`) matches, with white space around it. */
export const trimmed = (anchored: string): string => String.raw`^\s*(?:${inner(anchored)})\s*$`;

/** An address as lib/domain/model.ts reads it, trimmed first. */
export const emailPattern = trimmed(emailPatternSource);

/** lib/storage/table-items.ts `isUuid`: the 8-4-4-4-12 hexadecimal layout, any version, either case. */
export const uuidPattern = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const year = String.raw`(?:\d{3}[1-9]|\d{2}[1-9]\d|\d[1-9]\d{2}|[1-9]\d{3})`;
const leapYear = String.raw`(?:\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)`;
const monthDay = String.raw`(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))`;
const date = `(?:${year}-${monthDay}|${leapYear}-02-29)`;
const time = String.raw`(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?`;
const zone = String.raw`(?:[Zz]|[+-](?:[01]\d|2[0-3]):?[0-5]\d)`;

/**
 * lib/domain/timestamps.ts with a zone required: a date that exists (years 0001 to 9999, February
 * 29 of leap years only), a time up to 23:59:59 with seconds and their fraction optional, and `Z`
 * or an offset. Only an instant that falls outside years 0001 to 9999 in UTC escapes it.
 */
export const zonedTimestampPattern = `^${date}[Tt]${time}${zone}$`;

/**
 * A bound of a list of prospects (`created_from`…, docs/api.md#lists-of-prospects): a timestamp with its zone, or a
 * date alone (the first instant of that day in the workspace's time zone), as `readIsoTimestamp` reads it with a zone
 * required and a date alone accepted. Not trimmed: the list reads the value as sent.
 */
export const listInstantPattern = `^${date}(?:[Tt]${time}${zone})?$`;

/** `setter_id`, `closer_id` of a list of prospects: a member's id (`isUuid`), or `none` for no one. */
export const memberOrNonePattern = `^(?:none|${inner(uuidPattern)})$`;

/**
 * lib/http/query-parameters.ts `pageRequestOf`: `limit` is one to three decimal digits (leading
 * zeros allowed) naming 1 to 100; no sign, point, exponent or white space. A query value is text:
 * the pattern, not `minimum` and `maximum`, is what a validator can assert on it.
 */
export const pageLimitPattern = '^(?:0{0,2}[1-9]|0?[1-9][0-9]|100)$';
