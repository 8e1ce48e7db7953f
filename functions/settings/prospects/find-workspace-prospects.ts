import { productionDeps, type Deps } from '../../../lib/storage/client';
import { findProspects } from '../../../lib/domain/prospect/find-prospects';
import { listProspects } from '../../../lib/domain/prospect-list/list-prospects';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { contactLookupOf, namesContact, queryParametersOf } from '../../../lib/http/query-parameters';
import { routeById } from '../../../lib/routes';

/** GET /workspaces/{w}/prospects: the look-up by contact when one is named, else the list (docs/api.md#lists-of-prospects). */
export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('findWorkspaceProspects'), deps, async (event, { principal }) => {
    const caller = membershipOf(principal);
    return json(
      200,
      namesContact(event)
        ? await findProspects(deps, caller, contactLookupOf(event))
        : await listProspects(deps, caller.workspaceId, queryParametersOf(event), deps.clock()),
    );
  });

export const handler = createHandler(productionDeps());
