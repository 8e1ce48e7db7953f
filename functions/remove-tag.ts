import { productionDeps, type Deps } from '../lib/deps';
import { changeTag } from '../lib/domain/prospect/change-tag';
import { prospectIdOf, tagOf } from '../lib/http/path-ids';
import { json } from '../lib/http/response';
import { apiKeyRoute } from '../lib/http/route-handler';
import { routeById } from '../lib/routes';

export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('removeTag'), deps, async ({ event, principal, deps }) => {
    // An unreadable tag is a 400, answered before the prospect's 404 (docs/api.md#check-order).
    const tag = tagOf(event);
    const prospectId = prospectIdOf(event);
    return json(200, await changeTag(deps, principal, prospectId, { action: 'remove', tag }));
  });

export const handler = createHandler(productionDeps());
