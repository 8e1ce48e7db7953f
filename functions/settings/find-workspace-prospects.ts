import { productionDeps, type Deps } from '../../lib/storage/client';
import { findProspects } from '../../lib/domain/prospect/find-prospects';
import { membershipOf, settingsRoute } from '../../lib/http/middleware/member-gate';
import { json } from '../../lib/http/middleware/route';
import { contactLookupOf } from '../../lib/http/query-parameters';
import { routeById } from '../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('findWorkspaceProspects'), deps, async (event, { principal }) =>
    json(200, await findProspects(deps, membershipOf(principal), contactLookupOf(event))),
  );

export const handler = createHandler(productionDeps());
