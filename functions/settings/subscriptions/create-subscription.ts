import { createSubscription, newSubscriptionSchema } from '../../../lib/settings/subscriptions';
import { productionSecretsDeps, type SecretsDeps } from '../../../lib/storage/client';
import type { NetworkPolicy } from '../../../lib/outbound/address-policy';
import { settingsRoute, membershipOf } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { parseJsonBody } from '../../../lib/http/request-input';
import { routeById } from '../../../lib/routes';

/**
 * The deps of the one function that creates a secret: the signing-secrets table, for its PutItem only; the
 * network its subscriber URLs are checked for (`aws` here, `local` in `npm start`).
 */
export type CreateSubscriptionDeps = SecretsDeps & { network: NetworkPolicy };

export const createHandler = (deps: CreateSubscriptionDeps) =>
  settingsRoute(routeById('createSubscription'), deps, async (event, { principal }) => {
    const { workspaceId, memberId } = membershipOf(principal);
    const input = parseJsonBody(event.body, newSubscriptionSchema);
    const created = await createSubscription(deps, {
      workspaceId,
      url: input.url,
      events: input.events?.join(','),
      network: deps.network,
      actingMemberId: memberId,
    });
    return json(201, created);
  });

export const handler = createHandler({ ...productionSecretsDeps(), network: 'aws' });
