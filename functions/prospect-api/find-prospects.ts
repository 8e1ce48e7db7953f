import { productionDeps, type Deps } from '../../lib/storage/client';
import { findProspects } from '../../lib/domain/prospect/find-prospects';
import { apiKeyRoute } from '../../lib/http/middleware/api-key-gate';
import { json } from '../../lib/http/middleware/route';
import { contactLookupOf } from '../../lib/http/query-parameters';
import { routeById } from '../../lib/routes';

export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('findProspects'), deps, async (event, { principal }) =>
    json(200, await findProspects(deps, principal, contactLookupOf(event))),
  );

export const handler = createHandler(productionDeps());
