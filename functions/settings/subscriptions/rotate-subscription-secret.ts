import { rotateSubscriptionSecret } from '../../../lib/settings/subscriptions';
import { productionSecretsDeps, type SecretsDeps } from '../../../lib/storage/client';
import { settingsRoute, membershipOf } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { pathIdOf } from '../../../lib/http/request-input';
import { messages } from '../../../lib/messages';
import { routeById } from '../../../lib/routes';

/** The signing-secrets table for one UpdateItem that computes the new item from the stored one: nothing read. */
export const createHandler = (deps: SecretsDeps) =>
  settingsRoute(routeById('rotateSubscriptionSecret'), deps, async (event, { principal }) => {
    const { workspaceId, memberId } = membershipOf(principal);
    const id = pathIdOf(event, 'subscription_id', messages.settingsEvents.subscriptionNotFound);
    return json(201, await rotateSubscriptionSecret(deps, workspaceId, id, memberId));
  });

export const handler = createHandler(productionSecretsDeps());
