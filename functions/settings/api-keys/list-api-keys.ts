import { listApiKeys } from '../../../lib/settings/api-key-list';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('listApiKeys'), deps, async (_event, { principal }) =>
    json(200, { api_keys: await listApiKeys(deps, membershipOf(principal).workspaceId) }),
  );

export const handler = createHandler(productionDeps());
