import { productionDeps, type Deps } from '../../../lib/storage/client';
import { readProspect } from '../../../lib/domain/prospect/read-prospect';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { prospectIdOf } from '../../../lib/http/request-input';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('getWorkspaceProspect'), deps, async (event, { principal }) =>
    json(200, await readProspect(deps, membershipOf(principal), prospectIdOf(event))),
  );

export const handler = createHandler(productionDeps());
