import { productionDeps, type Deps } from '../../../lib/storage/client';
import { workspacesOf } from '../../../lib/domain/session/session';
import { settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('listMyWorkspaces'), deps, async (_event, { principal }) =>
    json(200, { workspaces: (await workspacesOf(deps, principal.email)).workspaces }),
  );

export const handler = createHandler(productionDeps());
