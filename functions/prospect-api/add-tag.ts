import { productionDeps, type Deps } from '../../lib/storage/client';
import { addTagSchema } from '../../lib/domain/prospect/add-tag-input';
import { changeTag } from '../../lib/domain/prospect/change-tag';
import { apiKeyRoute } from '../../lib/http/middleware/api-key-gate';
import { withIdempotencyKey } from '../../lib/http/middleware/idempotency';
import { json } from '../../lib/http/middleware/route';
import { parseJsonBody, prospectIdOf } from '../../lib/http/request-input';
import { routeById } from '../../lib/routes';

const route = routeById('addTag');

export const createHandler = (deps: Deps) =>
  apiKeyRoute(
    route,
    deps,
    withIdempotencyKey(route, deps, async (event, { principal }, deps) => {
      const { tag } = parseJsonBody(event.body, addTagSchema);
      const result = await changeTag(deps, principal, prospectIdOf(event), { action: 'add', tag });
      return json(result.outcome === 'added' ? 201 : 200, result);
    }),
  );

export const handler = createHandler(productionDeps());
