import { productionDeps, type Deps } from '../../lib/storage/client';
import { findCandidates } from '../../lib/domain/recruitment/find-candidates';
import { membershipOf, settingsRoute } from '../../lib/http/middleware/member-gate';
import { json } from '../../lib/http/middleware/route';
import { candidateEmailOf } from '../../lib/http/query-parameters';
import { routeById } from '../../lib/routes';

/**
 * GET /workspaces/{w}/candidates?email=: a person's candidates, one per recruitment pipeline
 * (docs/api.md#erasure-export-and-retention).
 */
export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('findWorkspaceCandidates'), deps, async (event, { principal }) => {
    const email = candidateEmailOf(event);
    return json(200, await findCandidates(deps, membershipOf(principal).workspaceId, email));
  });

export const handler = createHandler(productionDeps());
