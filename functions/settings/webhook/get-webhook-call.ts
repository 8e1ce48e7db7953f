import { showCall } from '../../../lib/settings/webhook-call-reads';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { settingsRoute, membershipOf } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { pathIdOf } from '../../../lib/http/request-input';
import { messages } from '../../../lib/messages';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('getWebhookCall'), deps, async (event, { principal }) => {
    const { workspaceId } = membershipOf(principal);
    const callId = pathIdOf(event, 'call_id', messages.settingsEvents.callNotFound);
    return json(200, await showCall(deps, workspaceId, callId));
  });

export const handler = createHandler(productionDeps());
