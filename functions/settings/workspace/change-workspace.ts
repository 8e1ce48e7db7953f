import { changeWorkspace, workspaceChangeSchema } from '../../../lib/settings/workspace-settings';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { parseJsonBody } from '../../../lib/http/request-input';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('changeWorkspace'), deps, async (event, { principal }) => {
    const change = parseJsonBody(event.body, workspaceChangeSchema);
    const { workspaceId, memberId, role } = membershipOf(principal);
    return json(200, { ...(await changeWorkspace(deps, { workspaceId, change, actingMemberId: memberId })), role });
  });

export const handler = createHandler(productionDeps());
