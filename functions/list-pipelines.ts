import { listActivePipelines } from '../lib/domain/pipelines';
import { productionDeps, type Deps } from '../lib/deps';
import { json } from '../lib/http/response';
import { apiKeyRoute } from '../lib/http/route-handler';
import { routeById } from '../lib/routes';
import { loadWorkspaceConfig } from '../lib/storage/workspace-config';

export const createHandler = (deps: Deps) =>
  apiKeyRoute(routeById('listPipelines'), deps, async ({ principal, deps }) =>
    json(200, listActivePipelines(await loadWorkspaceConfig(deps, principal.workspaceId))),
  );

export const handler = createHandler(productionDeps());
