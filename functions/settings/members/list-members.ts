import { listMembers } from '../../../lib/settings/member-list';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { actingMemberOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('listMembers'), deps, async (_event, { principal }) =>
    json(200, await listMembers(deps, actingMemberOf(principal).workspaceId)),
  );

export const handler = createHandler(productionDeps());
