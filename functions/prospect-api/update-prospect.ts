import { productionDeps, type Deps } from '../../lib/storage/client';
import { patchProspectSchema, updateProspect } from '../../lib/domain/prospect/update-prospect';
import { apiKeyRoute } from '../../lib/http/middleware/api-key-gate';
import { withIdempotencyKey } from '../../lib/http/middleware/idempotency';
import { json } from '../../lib/http/middleware/route';
import { parseJsonBody, prospectIdOf } from '../../lib/http/request-input';
import { routeById } from '../../lib/routes';

const route = routeById('updateProspect');

export const createHandler = (deps: Deps) =>
  apiKeyRoute(
    route,
    deps,
    withIdempotencyKey(route, deps, async (event, { principal }, deps) => {
      const input = parseJsonBody(event.body, patchProspectSchema);
      return json(200, await updateProspect(deps, principal, prospectIdOf(event), input));
    }),
  );

export const handler = createHandler(productionDeps());
