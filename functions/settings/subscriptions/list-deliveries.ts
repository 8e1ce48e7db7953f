import { deliveriesBinding, pageOfDeliveries, readDeliveryStatus } from '../../../lib/settings/subscription-deliveries';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { settingsRoute, membershipOf } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { pageRequestOf, queryValue } from '../../../lib/http/query-parameters';
import { pathIdOf } from '../../../lib/http/request-input';
import { messages } from '../../../lib/messages';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('listDeliveries'), deps, async (event, { principal }) => {
    const { workspaceId } = membershipOf(principal);
    // 400 before 404: the query is checked before the subscription is looked for.
    const status = readDeliveryStatus(queryValue(event, 'status'));
    const subscriptionText = (event.pathParameters?.subscription_id ?? '').toLowerCase();
    const page = pageRequestOf(event, deliveriesBinding(workspaceId, subscriptionText, status));
    const id = pathIdOf(event, 'subscription_id', messages.settingsEvents.subscriptionNotFound);
    return json(200, await pageOfDeliveries(deps, workspaceId, id, { status, page }));
  });

export const handler = createHandler(productionDeps());
