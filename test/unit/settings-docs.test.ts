import { readFileSync } from 'node:fs';
import { routes } from '../../lib/routes';

/**
 * docs/api.md's table of the settings API (section « Settings API ») names every route of lib/routes.ts whose
 * credential is a person's (or none: the sign-in routes), with the role the route asks, and no other: the table a
 * reader trusts cannot drift from the route list the stack is built from.
 */
const document = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
const section = document.slice(document.indexOf('## Settings API'), document.indexOf('## Admin command line'));
const workspacePrefix = '/workspaces/{workspace_id}';

const documented = [...section.matchAll(/^\| `(GET|POST|PATCH|DELETE) ([^`]+)` +\| (\w+) +\|/gm)].map(
  ([, method, path, role]) => `${method} ${(path ?? '').replace(/^…/, workspacePrefix)} ${role}`,
);

test('the table lists every settings route, once, with its role', () => {
  const expected = routes
    .filter((route) => route.credential === 'member-token' || route.credential === 'none')
    .map((route) => {
      const role = route.credential === 'none' ? 'none' : route.path.startsWith(workspacePrefix) ? route.role : 'any';
      return `${route.method} ${route.path} ${role}`;
    });
  expect(documented.length).toBeGreaterThan(30);
  expect([...documented].sort()).toEqual([...expected].sort());
});
