import { productionDeps, type Deps } from '../../lib/storage/client';
import { addNote, addNoteSchema } from '../../lib/domain/prospect/add-note';
import { apiKeyRoute } from '../../lib/http/middleware/api-key-gate';
import { withIdempotencyKey } from '../../lib/http/middleware/idempotency';
import { json } from '../../lib/http/middleware/route';
import { parseJsonBody, prospectIdOf } from '../../lib/http/request-input';
import { routeById } from '../../lib/routes';

const route = routeById('addNote');

export const createHandler = (deps: Deps) =>
  apiKeyRoute(
    route,
    deps,
    withIdempotencyKey(route, deps, async (event, { principal }, deps) => {
      const input = parseJsonBody(event.body, addNoteSchema);
      return json(201, await addNote(deps, principal, prospectIdOf(event), input));
    }),
  );

export const handler = createHandler(productionDeps());
