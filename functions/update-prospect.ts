import { productionDeps, type Deps } from '../lib/deps';
import { patchProspectSchema } from '../lib/domain/prospect/patch-input';
import { updateProspect } from '../lib/domain/prospect/update-prospect';
import { parseJsonBody } from '../lib/http/json-body';
import { prospectIdOf } from '../lib/http/path-ids';
import { json } from '../lib/http/response';
import { apiKeyRoute } from '../lib/http/route-handler';
import { routeById } from '../lib/routes';

export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('updateProspect'), deps, async ({ event, principal, deps }) => {
    const input = parseJsonBody(event.body, patchProspectSchema);
    return json(200, await updateProspect(deps, principal, prospectIdOf(event), input));
  });

export const handler = createHandler(productionDeps());
