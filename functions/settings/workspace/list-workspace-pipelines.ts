import { productionDeps, type Deps } from '../../../lib/storage/client';
import { listActivePipelines } from '../../../lib/domain/model';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';
import { loadWorkspaceConfig } from '../../../lib/storage/workspace-config';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('listWorkspacePipelines'), deps, async (_event, { principal }) =>
    json(200, listActivePipelines(await loadWorkspaceConfig(deps, membershipOf(principal).workspaceId))),
  );

export const handler = createHandler(productionDeps());
