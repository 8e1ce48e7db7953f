import { productionDeps, type Deps } from '../../lib/storage/client';
import { listProspectNotes } from '../../lib/domain/prospect/read-prospect';
import { encodeCursor, listRequestOf } from '../../lib/http/query-parameters';
import { apiKeyRoute } from '../../lib/http/middleware/api-key-gate';
import { json } from '../../lib/http/middleware/route';
import { prospectIdOf } from '../../lib/http/request-input';
import { routeById } from '../../lib/routes';

export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('listNotes'), deps, async (event, { principal }) => {
    const { page, binding } = listRequestOf(event, 'notes', principal.workspaceId);
    const { items, next } = await listProspectNotes(deps, principal, prospectIdOf(event), page);
    return json(200, { notes: items, next_cursor: next && encodeCursor(binding, next) });
  });

export const handler = createHandler(productionDeps());
