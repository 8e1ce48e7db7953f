import { productionDeps, type Deps } from '../lib/deps';
import { addNote, addNoteSchema } from '../lib/domain/prospect/add-note';
import { parseJsonBody } from '../lib/http/json-body';
import { prospectIdOf } from '../lib/http/path-ids';
import { json } from '../lib/http/response';
import { apiKeyRoute } from '../lib/http/route-handler';
import { routeById } from '../lib/routes';

export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('addNote'), deps, async ({ event, principal, deps }) => {
    const input = parseJsonBody(event.body, addNoteSchema);
    return json(201, await addNote(deps, principal, prospectIdOf(event), input));
  });

export const handler = createHandler(productionDeps());
