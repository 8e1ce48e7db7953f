import { setWebhookActive } from '../../../lib/settings/webhooks';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { apiBaseUrlOf, parseJsonBody } from '../../../lib/http/request-input';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { webhookActiveSchema } from '../../../lib/http/settings-input';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('setWebhookActive'), deps, async (event, { principal }) => {
    const { active } = parseJsonBody(event.body, webhookActiveSchema);
    const { workspaceId, memberId } = membershipOf(principal);
    return json(200, await setWebhookActive(deps, workspaceId, active, apiBaseUrlOf(event), memberId));
  });

export const handler = createHandler(productionDeps());
