import { revokeApiKey } from '../../../lib/settings/api-keys';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { pathIdOf, pathParameterText } from '../../../lib/http/request-input';
import { messages } from '../../../lib/messages';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('revokeApiKey'), deps, async (event, { principal }) => {
    const keyId = pathIdOf(event, 'key_id', messages.admin.ids.unknown.apiKey(pathParameterText(event, 'key_id')));
    const { workspaceId, memberId } = membershipOf(principal);
    return json(200, await revokeApiKey(deps, { workspaceId, keyId, actingMemberId: memberId }));
  });

export const handler = createHandler(productionDeps());
