import { listSubscriptions } from '../../../lib/settings/subscription-list';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { settingsRoute, membershipOf } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('listSubscriptions'), deps, async (_event, { principal }) =>
    json(200, await listSubscriptions(deps, membershipOf(principal).workspaceId)),
  );

export const handler = createHandler(productionDeps());
