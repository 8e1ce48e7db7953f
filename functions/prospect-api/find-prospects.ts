import { productionDeps, type Deps } from '../../lib/storage/client';
import { findProspects } from '../../lib/domain/prospect/find-prospects';
import { listProspects } from '../../lib/domain/prospect-list/list-prospects';
import { apiKeyRoute } from '../../lib/http/middleware/api-key-gate';
import { json } from '../../lib/http/middleware/route';
import { contactLookupOf, namesContact, queryParametersOf } from '../../lib/http/query-parameters';
import { routeById } from '../../lib/routes';

/** GET /prospects: the look-up by contact when one is named (docs/api.md#find-a-prospect-by-contact), else the list. */
export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('findProspects'), deps, async (event, { principal }) =>
    json(
      200,
      namesContact(event)
        ? await findProspects(deps, principal, contactLookupOf(event))
        : await listProspects(deps, principal.workspaceId, queryParametersOf(event), deps.clock()),
    ),
  );

export const handler = createHandler(productionDeps());
