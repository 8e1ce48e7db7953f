import { listAudit } from '../../../lib/settings/audit';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { actingMemberOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { pageLimitOf, queryValue } from '../../../lib/http/query-parameters';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('listAudit'), deps, async (event, { principal }) =>
    json(
      200,
      await listAudit(deps, {
        workspaceId: actingMemberOf(principal).workspaceId,
        limit: pageLimitOf(event),
        cursor: queryValue(event, 'cursor'),
      }),
    ),
  );

export const handler = createHandler(productionDeps());
