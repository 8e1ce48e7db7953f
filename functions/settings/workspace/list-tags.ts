import { listTags } from '../../../lib/settings/tag-list';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('listTags'), deps, async (_event, { principal }) =>
    json(200, { tags: await listTags(deps, membershipOf(principal).workspaceId) }),
  );

export const handler = createHandler(productionDeps());
