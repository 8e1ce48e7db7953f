import { productionDeps, type Deps } from '../lib/deps';
import { addTagSchema } from '../lib/domain/prospect/add-tag-input';
import { changeTag } from '../lib/domain/prospect/change-tag';
import { parseJsonBody } from '../lib/http/json-body';
import { prospectIdOf } from '../lib/http/path-ids';
import { json } from '../lib/http/response';
import { apiKeyRoute } from '../lib/http/route-handler';
import { routeById } from '../lib/routes';

export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('addTag'), deps, async ({ event, principal, deps }) => {
    const { tag } = parseJsonBody(event.body, addTagSchema);
    const result = await changeTag(deps, principal, prospectIdOf(event), { action: 'add', tag });
    return json(result.outcome === 'added' ? 201 : 200, result);
  });

export const handler = createHandler(productionDeps());
