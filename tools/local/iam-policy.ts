/**
 * The part of IAM policy evaluation API Gateway applies to an authorizer's policy document: an
 * explicit Deny wins, then an Allow is needed; `*` and `?` are wildcards in actions and resources.
 */
export type PolicyVerdict = 'allowed' | 'denied' | 'malformed';

type Statement = { effect: 'Allow' | 'Deny'; actions: readonly string[]; resources: readonly string[] };

export function evaluatePolicy(document: unknown, action: string, resource: string): PolicyVerdict {
  const statements = readStatements(document);
  if (statements === undefined) return 'malformed';
  const applying = statements.filter(
    (statement) =>
      statement.actions.some((pattern) => wildcardMatch(pattern, action, true)) &&
      statement.resources.some((pattern) => wildcardMatch(pattern, resource, false)),
  );
  if (applying.some((statement) => statement.effect === 'Deny')) return 'denied';
  return applying.some((statement) => statement.effect === 'Allow') ? 'allowed' : 'denied';
}

function readStatements(document: unknown): Statement[] | undefined {
  if (!isObject(document)) return undefined;
  const raw = document.Statement;
  const list: unknown[] = Array.isArray(raw) ? raw : isObject(raw) ? [raw] : [];
  if (list.length === 0 && !Array.isArray(raw)) return undefined;
  const statements: Statement[] = [];
  for (const entry of list) {
    if (!isObject(entry) || (entry.Effect !== 'Allow' && entry.Effect !== 'Deny')) return undefined;
    const actions = stringList(entry.Action);
    const resources = stringList(entry.Resource);
    if (actions === undefined || resources === undefined) return undefined;
    statements.push({ effect: entry.Effect, actions, resources });
  }
  return statements;
}

/** IAM accepts one string or a list of strings; an absent element matches nothing. */
function stringList(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  return undefined;
}

/** Action names are case-insensitive in IAM; resource ARNs are not. */
export function wildcardMatch(pattern: string, value: string, ignoreCase: boolean): boolean {
  const source = [...pattern]
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's').test(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
