import { replayCall, type WebhookInvoker } from '../../../lib/settings/webhook-call-replay';
import { deployedWebhooks } from '../../../lib/settings/webhook-functions';
import { productionDeps, type Deps, loadConfig } from '../../../lib/storage/client';
import { settingsRoute, membershipOf } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { pathIdOf } from '../../../lib/http/request-input';
import { messages } from '../../../lib/messages';
import { routeById } from '../../../lib/routes';

/** The webhooks' own functions, invoked (Lambda on AWS, the local runtime's Lambda API locally). */
export type ReplayDeps = Deps & { webhooks: WebhookInvoker };

export const createHandler = (deps: ReplayDeps) =>
  settingsRoute(routeById('replayWebhookCall'), deps, async (event, { principal }) => {
    const { workspaceId, memberId } = membershipOf(principal);
    const callId = pathIdOf(event, 'call_id', messages.settingsEvents.callNotFound);
    return json(200, await replayCall(deps, workspaceId, callId, deps.webhooks, memberId));
  });

const config = loadConfig();
export const handler = createHandler({
  ...productionDeps(config),
  webhooks: deployedWebhooks(process.env, config.region),
});
