import { recruitmentWebhookUrl, webhookStatus } from '../../../lib/settings/webhook-status';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { apiBaseUrlOf } from '../../../lib/http/request-input';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('getWebhook'), deps, async (event, { principal }) => {
    const baseUrl = apiBaseUrlOf(event);
    const status = await webhookStatus(deps, membershipOf(principal).workspaceId, baseUrl);
    return json(200, { ...status, recruitment_url: recruitmentWebhookUrl(baseUrl, status.endpoint_id) });
  });

export const handler = createHandler(productionDeps());
