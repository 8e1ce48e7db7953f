import { checkedRoutes, isWorkspaceRoute, routes, type Route } from '../../lib/routes';
import { settingsProbe } from '../support/settings-probes';

/**
 * A route under `/workspaces/{workspace_id}` without `role` would admit any member of the workspace (the authorizer
 * asks for admin only when the route says so): the route list refuses it, as it is built and wherever a list is
 * checked (the stack: test/infra/stack.test.ts).
 */
const roleless = (path: string): Route => ({
  id: 'probeRoleless',
  method: 'GET',
  path,
  credential: 'member-token',
  errorShape: 'standard',
});

test('every workspace route of the list names its role, so the list is accepted as built', () => {
  const workspaceRoutes = routes.filter(isWorkspaceRoute);
  expect(workspaceRoutes.length).toBeGreaterThan(0);
  expect(workspaceRoutes.filter((route) => route.role === undefined)).toEqual([]);
  expect(checkedRoutes(routes)).toBe(routes);
});

test.each(['/workspaces/{workspace_id}/probe-roleless', '/workspaces/{workspace_id}'])(
  'a list with a route on %s without role is refused, the route named',
  (path) => {
    expect(() => checkedRoutes([...routes, roleless(path)])).toThrow(`none for: probeRoleless (GET ${path})`);
  },
);

test('the same route with a role is accepted; a route outside a workspace needs none', () => {
  const probe = settingsProbe(1);
  expect(checkedRoutes([...routes, probe])).toContain(probe);
  expect(checkedRoutes([roleless('/workspaces'), roleless('/workspaces-archive/{workspace_id}')])).toHaveLength(2);
});
