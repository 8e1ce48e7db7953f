import { createApiKey } from '../../../lib/settings/api-keys';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { newApiKeySchema } from '../../../lib/http/settings-input';
import { parseJsonBody } from '../../../lib/http/request-input';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('createApiKey'), deps, async (event, { principal }) => {
    const { name, scopes } = parseJsonBody(event.body, newApiKeySchema);
    const { workspaceId, memberId } = membershipOf(principal);
    // The value is in this answer only: stored as its fingerprint, never logged (docs/api.md#settings-api).
    return json(201, await createApiKey(deps, { workspaceId, name, scopes, actingMemberId: memberId }));
  });

export const handler = createHandler(productionDeps());
