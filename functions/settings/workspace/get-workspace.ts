import { showWorkspace } from '../../../lib/settings/workspace-view';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('getWorkspace'), deps, async (_event, { principal }) => {
    const { workspaceId, role } = membershipOf(principal);
    return json(200, { ...(await showWorkspace(deps, workspaceId)), role });
  });

export const handler = createHandler(productionDeps());
