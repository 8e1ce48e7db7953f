import { eraseRecordOf, erasureRequestSchema } from '../../lib/domain/erasure/erase-record';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../lib/http/middleware/member-gate';
import { json } from '../../lib/http/middleware/route';
import { parseJsonBody, pathIdOf } from '../../lib/http/request-input';
import { messages } from '../../lib/messages';
import { routeById } from '../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('eraseWorkspaceCandidate'), deps, async (event, { principal }) => {
    const { workspaceId, memberId } = membershipOf(principal);
    // No body, or an empty JSON object: anything else is a 400 before anything is read (docs/api.md#settings-api).
    if (event.body) parseJsonBody(event.body, erasureRequestSchema);
    const recordId = pathIdOf(event, 'candidate_id', messages.candidate.notFound);
    return json(200, await eraseRecordOf(deps, { workspaceId, kind: 'candidate', recordId, memberId }));
  });

export const handler = createHandler(productionDeps());
