import { z } from 'zod';
import { productionDeps, type Deps } from '../lib/deps';
import { changeTag } from '../lib/domain/prospect/change-tag';
import { parseJsonBody } from '../lib/http/json-body';
import { prospectIdOf } from '../lib/http/path-ids';
import { json } from '../lib/http/response';
import { apiKeyRoute } from '../lib/http/route-handler';
import { routeById } from '../lib/routes';

/** Section 4.4: the id or exact name of an existing tag. */
const addTagSchema = z.strictObject({
  tag: z.string().trim().min(1, 'un identifiant ou un nom de tag est attendu').max(200, '200 caractères au plus'),
});

export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('addTag'), deps, async ({ event, principal }) => {
    const { tag } = parseJsonBody(event.body, addTagSchema);
    const result = await changeTag(deps, principal, prospectIdOf(event), { action: 'add', tag });
    return json(result.outcome === 'added' ? 201 : 200, result);
  });

export const handler = createHandler(productionDeps());
