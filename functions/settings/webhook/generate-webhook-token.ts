import { generateWebhook } from '../../../lib/settings/webhooks';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { apiBaseUrlOf, parseJsonBody } from '../../../lib/http/request-input';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { emptyBodySchema } from '../../../lib/http/settings-input';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('generateWebhookToken'), deps, async (event, { principal }) => {
    if (event.body !== null && event.body !== '') parseJsonBody(event.body, emptyBodySchema);
    const { workspaceId, memberId } = membershipOf(principal);
    // The first token, or a new one replacing the old (which fails from the next call on); shown here only.
    return json(201, await generateWebhook(deps, workspaceId, apiBaseUrlOf(event), memberId));
  });

export const handler = createHandler(productionDeps());
