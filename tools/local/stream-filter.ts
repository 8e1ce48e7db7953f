/**
 * Lambda event filtering, as the stream's event source mapping applies it before invoking the
 * function ("Control which events Lambda sends to your function",
 * https://docs.aws.amazon.com/lambda/latest/dg/invocation-eventfiltering.html, and "Using event filtering
 * with a DynamoDB event source", https://docs.aws.amazon.com/lambda/latest/dg/with-ddb-filtering.html):
 * the filters are ORed, a record matching none is dropped (and its position checkpointed) without an
 * invocation. Only the subset of the syntax that lib/routes.ts `streamFilters` uses is implemented: nested
 * objects, and at a leaf an array of exact values and `{ prefix }` rules (any of them). Anything else is
 * refused when the matcher is built, so a new operator in the route list fails loudly here rather than
 * filtering differently from AWS.
 */

export type StreamFilter = Readonly<Record<string, unknown>>;

export type RecordMatcher = (record: unknown) => boolean;

type Rule = { kind: 'exact'; value: string | number | boolean | null } | { kind: 'prefix'; value: string };
type Pattern = { kind: 'leaf'; rules: readonly Rule[] } | { kind: 'object'; fields: ReadonlyMap<string, Pattern> };

export class UnsupportedFilterError extends Error {
  override readonly name = 'UnsupportedFilterError';
}

/** A record matcher for the filters; no filter at all lets every record through, as on AWS. */
export function streamRecordMatcher(filters: readonly StreamFilter[] | undefined): RecordMatcher {
  if (filters === undefined || filters.length === 0) return () => true;
  const patterns = filters.map((filter) => compile(filter, 'filter'));
  return (record) => patterns.some((pattern) => matches(pattern, record));
}

function compile(value: unknown, path: string): Pattern {
  if (Array.isArray(value)) {
    if (value.length === 0) throw new UnsupportedFilterError(`${path}: an empty list matches nothing`);
    return { kind: 'leaf', rules: value.map((rule, index) => compileRule(rule, `${path}[${index}]`)) };
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) throw new UnsupportedFilterError(`${path}: an empty pattern`);
    return {
      kind: 'object',
      fields: new Map(entries.map(([name, inner]) => [name, compile(inner, `${path}.${name}`)])),
    };
  }
  throw new UnsupportedFilterError(`${path}: a leaf must be a list of values or rules`);
}

function compileRule(rule: unknown, path: string): Rule {
  if (rule === null || ['string', 'number', 'boolean'].includes(typeof rule)) {
    return { kind: 'exact', value: rule as string | number | boolean | null };
  }
  if (isObject(rule)) {
    const names = Object.keys(rule);
    if (names.length === 1 && names[0] === 'prefix' && typeof rule.prefix === 'string') {
      return { kind: 'prefix', value: rule.prefix };
    }
    throw new UnsupportedFilterError(
      `${path}: unsupported rule ${JSON.stringify(rule)} (only exact values and prefix)`,
    );
  }
  throw new UnsupportedFilterError(`${path}: unsupported rule ${JSON.stringify(rule)}`);
}

/** Every field the pattern names must be present and match; fields it does not name are ignored. */
function matches(pattern: Pattern, value: unknown): boolean {
  if (pattern.kind === 'object') {
    if (!isObject(value)) return false;
    for (const [name, inner] of pattern.fields) {
      if (!Object.hasOwn(value, name) || !matches(inner, value[name])) return false;
    }
    return true;
  }
  // A list value matches when one of its elements does (the filtering page, "arrays").
  const candidates = Array.isArray(value) ? value : [value];
  return candidates.some((candidate) => pattern.rules.some((rule) => ruleMatches(rule, candidate)));
}

function ruleMatches(rule: Rule, value: unknown): boolean {
  if (rule.kind === 'prefix') return typeof value === 'string' && value.startsWith(rule.value);
  return value === rule.value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
