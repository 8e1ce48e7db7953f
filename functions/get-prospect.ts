import { productionDeps, type Deps } from '../lib/deps';
import { readProspect } from '../lib/domain/prospect/read-prospect';
import { prospectIdOf } from '../lib/http/path-ids';
import { json } from '../lib/http/response';
import { apiKeyRoute } from '../lib/http/route-handler';
import { routeById } from '../lib/routes';

export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('getProspect'), deps, async ({ event, principal, deps }) =>
    json(200, await readProspect(deps, principal, prospectIdOf(event))),
  );

export const handler = createHandler(productionDeps());
