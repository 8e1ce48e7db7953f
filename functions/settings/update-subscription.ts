import { setSubscriptionActive, subscriptionActivationSchema } from '../../lib/settings/subscriptions';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { settingsRoute, membershipOf } from '../../lib/http/middleware/member-gate';
import { json } from '../../lib/http/middleware/route';
import { parseJsonBody, pathIdOf } from '../../lib/http/request-input';
import { messages } from '../../lib/messages';
import { routeById } from '../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('updateSubscription'), deps, async (event, { principal }) => {
    const { workspaceId, memberId } = membershipOf(principal);
    const { active } = parseJsonBody(event.body, subscriptionActivationSchema);
    const id = pathIdOf(event, 'subscription_id', messages.settingsEvents.subscriptionNotFound);
    return json(200, await setSubscriptionActive(deps, workspaceId, id, active, memberId));
  });

export const handler = createHandler(productionDeps());
