import { productionDeps, type Deps } from '../../lib/storage/client';
import { changeTag } from '../../lib/domain/prospect/change-tag';
import { apiKeyRoute } from '../../lib/http/middleware/api-key-gate';
import { withIdempotencyKey } from '../../lib/http/middleware/idempotency';
import { json } from '../../lib/http/middleware/route';
import { prospectIdOf, tagOf } from '../../lib/http/request-input';
import { routeById } from '../../lib/routes';

const route = routeById('removeTag');

export const createHandler = (deps: Deps) =>
  apiKeyRoute(
    route,
    deps,
    withIdempotencyKey(route, deps, async (event, { principal }, deps) => {
      // An unreadable tag is a 400, answered before the prospect's 404 (docs/api.md#check-order).
      const tag = tagOf(event);
      const prospectId = prospectIdOf(event);
      return json(200, await changeTag(deps, principal, prospectId, { action: 'remove', tag }));
    }),
  );

export const handler = createHandler(productionDeps());
