import { productionDeps, type Deps } from '../lib/deps';
import { findProspects } from '../lib/domain/prospect/read-prospect';
import { contactLookupOf } from '../lib/http/query-parameters';
import { json } from '../lib/http/response';
import { apiKeyRoute } from '../lib/http/route-handler';
import { routeById } from '../lib/routes';

export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('findProspects'), deps, async ({ event, principal, deps }) =>
    json(200, await findProspects(deps, principal, contactLookupOf(event))),
  );

export const handler = createHandler(productionDeps());
