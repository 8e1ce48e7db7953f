import { changeSubscription, subscriptionChangeSchema } from '../../../lib/settings/subscriptions';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { settingsRoute, membershipOf } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { parseJsonBody, pathIdOf } from '../../../lib/http/request-input';
import { messages } from '../../../lib/messages';
import { routeById } from '../../../lib/routes';

/** `PATCH /subscriptions/{s}`: `{ active?, events? }`; the answer `{ id, active, events }` as stored now. */
export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('updateSubscription'), deps, async (event, { principal }) => {
    const { workspaceId, memberId } = membershipOf(principal);
    const change = parseJsonBody(event.body, subscriptionChangeSchema);
    const subscriptionId = pathIdOf(event, 'subscription_id', messages.settingsEvents.subscriptionNotFound);
    return json(200, await changeSubscription(deps, { workspaceId, subscriptionId, change, actingMemberId: memberId }));
  });

export const handler = createHandler(productionDeps());
