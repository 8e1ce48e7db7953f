import { productionDeps, type Deps } from '../../lib/storage/client';
import { readProspect } from '../../lib/domain/prospect/read-prospect';
import { apiKeyRoute } from '../../lib/http/middleware/api-key-gate';
import { json } from '../../lib/http/middleware/route';
import { prospectIdOf } from '../../lib/http/request-input';
import { routeById } from '../../lib/routes';

export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('getProspect'), deps, async (event, { principal }) =>
    json(200, await readProspect(deps, principal, prospectIdOf(event))),
  );

export const handler = createHandler(productionDeps());
