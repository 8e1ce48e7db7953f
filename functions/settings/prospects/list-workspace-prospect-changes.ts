import { productionDeps, type Deps } from '../../../lib/storage/client';
import { listProspectChanges } from '../../../lib/domain/prospect/read-prospect';
import { encodeCursor, listRequestOf } from '../../../lib/http/query-parameters';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { prospectIdOf } from '../../../lib/http/request-input';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('listWorkspaceProspectChanges'), deps, async (event, { principal }) => {
    const membership = membershipOf(principal);
    const { page, binding } = listRequestOf(event, 'changes', membership.workspaceId);
    const { items, next } = await listProspectChanges(deps, membership, prospectIdOf(event), page);
    return json(200, { changes: items, next_cursor: next && encodeCursor(binding, next) });
  });

export const handler = createHandler(productionDeps());
