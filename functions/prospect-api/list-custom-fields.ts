import { productionDeps, type Deps } from '../../lib/storage/client';
import { fieldListing } from '../../lib/domain/fields/field-definitions';
import { apiKeyRoute } from '../../lib/http/middleware/api-key-gate';
import { json } from '../../lib/http/middleware/route';
import { routeById } from '../../lib/routes';
import { loadWorkspaceConfig } from '../../lib/storage/workspace-config';

export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('listCustomFields'), deps, async (_event, { principal }) =>
    json(200, fieldListing(await loadWorkspaceConfig(deps, principal.workspaceId))),
  );

export const handler = createHandler(productionDeps());
